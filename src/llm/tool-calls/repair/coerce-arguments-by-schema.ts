import { parseLenientJson } from './parse-lenient-json.js';
import { isRecord } from './parse-tool-arguments.js';

export interface SchemaCoercion {
  /** JSON pointer of the value, e.g. `/task` or `/items/0/count`. */
  path: string;
  kind: 'double-encoded' | 'coerced-type';
  to: string;
}

type Schema = Record<string, unknown>;

interface Walk {
  root: Schema;
  coercions: SchemaCoercion[];
}

// Recursive `$ref`s must not loop forever; real tool schemas nest a few levels.
const maxDepth = 32;

/**
 * Schema-guided unwrapping (RUNNER-QUIRKS §25, §29): where the schema declares an object or array and a JSON
 * string arrived, parse it; where it declares a number, integer, boolean or null and a string arrived (the
 * Qwen3-Coder XML dialect only has strings), convert it. Values the schema allows as strings are left alone.
 * Returns new objects; the input is not changed.
 */
export function coerceArgumentsBySchema(
  value: Record<string, unknown>,
  schema: Schema,
): { value: Record<string, unknown>; coercions: SchemaCoercion[] } {
  const walk: Walk = { root: schema, coercions: [] };
  const coerced = coerceValue(value, schema, '', walk, 0);
  return { value: isRecord(coerced) ? coerced : value, coercions: walk.coercions };
}

function coerceValue(value: unknown, schema: unknown, path: string, walk: Walk, depth: number): unknown {
  const resolved = resolveSchema(schema, walk.root);
  if (resolved === undefined || depth > maxDepth) return value;
  if (typeof value === 'string') {
    const converted = convertString(value, allowedTypes(resolved, walk.root));
    if (converted === undefined) return value;
    walk.coercions.push({ path: path || '/', kind: converted.kind, to: describeJsonType(converted.value) });
    return coerceChildren(converted.value, resolved, path, walk, depth);
  }
  return coerceChildren(value, resolved, path, walk, depth);
}

function coerceChildren(value: unknown, schema: Schema, path: string, walk: Walk, depth: number): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!isRecord(items)) return value;
    return value.map((item, index) => coerceValue(item, items, `${path}/${index}`, walk, depth + 1));
  }
  if (!isRecord(value)) return value;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const extra = isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined;
  const entries = Object.entries(value).map(([key, child]): [string, unknown] => {
    const childSchema = Object.hasOwn(properties, key) ? properties[key] : extra;
    const childPath = `${path}/${escapePointer(key)}`;
    return [
      key,
      childSchema === undefined ? child : coerceValue(child, childSchema, childPath, walk, depth + 1),
    ];
  });
  // fromEntries defines own properties, so a `__proto__` key stays data and never reaches the prototype.
  return Object.fromEntries(entries);
}

function convertString(
  text: string,
  types: Set<string>,
): { value: unknown; kind: SchemaCoercion['kind'] } | undefined {
  if (types.size === 0 || types.has('string')) return undefined;
  const trimmed = text.trim();
  if ((types.has('object') || types.has('array')) && /^[[{]/.test(trimmed)) {
    const parsed = parseLenientJson(trimmed);
    if (parsed.ok && types.has(describeJsonType(parsed.value)))
      return { value: parsed.value, kind: 'double-encoded' };
  }
  if (types.has('integer') && /^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))) {
    return { value: Number(trimmed), kind: 'coerced-type' };
  }
  if (types.has('number') && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) {
    return { value: Number(trimmed), kind: 'coerced-type' };
  }
  if (types.has('boolean') && /^(true|false)$/i.test(trimmed)) {
    return { value: trimmed.toLowerCase() === 'true', kind: 'coerced-type' };
  }
  if (types.has('null') && /^(null|none)$/i.test(trimmed)) return { value: null, kind: 'coerced-type' };
  return undefined;
}

function allowedTypes(schema: Schema, root: Schema): Set<string> {
  const types = new Set<string>();
  const declared = schema.type;
  if (typeof declared === 'string') types.add(declared);
  if (Array.isArray(declared)) for (const type of declared) if (typeof type === 'string') types.add(type);
  for (const key of ['anyOf', 'oneOf']) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      const resolved = resolveSchema(member, root);
      // A member without a type accepts anything, strings included.
      if (resolved === undefined || resolved.type === undefined) return new Set();
      for (const type of allowedTypes(resolved, root)) types.add(type);
    }
  }
  if (types.has('integer')) types.add('number');
  return types;
}

function resolveSchema(schema: unknown, root: Schema): Schema | undefined {
  let current = schema;
  for (let hops = 0; hops < 8 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    current = resolvePointer(current.$ref, root);
  }
  return isRecord(current) ? current : undefined;
}

function resolvePointer(reference: string, root: Schema): unknown {
  if (!reference.startsWith('#')) return undefined;
  const parts = reference.slice(1).split('/').filter(Boolean).map(unescapePointer);
  let current: unknown = root;
  for (const part of parts)
    current = isRecord(current) && Object.hasOwn(current, part) ? current[part] : undefined;
  return current;
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(part: string): string {
  let decoded = part;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    // A stray `%` is kept literally.
  }
  return decoded.replaceAll('~1', '/').replaceAll('~0', '~');
}
