import type { RunPhase } from './engine-types.js';
import type { MessageHistory } from './history.js';

/** What the engine keeps per run between `start` and `continue`. */
export interface RunState {
  runId: string;
  history: MessageHistory;
  phase: RunPhase;
  /** Model calls over the whole run: turn ids `C01`… continue across `continue()`. */
  turnCount: number;
  /** Set while a `start`/`continue` is in progress; `stop()` aborts it. */
  controller: AbortController | undefined;
}
