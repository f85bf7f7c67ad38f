import type { ToolFailure } from '../core/types.js';
import { toolFailure } from './to-tool-result.js';

/**
 * A call's arguments as an object. The model client hands over parsed objects; a raw JSON string (a
 * caller running a tool by hand) is parsed here; no arguments at all means `{}`.
 */
export function parseToolArguments(
  value: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; failure: ToolFailure } {
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return { ok: true, value: {} };
    try {
      parsed = JSON.parse(value);
    } catch {
      return reject('arguments are not valid JSON');
    }
  }
  if (parsed === undefined || parsed === null) return { ok: true, value: {} };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return reject('arguments must be a JSON object');
  return { ok: true, value: parsed as Record<string, unknown> };
}

function reject(message: string): { ok: false; failure: ToolFailure } {
  return {
    ok: false,
    failure: toolFailure('E_SCHEMA_VALIDATION', message, { errors: [{ path: '', message }] }),
  };
}
