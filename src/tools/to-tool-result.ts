import { toolErrorCodes } from '../core/error-codes.js';
import { SpineError } from '../core/spine-error.js';
import type { ToolFailure, ToolResult } from '../core/types.js';

const toolCodes = new Set<string>(toolErrorCodes);

/** A failed ToolResult. */
export function toolFailure(code: string, message: string, details?: unknown): ToolFailure {
  return details === undefined
    ? { ok: false, error: { code, message } }
    : { ok: false, error: { code, message, details } };
}

/**
 * What a tool returned, as a ToolResult: an object with a boolean `ok` is already one (the `fs.*` tools
 * return their fields flat beside `ok`); anything else is data.
 */
export function toToolResult(value: unknown): ToolResult {
  if (typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean') {
    const candidate = value as ToolResult;
    if (candidate.ok || isErrorBody(candidate.error)) return candidate;
    return toolFailure('E_INTERNAL', 'the tool returned ok:false without an error { code, message }');
  }
  return value === undefined ? { ok: true } : { ok: true, data: value };
}

/**
 * What a tool threw, as a ToolResult: a SpineError with a tool code keeps it, a Node `ENOENT` stays
 * `ENOENT`, the rest is `E_INTERNAL` with the message only (a stack trace helps no model).
 */
export function toThrownToolResult(error: unknown): ToolFailure {
  if (SpineError.is(error) && toolCodes.has(error.code)) {
    const details = Object.keys(error.details).length > 0 ? error.details : undefined;
    return toolFailure(error.code, error.message, details);
  }
  if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
    return toolFailure('ENOENT', error.message);
  }
  const message = error instanceof Error ? error.message : `the tool threw ${describeThrown(error)}`;
  return toolFailure('E_INTERNAL', message);
}

function isErrorBody(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as { code?: unknown; message?: unknown };
  return typeof body.code === 'string' && typeof body.message === 'string';
}

function describeThrown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
