import type { ValidateFunction } from 'ajv';
import type { z } from 'zod';
import { compileJsonSchema, describeSchemaFault, type ErrorObject } from '../core/json-schema.js';
import { SpineError } from '../core/spine-error.js';
import type { JsonSchema, ZodLikeSchema } from './define-tool.js';
import { isZodSchema } from './to-json-schema.js';

/** One failing place in a tool's arguments; `path` is a JSON Pointer (`''` is the arguments object). */
export interface ArgumentProblem {
  path: string;
  message: string;
}

export type ArgumentsCheck = (
  args: Record<string, unknown>,
) => { ok: true; value: Record<string, unknown> } | { ok: false; errors: ArgumentProblem[] };

/**
 * Compiles a tool's parameters once. Zod schemas validate with zod itself (so transforms, refinements and
 * defaults reach `execute`); JSON Schemas with ajv, defaults filled in on a copy, never on the caller's
 * object. A schema that does not compile is the tool author's fault: `CONFIG_INVALID` at registration.
 */
export function createArgumentsValidator(
  toolName: string,
  parameters: JsonSchema | ZodLikeSchema,
): ArgumentsCheck {
  return isZodSchema(parameters) ? createZodCheck(parameters) : createJsonSchemaCheck(toolName, parameters);
}

function createZodCheck(parameters: ZodLikeSchema): ArgumentsCheck {
  const schema = parameters as unknown as z.ZodType;
  return (args) => {
    const parsed = schema.safeParse(args);
    if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
    const errors = parsed.error.issues.map((issue) => ({
      path: toPointer(issue.path.map((segment) => String(segment))),
      message: issue.message,
    }));
    return { ok: false, errors };
  };
}

function createJsonSchemaCheck(toolName: string, parameters: JsonSchema): ArgumentsCheck {
  let validate: ValidateFunction;
  try {
    // Defaults are filled in on the copy `execute` gets, never on the caller's object.
    validate = compileJsonSchema(parameters, { useDefaults: true });
  } catch (error) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `tool "${toolName}": parameters schema does not compile: ${(error as Error).message}`,
      cause: error,
    });
  }
  return (args) => {
    const value = structuredClone(args);
    if (validate(value)) return { ok: true, value };
    return { ok: false, errors: dedupe((validate.errors ?? []).map(describeAjvError)) };
  };
}

// Worded as the model client words it in a re-ask (`core/json-schema.ts`): one wording of each fault.
function describeAjvError(error: ErrorObject): ArgumentProblem {
  const { path, message } = describeSchemaFault(error);
  return { path, message };
}

function dedupe(problems: ArgumentProblem[]): ArgumentProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toPointer(segments: string[]): string {
  return segments.map((segment) => `/${escapePointerSegment(segment)}`).join('');
}

function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
