import type { FinishReason, IncompleteToolCall, Repair, ToolCall } from '../../core/types.js';
import { generateToolCallId } from './repair/generate-tool-call-id.js';
import { repairToolCall } from './repair/repair-tool-call.js';
import { extractTextToolCalls } from './text-tool-calls/extract-text-tool-calls.js';
import type { TextToolCallWire } from './text-tool-calls/text-tool-call-wire.js';
import type { ToolCallFormat } from './text-tool-calls/tool-call-formats.js';

export interface ResponseTextCalls {
  /** The content without the calls' markup; the text around them stays. */
  content: string;
  toolCalls: ToolCall[];
  /** Calls found in the text that cannot run: unreadable, nameless, or cut off by a `length` finish. */
  incompleteToolCalls: IncompleteToolCall[];
  /** `text-extracted` for each call (with its id), then the fixes its repair made; `unparsed-call-markup`. */
  repairs: Repair[];
  /** Reasoning found in the call markup (harmony), to add to the response's. */
  reasoning?: string;
}

export interface ExtractResponseTextCallsOptions {
  toolNames: readonly string[];
  finishReason: FinishReason;
  /** Mixed into the generated ids, so the same call in another turn of the conversation gets another id. */
  responseKey: string;
  /** A pinned family (`quirks.tool_call_format`); every family when absent. */
  toolCallFormat?: ToolCallFormat;
}

/**
 * Tool calls a runner left in the message text, as runnable or incomplete calls with stable ids; undefined
 * when the text holds none. A call whose text stops short under a `length` finish stays incomplete: it was
 * cut off by max_tokens, however well its JSON can be closed.
 */
export function extractResponseTextCalls(
  content: string,
  options: ExtractResponseTextCallsOptions,
): ResponseTextCalls | undefined {
  const extracted = extractTextToolCalls(content, options.toolNames, options.toolCallFormat);
  const changed = extracted.content !== content || extracted.reasoning !== undefined;
  if (extracted.calls.length === 0 && extracted.unparsed.length === 0 && !changed) return undefined;
  const result: ResponseTextCalls = {
    content: extracted.content,
    toolCalls: [],
    incompleteToolCalls: [],
    repairs: [...extracted.unparsed],
  };
  if (extracted.reasoning !== undefined) result.reasoning = extracted.reasoning;
  extracted.calls.forEach((wire, position) => {
    const repaired = repairToolCall(wire, position, { fromText: true, responseKey: options.responseKey });
    const id =
      repaired.call?.id ??
      repaired.problem?.toolCallId ??
      generateToolCallId({
        position,
        name: wire.function.name,
        rawArguments: rawArgumentsOf(wire),
        responseKey: options.responseKey,
      });
    const found = extracted.repairs[position];
    if (found !== undefined) result.repairs.push({ ...found, toolCallId: id });
    result.repairs.push(...repaired.repairs);
    const cutOff =
      options.finishReason === 'length' &&
      (extracted.cutOff[position] === true ||
        repaired.repairs.some((repair) => repair.kind === 'truncated-json'));
    if (repaired.call !== undefined && !cutOff) {
      result.toolCalls.push(repaired.call);
      return;
    }
    const rawArguments = repaired.call?.rawArguments ?? rawArgumentsOf(wire);
    result.incompleteToolCalls.push({ id, name: wire.function.name, rawArguments });
  });
  return result;
}

function rawArgumentsOf(wire: TextToolCallWire): string {
  const value = wire.function.arguments ?? wire.function.parameters;
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}
