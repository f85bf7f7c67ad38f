import type { FinishReason, IncompleteToolCall } from '../../core/types.js';
import { isCutOffJson } from '../tool-calls/repair/is-cut-off-json.js';

/** A wire `finish_reason` → Spine's words; null when the runner gave none. `function_call` is the legacy name. */
export function mapFinishReason(wire: unknown): FinishReason | null {
  switch (wire) {
    case null:
    case undefined:
      return null;
    case 'stop':
    case 'length':
    case 'content_filter':
    case 'tool_calls':
      return wire;
    case 'function_call':
      return 'tool_calls';
    default:
      return 'unknown';
  }
}

/**
 * The finish reason to report, from what the runner said and what was actually produced: a turn with runnable
 * calls is `tool_calls` whatever the runner said (vLLM and others say `stop`, RUNNER-QUIRKS §14), except that
 * `length` and `content_filter` stay; a `tool_calls` finish whose only calls are incomplete was a truncation
 * (§16). No finish reason at all is `unknown`.
 */
export function resolveFinishReason(
  wire: FinishReason | null,
  produced: { toolCalls: number; incompleteToolCalls: readonly IncompleteToolCall[] },
): FinishReason {
  if (wire === 'length' || wire === 'content_filter') return wire;
  if (produced.toolCalls > 0) return 'tool_calls';
  // Arguments that stop inside a string or after a separator were cut by the token cap; ones that only lack
  // closing brackets keep `tool_calls` and are left to the lenient repair, which may still refuse them.
  if (wire === 'tool_calls' && produced.incompleteToolCalls.some((call) => isCutOffJson(call.rawArguments)))
    return 'length';
  return wire ?? 'unknown';
}
