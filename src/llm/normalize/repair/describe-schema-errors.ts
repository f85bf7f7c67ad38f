import type { ErrorObject } from 'ajv';

/**
 * Ajv errors as short sentences that point at the property: `/city: must be string`,
 * `missing required property 'path'`, `unknown property 'colour'`, `/unit: must be one of "c", "f"`.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const sentences = errors.map(describeSchemaError);
  return [...new Set(sentences)];
}

/**
 * The JSON pointer of each property an Ajv error is about: the missing or unknown property itself for
 * `required` / `additionalProperties` (`/path`), else the value's own path (`/` for the whole object).
 */
export function schemaErrorPaths(errors: readonly ErrorObject[]): string[] {
  const paths = errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    const property =
      error.keyword === 'required'
        ? params.missingProperty
        : error.keyword === 'additionalProperties'
          ? params.additionalProperty
          : undefined;
    if (typeof property === 'string') return `${error.instancePath}/${escapePointer(property)}`;
    return error.instancePath === '' ? '/' : error.instancePath;
  });
  return [...new Set(paths)];
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function describeSchemaError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : `${error.instancePath}: `;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at}missing required property '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return `${at}unknown property '${String(params.additionalProperty)}'`;
    case 'enum':
      return `${at || 'value: '}must be one of ${listValues(params.allowedValues)}`;
    case 'const':
      return `${at || 'value: '}must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${at || 'arguments: '}${error.message ?? `fails ${error.keyword}`}`;
  }
}

function listValues(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(', ') : String(values);
}
