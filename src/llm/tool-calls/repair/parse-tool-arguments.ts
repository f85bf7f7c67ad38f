import { parseLenientJson } from './parse-lenient-json.js';
import type { RepairKind } from './tool-call-problem.js';

export type ParsedToolArguments =
  | { ok: true; arguments: Record<string, unknown>; rawArguments: string; fixes: RepairKind[] }
  | { ok: false; rawArguments: string; error: string };

// A string holding JSON holding JSON… (RUNNER-QUIRKS §29); three layers is already far beyond any runner seen.
const maxDecodeDepth = 3;

/**
 * Turns the `arguments` a runner sent (JSON string, object, empty, missing) into an object, repairing what
 * can be repaired and naming each fix. Never throws.
 */
export function parseToolArguments(value: unknown): ParsedToolArguments {
  if (value === undefined || value === null) return emptyArguments('');
  if (isRecord(value)) return { ok: true, arguments: value, rawArguments: safeStringify(value), fixes: [] };
  if (typeof value !== 'string') {
    return {
      ok: false,
      rawArguments: safeStringify(value),
      error: `arguments must be a JSON object, got ${describeType(value)}`,
    };
  }
  if (value.trim() === '') return emptyArguments(value);
  const parsed = parseLenientJson(value);
  if (!parsed.ok)
    return { ok: false, rawArguments: value, error: `arguments are not valid JSON: ${parsed.error}` };
  const fixes: RepairKind[] = [...parsed.fixes];
  let decoded = parsed.value;
  for (let depth = 0; depth < maxDecodeDepth && typeof decoded === 'string'; depth++) {
    const inner = decoded.trim();
    if (inner === '') {
      decoded = {};
      fixes.push('empty-arguments');
      break;
    }
    if (!/^[[{"]/.test(inner)) break;
    const innerParsed = parseLenientJson(inner);
    if (!innerParsed.ok) break;
    decoded = innerParsed.value;
    fixes.push('double-encoded', ...innerParsed.fixes);
  }
  if (!isRecord(decoded)) {
    return {
      ok: false,
      rawArguments: value,
      error: `arguments must be a JSON object, got ${describeType(decoded)}`,
    };
  }
  return { ok: true, arguments: decoded, rawArguments: value, fixes: [...new Set(fixes)] };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function emptyArguments(rawArguments: string): ParsedToolArguments {
  return { ok: true, arguments: {}, rawArguments, fixes: ['empty-arguments'] };
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
