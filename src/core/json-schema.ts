import type { ErrorObject, ValidateFunction } from 'ajv';
import { lazyModule } from './lazy-module.js';

// Ajv is loaded when the first schema is compiled: most commands never validate anything.
const ajvModule = lazyModule<typeof import('ajv')>('ajv');
const ajv2020Module = lazyModule<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const formatsModule = lazyModule<typeof import('ajv-formats')>('ajv-formats');

export type { ErrorObject };

/**
 * The one JSON Schema compiler of Spine, used by the model client (are the model's arguments valid?) and the
 * ToolHost (are they valid before `execute`?), with the same options, so a fault is worded once: strict mode
 * off and unknown formats ignored (runners' and models' schemas are loose), draft 2020-12 (zod's output) and
 * draft-07 both read. A fresh Ajv per schema: two tools whose schemas share an `$id` must not collide.
 * Spine's own schemas (packages, run state) ask for `formats`: then `date-time` and the other formats are
 * checked (ajv-formats). Throws what Ajv throws when the schema does not compile.
 */
export function compileJsonSchema(
  schema: Record<string, unknown>,
  options: { useDefaults?: boolean; formats?: boolean } = {},
): ValidateFunction {
  const { $schema: dialect, ...body } = schema;
  const modern = typeof dialect === 'string' && /2019-09|2020-12/.test(dialect);
  const settings = {
    allErrors: true,
    strict: false,
    validateFormats: options.formats ?? false,
    logger: false,
    useDefaults: options.useDefaults ?? false,
  } as const;
  const ajv = modern ? new (ajv2020Module().Ajv2020)(settings) : new (ajvModule().Ajv)(settings);
  if (options.formats === true) addFormats(ajv);
  return ajv.compile(body);
}

function addFormats(ajv: InstanceType<typeof import('ajv').Ajv>): void {
  // ajv-formats is CommonJS: its function is the module's default export under ESM.
  const module = formatsModule() as unknown as { default: (ajv: unknown) => void };
  module.default(ajv);
}

/** One schema fault as Spine words it, for the re-ask and the ToolHost alike. */
export interface SchemaFault {
  /** JSON Pointer of the value the fault is about (a missing or unknown property's own path). */
  path: string;
  /** Where the value sits (`''` for the arguments object): what a sentence names. */
  at: string;
  keyword: string;
  message: string;
}

/** Ajv's error as one fault: `missing required property 'path'`, `unknown property 'colour'`, `must be one of "c", "f"`. */
export function describeSchemaFault(error: ErrorObject): SchemaFault {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const keyword = error.keyword;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${at}/${escapePointer(String(params.missingProperty))}`,
        at,
        keyword,
        message: `missing required property '${String(params.missingProperty)}'`,
      };
    case 'additionalProperties':
      return {
        path: `${at}/${escapePointer(String(params.additionalProperty))}`,
        at,
        keyword,
        message: `unknown property '${String(params.additionalProperty)}'`,
      };
    case 'enum':
      return { path: at, at, keyword, message: `must be one of ${listValues(params.allowedValues)}` };
    case 'const':
      return { path: at, at, keyword, message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path: at, at, keyword, message: error.message ?? `fails ${error.keyword}` };
  }
}

function listValues(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(', ') : String(values);
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
