import type { Repair, ToolSpec } from '../../core/types.js';
import { coerceArgumentsBySchema } from './repair/coerce-arguments-by-schema.js';
import { compileSchema } from './repair/compile-schema.js';
import { describeSchemaErrors, schemaErrorPaths } from './repair/describe-schema-errors.js';
import { describeRepair } from './repair/repair-tool-call.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';

/** The parts of a repaired call that validation reads. */
export interface ToolCallToValidate {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ValidateToolArgumentsOptions {
  /** The call came from message text (carried into the problem, so the re-ask speaks as the user). */
  fromText?: boolean;
  /** Position of the call in the response. */
  index?: number;
}

export type ToolArgumentsValidation =
  | { ok: true; arguments: Record<string, unknown>; repairs: Repair[] }
  | { ok: false; problem: ToolCallProblem };

/**
 * Checks a call's arguments against its tool's JSON Schema, after schema-guided unwrapping of JSON strings
 * where objects or arrays are declared and of strings where numbers or booleans are declared. A tool
 * without a schema, or with one that does not compile, accepts any object.
 */
export function validateToolArguments(
  call: ToolCallToValidate,
  tool: ToolSpec,
  options: ValidateToolArgumentsOptions = {},
): ToolArgumentsValidation {
  const schema = tool.function.parameters;
  if (schema === undefined) return { ok: true, arguments: call.arguments, repairs: [] };
  const coerced = coerceArgumentsBySchema(call.arguments, schema);
  const repairs = coerced.coercions.map((coercion) => ({
    kind: coercion.kind,
    ...(call.id === undefined ? {} : { toolCallId: call.id }),
    detail: `${coercion.path}: ${describeRepair(coercion.kind)} (${coercion.to})`,
  }));
  const check = compileSchema(schema);
  const verdict = check === undefined ? { ok: true as const } : check(coerced.value);
  if (verdict.ok) return { ok: true, arguments: coerced.value, repairs };
  const errors = describeSchemaErrors(verdict.errors);
  return {
    ok: false,
    problem: {
      ...problemBase(call, options),
      code: 'E_SCHEMA_VALIDATION',
      message: `invalid arguments for tool '${call.name}': ${errors.join('; ')}`,
      details: {
        reason: 'schema',
        tool: call.name,
        errors,
        paths: schemaErrorPaths(verdict.errors),
        required: stringList(schema.required),
        properties: Object.keys(recordOrEmpty(schema.properties)),
      },
    },
  };
}

/** Finds the call's tool by name and validates against it; an unknown name gives a problem naming the valid tools. */
export function validateToolCall(
  call: ToolCallToValidate,
  tools: readonly ToolSpec[],
  options: ValidateToolArgumentsOptions = {},
): ToolArgumentsValidation {
  const tool = tools.find((candidate) => candidate.function.name === call.name);
  if (tool !== undefined) return validateToolArguments(call, tool, options);
  const validTools = tools.map((candidate) => candidate.function.name);
  return {
    ok: false,
    problem: {
      ...problemBase(call, options),
      code: 'E_UNKNOWN_TOOL',
      message: `unknown tool '${call.name}'; valid tools: ${validTools.join(', ') || '(none)'}`,
      details: { reason: 'unknown-tool', tool: call.name, validTools },
    },
  };
}

function problemBase(
  call: ToolCallToValidate,
  options: ValidateToolArgumentsOptions,
): Pick<ToolCallProblem, 'toolCallId' | 'toolName' | 'index' | 'fromText'> {
  return {
    ...(call.id === undefined ? {} : { toolCallId: call.id }),
    toolName: call.name,
    ...(options.index === undefined ? {} : { index: options.index }),
    fromText: options.fromText ?? false,
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function recordOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
