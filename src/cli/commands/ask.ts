import { basename } from 'node:path';
import type { Command } from 'commander';
import type { ChatMessage } from '../../core/types.js';
import type { EngineResult } from '../../engine/engine-types.js';
import { createRunEngine } from '../create-run-engine.js';
import { incompleteAnswerExitCode, judgeAnswer } from '../judge-answer.js';
import { locateRunFolder } from '../locate-audit-log.js';
import { selectModel } from '../model-selection.js';
import { EngineEventRenderer } from '../render-engine-events.js';
import { reportError } from '../report-error.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { readRunSettings } from '../run-settings.js';
import { loadConversation, saveConversation } from '../saved-conversation.js';
import { TerminalOutput } from '../terminal-output.js';
import { WaitIndicator } from '../wait-indicator.js';
import { printRetry } from './complete.js';

interface AskFlags extends RunFlags {
  json?: boolean;
  continue?: string;
}

export function registerAskCommand(program: Command): void {
  addRunOptions(
    program
      .command('ask')
      .description('run one task to its stop point with tools (the fs tools over --project by default)')
      .argument('<task>', 'what to do, as the user message')
      .option(
        '--continue <run>',
        'carry on an earlier ask run (its id or folder) with TASK as the next message',
      )
      .option(
        '--json',
        'print one JSON object: {phase, assistantText, finishReason, answer, error, messages, turns, runId, runDir}',
      ),
  ).action(async (task: string, flags: AskFlags) => {
    try {
      const json = Boolean(flags.json);
      const settings = await readRunSettings(flags);
      const earlier =
        flags.continue === undefined ? undefined : await findEarlierRun(flags.continue, settings);
      const { client, contextLength } = await selectModel(flags, printRetry);
      const renderer = new EngineEventRenderer({
        text: new TerminalOutput(process.stdout),
        info: new TerminalOutput(process.stderr),
        showReasoning: settings.showReasoning,
        waiting: new WaitIndicator(process.stderr),
      });
      const run = createRunEngine({
        settings,
        llm: client,
        completeOnAnswer: true,
        ...(contextLength !== undefined ? { contextLength } : {}),
        // With --json stdout holds only the result object; the live view moves to stderr, tools included.
        onEvent: json ? renderToStderr(settings.showReasoning) : renderer.render,
        ...(earlier ? { existingRun: earlier } : {}),
      });
      const messages: ChatMessage[] = [...(earlier?.messages ?? []), { role: 'user', content: task }];
      const result = await run.engine
        .start({ messages, runId: run.runId, signal: interruptSignal() })
        .finally(() => settings.mcp?.close());
      await saveConversation(run.runDir, result.messages);
      if (json) printJson(result, run.runDir);
      else if (result.assistantText !== '' && !renderer.hasShown(result.assistantText))
        process.stdout.write(`${result.assistantText}\n`);
      if (result.error) {
        process.stderr.write(`${result.error.code}: ${result.error.message}\n`);
        const hint = continueHint(result, run.runId);
        if (hint) process.stderr.write(`${hint}\n`);
      }
      // WaitingUser after max turns or a detected loop is not a finished task: scripts see exit 1.
      if (!result.success) process.exitCode = 1;
      const answer = judgeAnswer(result);
      if (answer.note !== undefined) {
        process.stderr.write(`${answer.note}\n`);
        process.exitCode = incompleteAnswerExitCode;
      }
    } catch (error) {
      reportError(error, Boolean(flags.json));
    }
  });
}

async function findEarlierRun(run: string, settings: { project: string; cwd: string }) {
  const runDir = await locateRunFolder(run, settings);
  return { runId: basename(runDir), runDir, messages: await loadConversation(runDir) };
}

/** A run stopped for want of turns can go on where it stopped; say how. */
function continueHint(result: EngineResult, runId: string): string | undefined {
  if (result.error?.code !== 'ENGINE_MAX_TURNS') return undefined;
  return `to go on: spine ask --continue ${runId} "continue" (add --max-turns N for a longer leash)`;
}

function renderToStderr(showReasoning: boolean) {
  const stderr = new TerminalOutput(process.stderr);
  return new EngineEventRenderer({
    text: new TerminalOutput({ write: () => true }),
    info: stderr,
    showReasoning,
    waiting: new WaitIndicator(process.stderr),
  }).render;
}

function printJson(result: EngineResult, runDir: string): void {
  const { phase, assistantText, error, messages, turns, runId } = result;
  const finishReason = result.finishReason ?? null;
  const answer = judgeAnswer(result).verdict;
  process.stdout.write(
    `${JSON.stringify({ phase, assistantText, finishReason, answer, error: error ?? null, messages, turns, runId, runDir })}\n`,
  );
}

/** Ctrl+C ends the run as Failed (ENGINE_ABORTED) after any running tool has finished; a second one kills. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ncancelling… (Ctrl+C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  return controller.signal;
}
