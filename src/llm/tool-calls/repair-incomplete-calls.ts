import type { FinishReason, IncompleteToolCall, Repair, ToolCall } from '../../core/types.js';
import { repairIncompleteCall } from './repair/repair-tool-call.js';

export interface RepairedIncompleteCalls {
  /** Calls the lenient pipeline mended: runnable now. */
  toolCalls: ToolCall[];
  /** Calls that stay incomplete: unreadable, nameless, cut off by `length`, or marked so by the runner. */
  incompleteToolCalls: IncompleteToolCall[];
  repairs: Repair[];
}

/**
 * A second look at the calls a decoder could not parse strictly (RUNNER-QUIRKS §29-31): single quotes,
 * trailing commas, Python literals, code fences, double-encoded JSON and missing closing brackets are
 * mended and each fix recorded. A call whose JSON stops short under a `length` finish was cut off by
 * max_tokens and stays incomplete (§16); so does one that parses without any fix, because then the runner
 * itself marked it incomplete (Responses API `status: incomplete`).
 */
export function repairIncompleteCalls(
  calls: readonly IncompleteToolCall[],
  finishReason: FinishReason,
  /** The answer used every token it was allowed: missing brackets then mean a cut, not a slip. */
  hitTokenCap = false,
): RepairedIncompleteCalls {
  const result: RepairedIncompleteCalls = { toolCalls: [], incompleteToolCalls: [], repairs: [] };
  calls.forEach((incomplete, position) => {
    const repaired = repairIncompleteCall(incomplete, position);
    const cutOff =
      (finishReason === 'length' || hitTokenCap) &&
      repaired.repairs.some((repair) => repair.kind === 'truncated-json');
    if (repaired.call === undefined || repaired.repairs.length === 0 || cutOff) {
      result.incompleteToolCalls.push(incomplete);
      return;
    }
    result.toolCalls.push(repaired.call);
    result.repairs.push(...repaired.repairs);
  });
  return result;
}
