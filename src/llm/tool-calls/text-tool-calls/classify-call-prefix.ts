import { parseLenientJson } from '../repair/parse-lenient-json.js';
import { callKeys, readKnownToolCalls } from './text-tool-call-wire.js';

/**
 * Whether text that opens with `{` or `[` may still become a call object: `'no'` as soon as the first key is
 * one a call never has (`{"title": …`, `{ this is prose`), so ordinary JSON and prose are released early.
 */
export function classifyCallPrefix(text: string): 'maybe' | 'no' {
  let index = skipBlank(text, 0);
  if (text[index] === '[') index = skipBlank(text, index + 1);
  if (index >= text.length) return 'maybe';
  if (text[index] !== '{') return 'no';
  index = skipBlank(text, index + 1);
  if (index >= text.length) return 'maybe';
  const quote = text[index] === '"' || text[index] === "'" ? text[index++] : '';
  let key = '';
  while (index < text.length && /\w/.test(text[index]!)) key += text[index++];
  if (index >= text.length) return [...callKeys].some((known) => known.startsWith(key)) ? 'maybe' : 'no';
  // An unquoted key ends at any other character; a quoted key holding other characters is not a call key.
  const keyEnded = quote === '' || text[index] === quote;
  return keyEnded && callKeys.has(key) ? 'maybe' : 'no';
}

/** True when the JSON text (lenient) is a call, or array of calls, to offered tools. */
export function isKnownToolCallJson(text: string, toolNames: readonly string[]): boolean {
  const parsed = parseLenientJson(text.trim());
  return parsed.ok && readKnownToolCalls(parsed.value, toolNames) !== undefined;
}

function skipBlank(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index++;
  return index;
}
