/**
 * The parsed frontmatter of the last few markdown texts this process read or wrote, keyed by the whole text.
 * A workflow run reads its state before every model call, and the guard checks every state write against the
 * state as it was and as it will be: without this each of them parses the same YAML again (about 2 ms for a
 * 50 KB state). Values are deep-frozen: every reader shares them and none may change them.
 */
const capacity = 8;
const parsed = new Map<string, Readonly<Record<string, unknown>>>();

export function rememberFrontmatter(text: string, frontmatter: Record<string, unknown>): void {
  parsed.delete(text);
  parsed.set(text, deepFreeze(frontmatter));
  if (parsed.size > capacity) parsed.delete(parsed.keys().next().value as string);
}

/** The remembered frontmatter of this exact text, kept as the most recently used. */
export function recallFrontmatter(text: string): Readonly<Record<string, unknown>> | undefined {
  const frontmatter = parsed.get(text);
  if (frontmatter === undefined) return undefined;
  parsed.delete(text);
  parsed.set(text, frontmatter);
  return frontmatter;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
