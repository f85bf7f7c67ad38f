import type { ModelResponse, ToolSpec } from '../../core/types.js';
import { repairIncompleteCall } from './repair/repair-tool-call.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';
import { validateToolCall } from './validate-tool-arguments.js';

/**
 * Why the calls of a normalized response cannot run as they are: a runnable call naming a tool that was
 * not offered or failing its JSON Schema, and a call left incomplete although the answer was not cut off
 * (its arguments, or its name, could not be read). Calls cut off by a `length` finish are not problems to
 * re-ask about: the caller reports them. Empty when every call is fine.
 */
export function findToolCallProblems(
  response: Pick<ModelResponse, 'repairs' | 'toolCalls' | 'incompleteToolCalls' | 'finishReason'>,
  tools: readonly ToolSpec[],
): ToolCallProblem[] {
  const textCallIds = new Set(
    response.repairs
      .filter((repair) => repair.kind === 'text-extracted' && repair.toolCallId !== undefined)
      .map((repair) => repair.toolCallId),
  );
  const problems: ToolCallProblem[] = [];
  response.toolCalls.forEach((call, index) => {
    const checked = validateToolCall(call, tools, { index, fromText: textCallIds.has(call.id) });
    if (!checked.ok) problems.push(checked.problem);
  });
  if (response.finishReason === 'length') return problems;
  response.incompleteToolCalls.forEach((call, offset) => {
    const index = response.toolCalls.length + offset;
    const fromText = textCallIds.has(call.id);
    const repaired = repairIncompleteCall(call, index, { fromText });
    if (repaired.problem !== undefined) {
      problems.push(repaired.problem);
      return;
    }
    // Readable after all (the runner marked it incomplete): still re-asked about if it names no offered tool.
    const checked = repaired.call && validateToolCall(repaired.call, tools, { index, fromText });
    if (checked !== undefined && !checked.ok) problems.push(checked.problem);
  });
  return problems;
}
