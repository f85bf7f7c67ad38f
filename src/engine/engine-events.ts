import type { Repair, RetryInfo, ToolResult, Usage } from '../core/types.js';
import type { EngineError, RunPhase } from './engine-types.js';

/** What the engine reports while it runs. Every event names its run; turn events name their turn (`C01`…). */
export type EngineEvent =
  | { type: 'run-start'; runId: string; kind: 'start' | 'continue' }
  | {
      type: 'run-end';
      runId: string;
      phase: RunPhase;
      success: boolean;
      turns: number;
      error?: EngineError;
    }
  | { type: 'turn-start'; runId: string; turnId: string; turn: number }
  | {
      type: 'model-request';
      runId: string;
      turnId: string;
      messageCount: number;
      toolCount: number;
      estimatedTokens: number;
    }
  | { type: 'text-delta'; runId: string; turnId: string; text: string }
  | { type: 'reasoning-delta'; runId: string; turnId: string; text: string }
  /** A tool call being written: its name once known and the argument characters received so far. */
  | {
      type: 'tool-call-progress';
      runId: string;
      turnId: string;
      name: string | undefined;
      argumentChars: number;
    }
  | {
      type: 'model-response';
      runId: string;
      turnId: string;
      usage: Usage;
      finishReason: string;
      toolCallCount: number;
    }
  | { type: 'tool-start'; runId: string; turnId: string; toolCallId: string; name: string; args: unknown }
  | {
      type: 'tool-end';
      runId: string;
      turnId: string;
      toolCallId: string;
      name: string;
      ok: boolean;
      durationMs: number;
      /** One line: the error code and message, or the start of the result. */
      summary: string;
      result: ToolResult;
    }
  | { type: 'retry'; runId: string; turnId: string; retry: RetryInfo }
  | { type: 'repair'; runId: string; turnId: string; repair: Repair }
  | {
      type: 'history-trimmed';
      runId: string;
      turnId: string;
      droppedMessages: number;
      keptMessages: number;
      estimatedTokens: number;
      reason: 'budget' | 'overflow';
    };

export type EngineEventListener = (event: EngineEvent) => void;

/** Fans events out to listeners. A listener that throws is the listener's problem, never the run's. */
export class EventBus {
  readonly #listeners = new Set<EngineEventListener>();

  subscribe(listener: EngineEventListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: EngineEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A broken renderer must not end an agent run; the event is simply lost to it.
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }
}

/**
 * A one-line summary of a tool result for terminals and logs: `key=value` for the fields a person scans for
 * (path, sizes, counts), long text and lists by their size, hashes left out.
 */
export function summarizeToolResult(result: ToolResult, limit = 120): string {
  if (!result.ok) return clip(`${result.error.code}: ${result.error.message}`, limit);
  const { ok: _ok, ...fields } = result;
  const value = fields.data !== undefined && Object.keys(fields).length === 1 ? fields.data : fields;
  if (value === undefined) return 'ok';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return clip(describeValue(value), limit);
  const parts = Object.entries(value)
    .filter(([key]) => !/sha256/i.test(key))
    .map(([key, field]) => `${key}=${describeValue(field)}`);
  return clip(parts.join(' ') || '{}', limit);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    // A one-line output (a script's `100\n`) reads as itself; only longer text is shown by its size.
    const line = value.endsWith('\n') ? value.slice(0, -1) : value;
    return line.length <= 60 && !line.includes('\n') ? line : `(${value.length} chars)`;
  }
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (typeof value === 'object' && value !== null) return '{…}';
  return String(value);
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
