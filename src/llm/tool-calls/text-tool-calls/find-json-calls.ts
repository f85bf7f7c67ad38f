import { findJsonValueEnd } from '../repair/find-json-value-end.js';
import { parseLenientJson } from '../repair/parse-lenient-json.js';
import { strayClosers } from './find-marked-calls.js';
import { parsePythonicCalls } from './parse-pythonic-calls.js';
import type { TextCallSpan } from './text-call-span.js';
import { readKnownToolCalls, type TextToolCallWire } from './text-tool-call-wire.js';

// Info strings of fences that may hold a call; ```python or ```ts blocks are code, never calls.
export const callFenceLanguages = new Set([
  '',
  'json',
  'json5',
  'jsonc',
  'tool_call',
  'tool_calls',
  'tool_code',
]);

/** A fenced block: the opening line (info string captured), then the body up to the next fence or the end. */
const fencedBlockPattern = /```([^\n]*)\n([\s\S]*?)(?:```|$)/g;

/**
 * Fenced JSON blocks whose calls all name offered tools (RUNNER-QUIRKS §31). A block that documents a tool
 * (extra keys such as `description`) or names an unknown one stays text.
 */
export function findFencedCalls(content: string, toolNames: readonly string[]): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  for (const match of content.matchAll(fencedBlockPattern)) {
    if (!callFenceLanguages.has(match[1]!.trim().toLowerCase())) continue;
    const body = match[2]!.trim();
    if (!/^[[{]/.test(body)) {
      // Gemma 3 writes its calls as Python in a ```tool_code fence.
      const calls = parsePythonicCalls(body);
      if (calls?.every((call) => toolNames.includes(call.function.name))) {
        const start = match.index;
        spans.push({ start, end: start + match[0].length, dialect: 'fenced tool_code', calls, fixes: [] });
      }
      continue;
    }
    const parsed = parseLenientJson(body);
    const calls = parsed.ok ? readKnownToolCalls(parsed.value, toolNames) : undefined;
    if (calls === undefined || !parsed.ok) continue;
    const start = match.index;
    spans.push({ start, end: start + match[0].length, dialect: 'fenced JSON', calls, fixes: parsed.fixes });
  }
  return spans;
}

/**
 * Bare JSON calls to offered tools (Llama's `{"name":…,"parameters":…}`, RUNNER-QUIRKS §27): the whole
 * content, or an object or array standing on its own lines outside code fences. The whole content may be
 * truncated (closed leniently).
 */
export function findBareJsonCalls(content: string, toolNames: readonly string[]): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  const fences = [...content.matchAll(fencedBlockPattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  let lineStart = 0;
  while (lineStart < content.length) {
    const valueStart = lineStart + (/^[ \t]*/.exec(content.slice(lineStart))?.[0].length ?? 0);
    // JSON inside any fenced block (```python, or a ```json block that is not a call) is code.
    const inFence = fences.some((fence) => valueStart >= fence.start && valueStart < fence.end);
    const isCandidate = /[[{]/.test(content[valueStart] ?? '') && !inFence;
    const span = isCandidate ? readBareValue(content, valueStart, toolNames) : undefined;
    if (span !== undefined) spans.push(span);
    const newline = content.indexOf('\n', span?.end ?? valueStart);
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return spans;
}

function readBareValue(
  content: string,
  start: number,
  toolNames: readonly string[],
): TextCallSpan | undefined {
  const calls: TextToolCallWire[] = [];
  const fixes: string[] = [];
  let valueStart = start;
  let end: number;
  // Llama 3.x may write several calls on one line, separated by `;` (llama.cpp common_chat_parse_llama_3_1).
  for (;;) {
    const closedEnd = findJsonValueEnd(content, valueStart);
    // An unclosed value is only taken when it runs to the end of the content (a truncated answer).
    end = closedEnd === -1 ? content.length : closedEnd;
    const parsed = parseLenientJson(content.slice(valueStart, end));
    const found = parsed.ok ? readKnownToolCalls(parsed.value, toolNames) : undefined;
    if (found === undefined || !parsed.ok) return undefined;
    calls.push(...found);
    fixes.push(...parsed.fixes);
    if (closedEnd === -1) fixes.push('truncated JSON closed');
    const separator = /^[ \t]*;[ \t]*(?=[[{])/.exec(content.slice(end));
    if (separator === null) break;
    valueStart = end + separator[0].length;
  }
  // A closing tag whose opening the model skipped (`{…}</tool_call>`) belongs to the call.
  const rest = content.slice(end);
  const closer = strayClosers.find((tag) => rest.replace(/^[ \t]*/, '').startsWith(tag));
  if (closer !== undefined) end += rest.indexOf(closer) + closer.length;
  if (!/^[ \t;]*(\r?\n|$)/.test(content.slice(end))) return undefined;
  return { start, end, dialect: 'bare JSON', calls, fixes: [...new Set(fixes)] };
}

/**
 * Python-style calls to offered tools standing alone in the content (Llama 3.2 / 4 without their markers,
 * vLLM `pythonic_tool_parser.py`): `[get_weather(city="Oslo")]` as the whole answer, prose around allowed on
 * other lines.
 */
export function findBarePythonicCalls(content: string, toolNames: readonly string[]): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  for (const match of content.matchAll(/^[ \t]*(\[[A-Za-z_][^\n]*\])[ \t]*$/gm)) {
    const calls = parsePythonicCalls(match[1]!);
    if (calls === undefined || !calls.every((call) => toolNames.includes(call.function.name))) continue;
    spans.push({
      start: match.index,
      end: match.index + match[0].length,
      dialect: 'pythonic',
      calls,
      fixes: [],
    });
  }
  return spans;
}
