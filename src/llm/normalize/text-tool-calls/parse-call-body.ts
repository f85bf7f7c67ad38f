import { splitJsonValues } from '../repair/find-json-value-end.js';
import { parseLenientJson } from '../repair/parse-lenient-json.js';
import { parseFunctionTag } from './parse-function-tag.js';
import { createTextToolCall, readCallObject, type TextToolCallWire } from './text-tool-call-wire.js';

/**
 * The calls inside a marker's body: one or more JSON call objects (or an array of them), or Qwen3-Coder
 * `<function=…>` markup. A body that yields no call still becomes one nameless call, so the model is told
 * its call could not be read instead of the markup being dropped silently.
 */
export function parseCallBody(body: string): { calls: TextToolCallWire[]; fixes: string[] } {
  const trimmed = body.trim();
  if (trimmed.startsWith('<function=')) {
    const calls: TextToolCallWire[] = [];
    let cursor = 0;
    while (cursor < trimmed.length) {
      const start = trimmed.indexOf('<function=', cursor);
      if (start === -1) break;
      const parsed = parseFunctionTag(trimmed, start);
      calls.push(parsed.call);
      cursor = parsed.end;
    }
    return { calls, fixes: [] };
  }
  const calls: TextToolCallWire[] = [];
  const fixes = new Set<string>();
  for (const value of splitJsonValues(trimmed)) {
    const parsed = parseLenientJson(value.text);
    if (!parsed.ok) continue;
    if (!value.closed) fixes.add('truncated block closed');
    for (const fix of parsed.fixes) fixes.add(fix);
    for (const item of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const call = readCallObject(item);
      if (call !== undefined) calls.push(call);
    }
  }
  if (calls.length === 0) return { calls: [createTextToolCall('', { arguments: trimmed })], fixes: [] };
  return { calls, fixes: [...fixes] };
}
