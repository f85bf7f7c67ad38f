import type { RawWireToolCall } from '../../tool-calls/normalize-tool-calls.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';

/** A `function_call` output item; `incomplete` when the runner marked it so (cut off by max_output_tokens). */
export interface ResponsesRawCall extends RawWireToolCall {
  incomplete: boolean;
}

/** What the `output` items of a response carry, in Spine's terms. */
export interface ResponsesOutput {
  text: string;
  reasoning: string;
  calls: ResponsesRawCall[];
}

/**
 * Reads a response's `output` items: `message` (its `output_text` parts, and `refusal` parts, which are the
 * answer too), `function_call` (paired by `call_id`, not the item `id`; RUNNER-QUIRKS §65), `reasoning` (the
 * raw `content` of open models, then the `summary` parts OpenAI gives, as separate paragraphs). Other items
 * (hosted tools) are not Spine's to run and are left in `raw`.
 */
export function readResponsesOutput(output: unknown): ResponsesOutput {
  const result: ResponsesOutput = { text: '', reasoning: '', calls: [] };
  if (!Array.isArray(output)) return result;
  for (const item of output) {
    if (!isRecord(item)) continue;
    if (item.type === 'message') result.text += readParts(item.content, ['output_text', 'refusal']).join('');
    else if (item.type === 'function_call') result.calls.push(readFunctionCall(item));
    else if (item.type === 'reasoning') result.reasoning += readReasoning(item);
  }
  return result;
}

export function readFunctionCall(item: Record<string, unknown>): ResponsesRawCall {
  return {
    id: typeof item.call_id === 'string' && item.call_id !== '' ? item.call_id : undefined,
    name: typeof item.name === 'string' ? item.name : '',
    arguments: item.arguments,
    incomplete: item.status === 'incomplete',
  };
}

function readReasoning(item: Record<string, unknown>): string {
  const content = readParts(item.content, ['reasoning_text']).join('');
  const summary = readParts(item.summary, ['summary_text']).join('\n\n');
  return content + summary;
}

function readParts(parts: unknown, types: readonly string[]): string[] {
  if (!Array.isArray(parts)) return [];
  const texts: string[] = [];
  for (const part of parts) {
    if (!isRecord(part) || !types.includes(String(part.type))) continue;
    const text = part.type === 'refusal' ? part.refusal : part.text;
    if (typeof text === 'string' && text !== '') texts.push(text);
  }
  return texts;
}
