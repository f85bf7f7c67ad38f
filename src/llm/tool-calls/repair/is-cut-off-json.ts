/**
 * Whether arguments stop in a way only a token cap explains: inside a string, or right after a `:` or `,`
 * (RUNNER-QUIRKS §16, `{"path":"a.py","content":"def f(`). Arguments that only lack closing brackets are a
 * template slip that the lenient parser mends (`truncated-json`); these are not, and are never run.
 */
export function isCutOffJson(text: string): boolean {
  const trimmed = text.trimEnd();
  if (trimmed === '') return false;
  let inString = false;
  let escaped = false;
  for (const char of trimmed) {
    if (escaped) escaped = false;
    else if (char === '\\') escaped = inString;
    else if (char === '"') inString = !inString;
  }
  if (inString) return true;
  const last = trimmed.at(-1);
  return last === ':' || last === ',';
}
