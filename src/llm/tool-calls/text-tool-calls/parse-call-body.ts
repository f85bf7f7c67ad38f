import { splitJsonValues } from '../repair/find-json-value-end.js';
import { parseLenientJson } from '../repair/parse-lenient-json.js';
import { parseFunctionTag } from './parse-function-tag.js';
import { parsePythonicCalls } from './parse-pythonic-calls.js';
import { readArgumentPairs, readInvokeBlocks } from './parse-tagged-parameters.js';
import { createTextToolCall, readCallObject, type TextToolCallWire } from './text-tool-call-wire.js';

/**
 * The calls inside a marker's body, in whichever way the families write them: JSON call objects (one, several,
 * or a list), Qwen3-Coder `<function=…>` markup, GLM's name with `<arg_key>`/`<arg_value>` pairs, `<invoke>`
 * blocks, Python-style calls, or a bare name followed by its JSON arguments (Mistral without `[ARGS]`,
 * Functionary, DeepSeek V3.1). An empty `calls` means the body could not be read as a named call: the caller
 * decides whether that is a malformed call to re-ask about or text to leave alone. Never a nameless call.
 */
export function parseCallBody(
  body: string,
  toolNames: readonly string[] = [],
): { calls: TextToolCallWire[]; fixes: string[] } {
  const trimmed = body.trim();
  if (trimmed === '') return { calls: [], fixes: [] };
  if (trimmed.startsWith('<function=')) return { calls: readFunctionTags(trimmed), fixes: [] };
  if (trimmed.startsWith('<invoke')) return { calls: readInvokeBlocks(trimmed), fixes: [] };
  const pairsAt = trimmed.indexOf('<arg_key>');
  if (pairsAt > 0) {
    const name = trimmed.slice(0, pairsAt).trim();
    const pairs = readArgumentPairs(trimmed.slice(pairsAt));
    if (isName(name) && pairs !== undefined)
      return { calls: [createTextToolCall(name, { arguments: pairs })], fixes: [] };
  }
  if (/^[[{]/.test(trimmed)) {
    const json = readJsonCalls(trimmed);
    if (json.calls.length > 0) return json;
  }
  const pythonic = parsePythonicCalls(trimmed);
  if (pythonic !== undefined) return { calls: pythonic, fixes: [] };
  const named = readNameThenArguments(trimmed);
  if (named !== undefined) return { calls: [named], fixes: [] };
  // GLM with no arguments: `<tool_call>get_time</tool_call>`; a lone word counts only when it names a tool.
  if (isName(trimmed) && toolNames.includes(trimmed))
    return { calls: [createTextToolCall(trimmed, { arguments: {} })], fixes: [] };
  return { calls: [], fixes: [] };
}

function readFunctionTags(text: string): TextToolCallWire[] {
  const calls: TextToolCallWire[] = [];
  let cursor = 0;
  while (cursor < text.length) {
    const start = text.indexOf('<function=', cursor);
    if (start === -1) break;
    const parsed = parseFunctionTag(text, start);
    if (parsed.call.function.name !== '') calls.push(parsed.call);
    cursor = parsed.end;
  }
  return calls;
}

function readJsonCalls(text: string): { calls: TextToolCallWire[]; fixes: string[] } {
  const calls: TextToolCallWire[] = [];
  const fixes = new Set<string>();
  for (const value of splitJsonValues(text)) {
    const parsed = parseLenientJson(value.text);
    if (!parsed.ok) continue;
    if (!value.closed) fixes.add('truncated block closed');
    for (const fix of parsed.fixes) fixes.add(fix);
    for (const item of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const call = readCallObject(item, { allowNameKeyed: true });
      if (call !== undefined) calls.push(call);
    }
  }
  return { calls, fixes: [...fixes] };
}

/** `name{…}`, `name {…}` or `name\n{…}`: a tool name, then its arguments as JSON. */
function readNameThenArguments(text: string): TextToolCallWire | undefined {
  const match = /^([A-Za-z_][\w.-]*)\s*(?=[{[])/.exec(text);
  if (match === null) return undefined;
  const argumentsText = text.slice(match[0].length).trim();
  const parsed = parseLenientJson(argumentsText);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value))
    return undefined;
  return createTextToolCall(match[1]!, { arguments: argumentsText });
}

function isName(text: string): boolean {
  return /^[A-Za-z_][\w.-]{0,127}$/.test(text);
}
