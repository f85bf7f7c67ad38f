import type { FinishReason, IncompleteToolCall, Repair, ToolCall } from '../../core/types.js';
import { generateToolCallId } from './repair/generate-tool-call-id.js';
import { isRecord } from './repair/parse-tool-arguments.js';
import { describeRepair, readWireShape } from './repair/repair-tool-call.js';

/** One tool call as the runner sent it: streamed fragments already joined, or a non-streamed call. */
export interface RawWireToolCall {
  /** The runner's id; undefined when it sent none (RUNNER-QUIRKS §2). */
  id: string | undefined;
  name: string;
  /** A JSON string, or an object (runners that send arguments unencoded, RUNNER-QUIRKS §9). */
  arguments: unknown;
  /**
   * The whole call object as the runner sent it, when there was one (non-streamed bodies, Ollama lines).
   * Given, its shape wins over `name` and `arguments`: a flat `{name, arguments}` call, `parameters` for
   * `arguments` (RUNNER-QUIRKS §28) and a missing `type` are read and each recorded as a repair.
   */
  wire?: unknown;
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
  const shape = isRecord(raw.wire) ? readWireShape(raw.wire) : undefined;
  const name = typeof shape?.name === 'string' ? shape.name.trim() : raw.name;
  const rawArguments = toArgumentsText(shape === undefined ? raw.arguments : shape.argumentsValue);
  const id =
    raw.id !== undefined && raw.id !== '' ? raw.id : generateToolCallId({ position, name, rawArguments });
  if (id !== raw.id)
    result.repairs.push({
      kind: 'generated-id',
      toolCallId: id,
      detail: `tool call ${position} had no id; one was derived from its position and content`,
    });
  for (const kind of shape?.shapeFixes ?? [])
    result.repairs.push({ kind, toolCallId: id, detail: describeRepair(kind) });
  const parsed = parseArguments(rawArguments);
  if (parsed === undefined || name === '') {
    result.incompleteToolCalls.push({ id, name, rawArguments });
    return;
  }
  if (parsed.empty)
    result.repairs.push({ kind: 'empty-arguments', toolCallId: id, detail: 'empty arguments read as {}' });
  result.toolCalls.push({ id, name, arguments: parsed.value, rawArguments });
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
