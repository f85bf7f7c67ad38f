import { createHash } from 'node:crypto';

/** The strictest provider rule for a function name (OpenAI, Azure, Gemini via OpenAI-compatible). */
const wireNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const maxLength = 64;

export interface WireToolNames {
  /** Real name → wire name. */
  toWire: ReadonlyMap<string, string>;
  /** Wire name → real name. */
  toReal: ReadonlyMap<string, string>;
}

/**
 * Assigns every tool a wire-safe, unique name. Names that are already valid keep themselves; the rest are
 * sanitized (`fs.read` → `fs_read`), shortened with a hash when too long, and suffixed `_2`, `_3`… on a
 * collision. Processing order is fixed (valid names first, then the rest sorted), so the same set of tools
 * always gets the same wire names, whatever order the sources registered them in.
 */
export function assignWireToolNames(realNames: readonly string[]): WireToolNames {
  const toWire = new Map<string, string>();
  const toReal = new Map<string, string>();
  const unique = [...new Set(realNames)];
  const valid = unique.filter((name) => wireNamePattern.test(name));
  const invalid = unique.filter((name) => !wireNamePattern.test(name)).sort();
  for (const name of valid) {
    toWire.set(name, name);
    toReal.set(name, name);
  }
  for (const name of invalid) {
    const wire = claimFreeName(sanitizeToolName(name), toReal);
    toWire.set(name, wire);
    toReal.set(wire, name);
  }
  return { toWire, toReal };
}

/** True when a name can be sent as it is. */
export function isWireSafeToolName(name: string): boolean {
  return wireNamePattern.test(name);
}

function sanitizeToolName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  if (replaced.length <= maxLength) return replaced;
  // A hash of the real name keeps two long names that share a prefix apart.
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${replaced.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

function claimFreeName(base: string, taken: ReadonlyMap<string, string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const tail = `_${suffix}`;
    const candidate = `${base.slice(0, maxLength - tail.length)}${tail}`;
    if (!taken.has(candidate)) return candidate;
  }
}
