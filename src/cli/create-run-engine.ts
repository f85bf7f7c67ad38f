import type { ModelClient } from '../core/types.js';
import { createEngine, type Engine } from '../engine/engine.js';
import type { EngineEventListener } from '../engine/engine-events.js';
import { markRunFolderSync, prepareSpineFolder, resolveRunDir } from '../engine/run-folder.js';
import { newRunId } from '../engine/run-id.js';
import { buildRunTools, type RunTools } from './build-run-tools.js';
import type { RunSettings } from './run-settings.js';

export interface RunEngineOptions {
  settings: RunSettings;
  llm: ModelClient;
  onEvent: EngineEventListener;
  /** `ask` ends a run at the first answer without tool calls; `chat` waits for the user instead. */
  completeOnAnswer: boolean;
  /** The model's context window, when known: the history is trimmed to it and each request checked against it. */
  contextLength?: number;
  /** An earlier run to carry on in its own folder (`spine ask --continue`); a new run when absent. */
  existingRun?: { runId: string; runDir: string };
}

/** One run of the CLI: its id, its folder, its tools and the engine that drives it. */
export interface RunEngine {
  runId: string;
  runDir: string;
  tools: RunTools;
  engine: Engine;
}

/** Sets up a fresh run: a new id and folder (turn records, audit log, `@state`), tools, and an engine. */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const { settings } = options;
  const runId = options.existingRun?.runId ?? newRunId();
  const runDir = options.existingRun?.runDir ?? resolveRunDir({ ...settings, runId });
  if (settings.runDir === undefined) prepareSpineFolder(settings.project);
  markRunFolderSync(runDir);
  const tools = buildRunTools({ ...settings, runDir });
  const engine = createEngine({
    llm: options.llm,
    tools: tools.host,
    systemPrompt: tools.systemPrompt,
    runDir,
    projectRoot: settings.project,
    onEvent: options.onEvent,
    newRunId: () => runId,
    // The run folder is @state to the tools: a capped tool result names where its whole text is.
    toolResults: { runFolderMount: '@state' },
    ...(settings.maxTurns !== undefined ? { maxTurns: settings.maxTurns } : {}),
    ...(settings.maxTokens !== undefined ? { requestDefaults: { maxTokens: settings.maxTokens } } : {}),
    ...(options.contextLength !== undefined ? { history: { contextLength: options.contextLength } } : {}),
    ...(options.completeOnAnswer ? { isComplete: () => true } : {}),
  });
  return { runId, runDir, tools, engine };
}
