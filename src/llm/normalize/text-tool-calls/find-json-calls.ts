import { findJsonValueEnd } from '../repair/find-json-value-end.js';
import { parseLenientJson } from '../repair/parse-lenient-json.js';
import type { TextCallSpan } from './text-call-span.js';
import { readKnownToolCalls } from './text-tool-call-wire.js';

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
    if (!/^[[{]/.test(body)) continue;
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
  const closedEnd = findJsonValueEnd(content, start);
  // An unclosed value is only taken when it runs to the end of the content (a truncated answer).
  const end = closedEnd === -1 ? content.length : closedEnd;
  if (!/^[ \t]*(\r?\n|$)/.test(content.slice(end))) return undefined;
  const parsed = parseLenientJson(content.slice(start, end));
  const calls = parsed.ok ? readKnownToolCalls(parsed.value, toolNames) : undefined;
  if (calls === undefined || !parsed.ok) return undefined;
  const fixes = closedEnd === -1 ? [...parsed.fixes, 'truncated JSON closed'] : parsed.fixes;
  return { start, end, dialect: 'bare JSON', calls, fixes };
}
