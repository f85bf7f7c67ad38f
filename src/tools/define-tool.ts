import type { ToolResult } from '../core/types.js';

/** A JSON Schema object, as tools declare their parameters. */
export type JsonSchema = Record<string, unknown>;

/** Anything with zod's shape; converted with zod's own `toJSONSchema`. */
export interface ZodLikeSchema {
  _zod: unknown;
}

export interface ToolLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** What a tool's `execute` receives beside its arguments. */
export interface ToolContext {
  /** Aborted when the run is cancelled or the tool's timeout fires. */
  signal: AbortSignal;
  runId: string;
  toolCallId: string;
  projectRoot: string;
  logger: ToolLogger;
  /** Adds fields to this call's audit entry (the fs tools add `path` and the file's hashes). */
  auditFields?: (fields: Record<string, unknown>) => void;
}

export interface ToolDefinition<Args = Record<string, unknown>> {
  /** The name the model sees (dots allowed: `fs.read`; it is mapped to a valid wire name). */
  name: string;
  description: string;
  parameters: JsonSchema | ZodLikeSchema;
  /**
   * Runs the tool. Return a plain value (wrapped as `{ ok: true, data }`) or a full `ToolResult`.
   * Throw a `SpineError` with a tool code for a named failure; anything else becomes `E_INTERNAL`.
   */
  execute(args: Args, context: ToolContext): unknown | Promise<unknown>;
  /** Per-tool timeout; the ToolHost's default applies when absent. */
  timeoutMs?: number;
  /** Where the tool comes from, for the audit log: `fs`, `module`, `skill`, `mcp:<server>` (default `tool`). */
  source?: string;
}

/** What a zod schema parses to, read from its type alone (zod 4 keeps it at `_zod.output`). */
export type InferZodOutput<Schema> = Schema extends { _zod: { output: infer Output } }
  ? Output
  : Record<string, unknown>;

/**
 * Declares a tool. Identity at run time; it gives `execute` typed arguments: inferred from a zod schema, or
 * given as the type parameter for a JSON Schema (`defineTool<{ city: string }>({ … })`).
 * @example
 * defineTool({ name: 'weather', description: '…', parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => lookUp(city) }); // city: string
 */
export function defineTool<Schema extends ZodLikeSchema>(
  definition: ToolDefinition<InferZodOutput<Schema>> & { parameters: Schema },
): ToolDefinition<InferZodOutput<Schema>>;
export function defineTool<Args = Record<string, unknown>>(
  definition: ToolDefinition<Args>,
): ToolDefinition<Args>;
export function defineTool(definition: ToolDefinition<unknown>): ToolDefinition<unknown> {
  return definition;
}

export type { ToolResult };
