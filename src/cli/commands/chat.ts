import type { Command } from 'commander';
import { ChatRepl } from '../chat-repl.js';
import { ChatSession } from '../chat-session.js';
import { selectModel } from '../model-selection.js';
import { EngineEventRenderer } from '../render-engine-events.js';
import { reportError } from '../report-error.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { readRunSettings } from '../run-settings.js';
import { TerminalOutput } from '../terminal-output.js';
import { WaitIndicator } from '../wait-indicator.js';
import { printRetry } from './complete.js';

export function registerChatCommand(program: Command): void {
  addRunOptions(
    program
      .command('chat')
      .description('talk to an agent in the terminal; tool calls and results are shown as they happen'),
  ).action(async (flags: RunFlags) => {
    try {
      const settings = await readRunSettings(flags);
      const model = await selectModel(flags, printRetry);
      const output = new TerminalOutput(process.stdout);
      const renderer = new EngineEventRenderer({
        text: output,
        info: output,
        showReasoning: settings.showReasoning,
        waiting: new WaitIndicator(process.stderr),
      });
      const session = new ChatSession({
        settings,
        llm: model.client,
        onEvent: renderer.render,
        ...(model.contextLength !== undefined ? { contextLength: model.contextLength } : {}),
      });
      await new ChatRepl({
        input: process.stdin,
        output,
        errors: new TerminalOutput(process.stderr),
        session,
        modelDescription: model.description,
        wasShown: (text) => renderer.hasShown(text),
      }).run();
      await settings.mcp?.close();
    } catch (error) {
      reportError(error, false);
    }
  });
}
