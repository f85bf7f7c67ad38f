import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SpineError } from '../core/spine-error.js';
import type { ToolDefinition } from '../tools/define-tool.js';

/**
 * Loads `--tools-module FILE`: an ES module (or CommonJS) whose default export is an array of plain tool
 * definitions `{ name, description, parameters, execute }`, so the module needs no import of Spine.
 * A `.ts` module loads only where Node can run TypeScript: Node ≥ 22.6 with type stripping, or under tsx
 * (`node --import tsx …`); on plain Node 20, compile it to `.js` first.
 */
export async function loadToolsModule(file: string, cwd: string = process.cwd()): Promise<ToolDefinition[]> {
  const path = resolve(cwd, file);
  await mustBeFile(file, path);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new SpineError({ code: 'CONFIG_INVALID', message: importFailure(file, error), cause: error });
  }
  return checkDefinitions(file, loaded.default);
}

async function mustBeFile(file: string, path: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isFile()) return;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--tools-module ${file}: no such file (looked at ${path})`,
  });
}

function importFailure(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    return `--tools-module ${file}: this Node cannot load TypeScript; compile it to .js, or run spine with tsx (node --import tsx) or a Node with type stripping`;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `--tools-module ${file}: the module failed to load: ${message}`;
}

function checkDefinitions(file: string, exported: unknown): ToolDefinition[] {
  if (!Array.isArray(exported)) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `--tools-module ${file}: the default export must be an array of tool definitions, got ${describeValue(exported)}`,
    });
  }
  exported.forEach((definition: unknown, index) => {
    const problem = definitionProblem(definition);
    if (problem !== undefined) {
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `--tools-module ${file}: tool ${index + 1} ${problem}`,
      });
    }
  });
  return exported as ToolDefinition[];
}

function definitionProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `is ${describeValue(value)}, not an object`;
  const definition = value as Partial<Record<keyof ToolDefinition, unknown>>;
  if (typeof definition.name !== 'string' || definition.name === '') return 'needs a non-empty name';
  if (typeof definition.execute !== 'function') return `("${definition.name}") needs an execute function`;
  const parameters = definition.parameters;
  if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null)) {
    return `("${definition.name}") parameters must be a JSON Schema object`;
  }
  return undefined;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (no default export)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
