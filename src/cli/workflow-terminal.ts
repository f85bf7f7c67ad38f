import { defaultToolPolicy, type EffectiveToolPolicy } from '../workflow/prompt/tool-policy.js';
import type { WorkflowRunOptions } from '../workflow/run/workflow-run.js';
import { printRetry } from './commands/complete.js';
import { type ModelFlags, selectModel } from './model-selection.js';
import { EngineEventRenderer } from './render-engine-events.js';
import { renderWorkflowEvents } from './render-workflow-events.js';
import type { RunSettings } from './run-settings.js';
import { TerminalOutput } from './terminal-output.js';
import { WaitIndicator } from './wait-indicator.js';

/** What `spine run` and `spine resume` share: the model, the live view, Ctrl+C, and whether to prompt. */
export interface WorkflowTerminal {
  runOptions: WorkflowRunOptions;
  /** The settings' tool policy: MCP enabled for the servers given (`--mcp`, `mcp_servers:`). */
  toolPolicy: EffectiveToolPolicy;
  interactive: boolean;
  signal: AbortSignal;
}

export async function openWorkflowTerminal(
  flags: ModelFlags,
  settings: RunSettings,
  json: boolean,
): Promise<WorkflowTerminal> {
  const { client, contextLength } = await selectModel(flags, printRetry);
  const info = new TerminalOutput(process.stderr);
  // With --json stdout holds only the result object: the live view goes to stderr.
  const engine = new EngineEventRenderer({
    text: json ? new TerminalOutput({ write: () => true }) : new TerminalOutput(process.stdout),
    info,
    showReasoning: settings.showReasoning,
    waiting: new WaitIndicator(process.stderr),
  });
  const runOptions: WorkflowRunOptions = {
    llm: client,
    onEvent: renderWorkflowEvents(engine, info),
    extraTools: settings.extraTools,
    ...(settings.mcp ? { toolSources: [settings.mcp] } : {}),
    ...(settings.maxTurns !== undefined ? { maxTurns: settings.maxTurns } : {}),
    ...(settings.maxTokens !== undefined ? { requestDefaults: { maxTokens: settings.maxTokens } } : {}),
    ...(contextLength !== undefined ? { history: { contextLength } } : {}),
  };
  return {
    runOptions,
    toolPolicy: {
      ...defaultToolPolicy,
      mcp: { enabled: settings.mcp !== undefined, allowedServers: settings.mcp?.serverNames ?? [] },
    },
    interactive: !json && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY),
    signal: interruptSignal(),
  };
}

/** Ctrl+C stops the run between turns (the state file already holds everything to resume); twice quits. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\nstopping… (Ctrl+C again to quit at once)\n');
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  return controller.signal;
}
