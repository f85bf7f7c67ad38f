import { isRecord } from '../repair/parse-tool-arguments.js';

/** A call found in text, in the wire shape `repairToolCall` reads (no id: text calls never carry one). */
export interface TextToolCallWire {
  type: 'function';
  function: { name: string; arguments?: unknown; parameters?: unknown };
}

// Keys a call object may have; an object with others (`description`, `properties`…) is a tool definition
// or an example, not a call.
export const callKeys = new Set([
  'name',
  'arguments',
  'parameters',
  'type',
  'id',
  'function',
  'tool_name',
  'tool_call_id',
]);

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

/**
 * A call object as models write it in text: `{name, arguments|parameters}`, `{function: {name, …}}`, Command R's
 * `{tool_name, parameters}` (llama.cpp `common_chat_parse_command_r7b`) and, where a marker vouches for it,
 * Apertus' `{"get_weather": {…}}` (one key, the tool's name; llama.cpp `common_chat_parse_apertus`).
 */
export function readCallObject(
  value: unknown,
  options: { allowNameKeyed?: boolean } = {},
): TextToolCallWire | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.function)) return readCallObject(value.function);
  const name = typeof value.function === 'string' ? value.function : (value.name ?? value.tool_name);
  if (typeof name === 'string' && name.trim() !== '') {
    return createTextToolCall(name.trim(), { arguments: value.arguments, parameters: value.parameters });
  }
  const keys = Object.keys(value);
  const only = keys[0];
  if (options.allowNameKeyed && keys.length === 1 && only !== undefined && /^[A-Za-z_][\w.-]*$/.test(only)) {
    const args = value[only];
    if (isRecord(args)) return createTextToolCall(only, { arguments: args });
  }
  return undefined;
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
