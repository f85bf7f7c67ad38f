import { isRecord } from '../repair/parse-tool-arguments.js';

/** A call found in text, in the wire shape `repairToolCall` reads (no id: text calls never carry one). */
export interface TextToolCallWire {
  type: 'function';
  function: { name: string; arguments?: unknown; parameters?: unknown };
}

// Keys a call object may have; an object with others (`description`, `properties`…) is a tool definition
// or an example, not a call.
export const callKeys = new Set(['name', 'arguments', 'parameters', 'type', 'id', 'function']);

/** Builds the wire call, keeping `parameters` as sent so the repair step can record the alias. */
export function createTextToolCall(
  name: string,
  values: { arguments?: unknown; parameters?: unknown },
): TextToolCallWire {
  const fn: TextToolCallWire['function'] = { name };
  if (values.arguments !== undefined) fn.arguments = values.arguments;
  if (values.parameters !== undefined) fn.parameters = values.parameters;
  return { type: 'function', function: fn };
}

/** A call object as models write it in text: `{name, arguments|parameters}` or `{function: {name, …}}`. */
export function readCallObject(value: unknown): TextToolCallWire | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.function)) return readCallObject(value.function);
  const name = typeof value.function === 'string' ? value.function : value.name;
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  return createTextToolCall(name.trim(), { arguments: value.arguments, parameters: value.parameters });
}

/**
 * The calls in a parsed JSON value when every element is a call to an offered tool and looks like a call
 * rather than a definition; otherwise undefined. Used where no marker vouches for the text (bare or fenced JSON).
 */
export function readKnownToolCalls(
  value: unknown,
  toolNames: readonly string[],
): TextToolCallWire[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const calls: TextToolCallWire[] = [];
  for (const item of items) {
    if (!isRecord(item) || !Object.keys(item).every((key) => callKeys.has(key))) return undefined;
    const call = readCallObject(item);
    if (call === undefined || !toolNames.includes(call.function.name)) return undefined;
    calls.push(call);
  }
  return calls;
}
