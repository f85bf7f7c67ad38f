import type { z } from 'zod';
import { lazyModule } from '../core/lazy-module.js';
import type { JsonSchema, ZodLikeSchema } from './define-tool.js';

// Loaded only when a tool declares its parameters with zod (and zod is then installed, as the tool needs it).
const zod = lazyModule<typeof import('zod')>('zod');

/** True for a zod 4 schema (anything carrying zod's `_zod` internals). */
export function isZodSchema(parameters: JsonSchema | ZodLikeSchema): parameters is ZodLikeSchema {
  return typeof parameters === 'object' && parameters !== null && '_zod' in parameters;
}

/**
 * A tool's parameters as the JSON Schema object sent on the wire. Zod schemas are converted with zod's own
 * `toJSONSchema` (draft-07: the dialect every runner's grammar converter reads, and the input side, so
 * fields with defaults stay optional); the `$schema` marker is dropped because some runners reject it.
 */
export function toJsonSchema(parameters: JsonSchema | ZodLikeSchema): JsonSchema {
  if (!isZodSchema(parameters)) return parameters;
  const converted = zod().toJSONSchema(parameters as unknown as z.ZodType, {
    target: 'draft-07',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  const { $schema: _dialect, ...schema } = converted;
  return schema;
}
