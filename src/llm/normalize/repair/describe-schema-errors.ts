import type { ErrorObject } from 'ajv';

/**
 * Ajv errors as short sentences that point at the property: `/city: must be string`,
 * `missing required property 'path'`, `unknown property 'colour'`, `/unit: must be one of "c", "f"`.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const sentences = errors.map(describeSchemaError);
  return [...new Set(sentences)];
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
