import type { ChatMessage, FinishReason, ModelClient, ModelRequest, ToolChoice } from '../core/types.js';
import type { ToolHost } from '../tools/tool-host.js';
import type { ToolResultLimit } from './cap-tool-result.js';
import type { EngineEvent } from './engine-events.js';
import type { HistoryOptions } from './history.js';

export type RunPhase = 'Running' | 'WaitingUser' | 'Completed' | 'Failed';

export interface EngineError {
  code: string;
  message: string;
  details?: unknown;
}

/** Where one `start`/`continue`/`run` stopped. */
export interface EngineResult {
  success: boolean;
  phase: RunPhase;
  /** The text of the last assistant message of this call ('' when it had none). */
  assistantText: string;
  /** How the last model answer ended (`length`: cut by the token limit); absent when no answer came. */
  finishReason?: FinishReason;
  error?: EngineError;
  /** Model calls made by this `start`/`continue` (an overflow retry is not a new turn). */
  turns: number;
  runId: string;
  /** The whole transcript of the run, dropped-from-window messages included. */
  messages: ChatMessage[];
}

/** What a completion check sees after a turn without tool calls. */
export interface CompletionState {
  runId: string;
  assistantText: string;
  messages: readonly ChatMessage[];
  turns: number;
}

export interface EngineOptions {
  llm: ModelClient;
  tools: ToolHost;
  /** Model calls per `start`/`continue` (default 20). */
  maxTurns?: number;
  /** The same failing call (name + arguments) this many times stops the run (default 3). */
  maxRepeatedFailures?: number;
  /** Run one message's tool calls concurrently (results are still backfilled in call order). */
  parallelTools?: boolean;
  onEvent?: (event: EngineEvent) => void;
  /** A folder for `turns.jsonl`; no records are written without it. */
  runDir?: string;
  /** Prepended when the run's messages do not start with a system message. */
  systemPrompt?: string;
  requestDefaults?: { maxTokens?: number; temperature?: number; toolChoice?: ToolChoice } & Pick<
    ModelRequest,
    'model' | 'extraBody' | 'timeoutMs' | 'firstByteTimeoutMs' | 'idleTimeoutMs'
  >;
  /** Decides Completed versus WaitingUser when the model answers without tool calls (default: never complete). */
  isComplete?: (state: CompletionState) => boolean;
  history?: HistoryOptions;
  /** How much of one tool result is sent to the model; the rest is kept in the run folder. */
  toolResults?: ToolResultLimit;
  /** The agent's tool allowlist (exact names or `fs.*`-style globs). */
  allowTools?: string[];
  /** Handed to every tool as `projectRoot` (default `process.cwd()`). */
  projectRoot?: string;
  /** Makes run ids (default `run-` + a random UUID). */
  newRunId?: () => string;
}

/** A run's input: a full message list, or one user input (with the engine's system prompt). */
export type RunInput =
  | { messages: ChatMessage[]; input?: undefined }
  | { input: string; messages?: undefined };

export type StartOptions = RunInput & { runId?: string; signal?: AbortSignal };
