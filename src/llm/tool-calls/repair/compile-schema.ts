import type { ValidateFunction } from 'ajv';
import { compileJsonSchema, type ErrorObject } from '../../../core/json-schema.js';

export type SchemaCheck = (value: unknown) => { ok: true } | { ok: false; errors: ErrorObject[] };

// Keyed by the schema object itself: a tool's parameters are compiled once however many calls it gets.
const cache = new WeakMap<object, SchemaCheck | null>();

/**
 * The compiled check for a tool's parameters schema, or undefined when the schema does not compile (the
 * tool's own fault, reported by the ToolHost; a model is never re-asked over it). Runner-ish schemas are
 * accepted: strict mode off, unknown formats ignored, draft 2020-12 (zod's output) and draft-07 both read.
 */
export function compileSchema(schema: Record<string, unknown>): SchemaCheck | undefined {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const compiled = tryCompile(schema);
  cache.set(schema, compiled ?? null);
  return compiled;
}

function tryCompile(schema: Record<string, unknown>): SchemaCheck | undefined {
  let validate: ValidateFunction;
  try {
    validate = compileJsonSchema(schema);
  } catch {
    return undefined;
  }
  return (value) => (validate(value) ? { ok: true } : { ok: false, errors: [...(validate.errors ?? [])] });
}
