/**
 * A per-agent allowlist as a predicate over tool names. Entries are exact names or globs where `*` matches
 * any run of characters, dots included (`fs.*`, `*`). No list means every tool is allowed.
 */
export function matchToolAllowlist(allow: readonly string[] | undefined): (name: string) => boolean {
  if (allow === undefined) return () => true;
  const exact = new Set(allow.filter((entry) => !entry.includes('*')));
  const patterns = allow.filter((entry) => entry.includes('*')).map(toRegExp);
  return (name) => exact.has(name) || patterns.some((pattern) => pattern.test(name));
}

function toRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}
