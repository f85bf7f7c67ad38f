import { SpineError } from '../core/spine-error.js';
import type { ToolSpec } from '../core/types.js';
import type { ToolDefinition } from './define-tool.js';
import { toJsonSchema } from './to-json-schema.js';
import type { ToolHostSource, ToolSource } from './tool-host.js';
import { type ArgumentsCheck, createArgumentsValidator } from './validate-arguments.js';

/** A registered tool: its definition, compiled checks and wire spec. */
export interface ToolEntry {
  name: string;
  wireName: string;
  definition: ToolDefinition<never>;
  spec: ToolSpec;
  check: ArgumentsCheck;
  timeoutMs: number;
}

/**
 * Every source's tools as entries, in source order. Synchronous when every source is (so a host of plain
 * definitions is usable at once), a promise when any source lists its tools asynchronously.
 */
export function loadToolEntries(
  sources: ToolHostSource[],
  defaultTimeoutMs: number,
): ToolEntry[] | Promise<ToolEntry[]> {
  const lists = sources.map(listDefinitions);
  const toEntries = (resolved: ToolDefinition<never>[][]) =>
    resolved.flat().map((definition) => toEntry(definition, defaultTimeoutMs));
  if (lists.some((list) => list instanceof Promise)) return Promise.all(lists).then(toEntries);
  return toEntries(lists as ToolDefinition<never>[][]);
}

function listDefinitions(source: ToolHostSource): ToolDefinition<never>[] | Promise<ToolDefinition<never>[]> {
  if (Array.isArray(source)) return source;
  if (isToolSource(source)) return source.tools();
  return [source];
}

function isToolSource(source: ToolHostSource): source is ToolSource {
  return typeof (source as { tools?: unknown }).tools === 'function' && !('execute' in source);
}

function toEntry(definition: ToolDefinition<never>, defaultTimeoutMs: number): ToolEntry {
  if (
    typeof definition?.name !== 'string' ||
    definition.name === '' ||
    typeof definition.execute !== 'function'
  ) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `a tool definition needs a non-empty name and an execute function (got ${describe(definition)})`,
    });
  }
  const parameters = toJsonSchema(definition.parameters ?? { type: 'object', properties: {} });
  const spec: ToolSpec = {
    type: 'function',
    function: { name: definition.name, description: definition.description ?? '', parameters },
  };
  return {
    name: definition.name,
    wireName: definition.name,
    definition,
    spec,
    check: createArgumentsValidator(definition.name, definition.parameters ?? parameters),
    timeoutMs: definition.timeoutMs ?? defaultTimeoutMs,
  };
}

function describe(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const name = (value as { name?: unknown }).name;
  return typeof name === 'string' ? `"${name}"` : 'an object without a name';
}
