import type { TextToolCallWire } from './text-tool-call-wire.js';

/** A stretch of content that held tool calls and leaves the visible text. */
export interface TextCallSpan {
  start: number;
  end: number;
  dialect: string;
  calls: TextToolCallWire[];
  /** Fixes made to the text itself (e.g. a truncated block closed), named in the repair detail. */
  fixes: string[];
  /** Text that stays in place of the span (a harmony `final` message); nothing when absent. */
  replacement?: string;
  /** Reasoning found inside the span (a harmony `analysis` message). */
  reasoning?: string;
}
