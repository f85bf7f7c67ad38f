import type { ErrorObject } from 'ajv';
import { describeSchemaFault } from '../../../core/json-schema.js';

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
  const fault = describeSchemaFault(error);
  if (fault.at !== '') return `${fault.at}: ${fault.message}`;
  if (fault.keyword === 'required' || fault.keyword === 'additionalProperties') return fault.message;
  return `${fault.keyword === 'enum' || fault.keyword === 'const' ? 'value' : 'arguments'}: ${fault.message}`;
}
