import type { FinishReason, IncompleteToolCall, Repair, ToolCall } from '../../core/types.js';
import { generateToolCallId } from './repair/generate-tool-call-id.js';

/** One tool call as the runner sent it: streamed fragments already joined, or a non-streamed call. */
export interface RawWireToolCall {
  /** The runner's id; undefined when it sent none (RUNNER-QUIRKS §2). */
  id: string | undefined;
  name: string;
  /** A JSON string, or an object (runners that send arguments unencoded, RUNNER-QUIRKS §9). */
  arguments: unknown;
}

export interface NormalizedToolCalls {
  toolCalls: ToolCall[];
  incompleteToolCalls: IncompleteToolCall[];
  repairs: Repair[];
}

/**
 * The finalization step: raw calls → runnable calls, incomplete calls and the repairs made. Empty arguments
 * are `{}` (RUNNER-QUIRKS §8); arguments that do not parse to an object make the call incomplete, never
 * runnable (a call cut off by max_tokens, §16). The finish reason is taken so that the repair pipeline can
 * later mend malformed JSON on a finished call while leaving a `length`-truncated one incomplete.
 */
export function normalizeToolCalls(
  rawCalls: RawWireToolCall[],
  finishReason: FinishReason,
): NormalizedToolCalls {
  const result: NormalizedToolCalls = { toolCalls: [], incompleteToolCalls: [], repairs: [] };
  rawCalls.forEach((raw, position) => {
    normalizeOne(raw, position, finishReason, result);
  });
  return result;
}

function normalizeOne(
  raw: RawWireToolCall,
  position: number,
  _finishReason: FinishReason,
  result: NormalizedToolCalls,
): void {
  const rawArguments = toArgumentsText(raw.arguments);
  const id =
    raw.id !== undefined && raw.id !== ''
      ? raw.id
      : generateToolCallId({ position, name: raw.name, rawArguments });
  if (id !== raw.id)
    result.repairs.push({
      kind: 'generated-id',
      toolCallId: id,
      detail: `tool call ${position} had no id; one was derived from its position and content`,
    });
  const parsed = parseArguments(rawArguments);
  if (parsed === undefined || raw.name === '') {
    result.incompleteToolCalls.push({ id, name: raw.name, rawArguments });
    return;
  }
  if (parsed.empty)
    result.repairs.push({ kind: 'empty-arguments', toolCallId: id, detail: 'empty arguments read as {}' });
  result.toolCalls.push({ id, name: raw.name, arguments: parsed.value, rawArguments });
}

function toArgumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}

function parseArguments(text: string): { value: Record<string, unknown>; empty: boolean } | undefined {
  if (text.trim() === '') return { value: {}, empty: true };
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { value: value as Record<string, unknown>, empty: false }
      : undefined;
  } catch {
    return undefined;
  }
}
