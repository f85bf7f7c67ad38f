/**
 * Index just past the JSON object or array that opens at `start`, or -1 when it is not closed before the
 * text ends. Brackets inside strings (either quote kind, with escapes) do not count.
 */
export function findJsonValueEnd(text: string, start: number): number {
  const closers: string[] = [];
  let quote: string | undefined;
  for (let index = start; index < text.length; index++) {
    const character = text[index]!;
    if (quote !== undefined) {
      if (character === '\\') index++;
      else if (character === quote) quote = undefined;
      continue;
    }
    if (character === '"' || (character === "'" && isQuoteContext(text, index))) quote = character;
    else if (character === '{') closers.push('}');
    else if (character === '[') closers.push(']');
    else if (character === '}' || character === ']') {
      if (closers.pop() !== character) return -1;
      if (closers.length === 0) return index + 1;
    } else if (closers.length === 0) return -1;
  }
  return -1;
}

/**
 * The top-level JSON values in `text`, one after another, separated by whitespace, commas or semicolons
 * (Llama writes `{…}; {…}`). The last one may be unclosed (truncated); it is returned with `closed: false`.
 */
export function splitJsonValues(text: string): Array<{ text: string; closed: boolean }> {
  const values: Array<{ text: string; closed: boolean }> = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (/[\s,;]/.test(character)) {
      index++;
      continue;
    }
    if (character !== '{' && character !== '[') return values.length === 0 ? [] : values;
    const end = findJsonValueEnd(text, index);
    if (end === -1) {
      values.push({ text: text.slice(index), closed: false });
      return values;
    }
    values.push({ text: text.slice(index, end), closed: true });
    index = end;
  }
  return values;
}

// An apostrophe opens a Python-style string only where a JSON token may start (after `{[,:` and spaces),
// so "it's" inside unquoted prose-like values does not swallow the rest of the text.
function isQuoteContext(text: string, index: number): boolean {
  for (let back = index - 1; back >= 0; back--) {
    const previous = text[back]!;
    if (/\s/.test(previous)) continue;
    return previous === '{' || previous === '[' || previous === ',' || previous === ':';
  }
  return true;
}
