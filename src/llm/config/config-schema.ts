import { apiTypes, providerNames, quirkKeys } from '../providers/presets.js';

/** What one value in the config file may be. Checked on the YAML nodes, so every problem has a line. */
export type ValueRule =
  | { kind: 'string'; pattern?: RegExp; patternMessage?: string }
  | { kind: 'url' }
  | { kind: 'integer'; min: number }
  | { kind: 'number'; min: number; max?: number; minExclusive?: boolean }
  | { kind: 'choice'; values: readonly (string | boolean | null)[] }
  | { kind: 'string-list' }
  | { kind: 'string-map' }
  | { kind: 'map'; fields: Readonly<Record<string, ValueRule>>; required?: readonly string[] }
  | { kind: 'record'; value: ValueRule; keyPattern: RegExp; keyMessage: string };

const positiveInteger: ValueRule = { kind: 'integer', min: 1 };
const positiveNumber: ValueRule = { kind: 'number', min: 0, minExclusive: true };

const quirkFields: Record<string, ValueRule> = Object.fromEntries(
  Object.entries(quirkKeys).map(([key, quirk]) => [key, { kind: 'choice', values: quirk.values }]),
);

/** Keys a role and `defaults:` share (a role adds `id`). */
const roleFields: Record<string, ValueRule> = {
  endpoint: { kind: 'url' },
  api_type: { kind: 'choice', values: apiTypes },
  provider: { kind: 'choice', values: providerNames },
  context_length: positiveInteger,
  max_concurrency: positiveInteger,
  timeout_s: positiveNumber,
  api_key_env: {
    kind: 'string',
    pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
    patternMessage: 'must be an environment variable name (letters, digits, _)',
  },
  quirks: { kind: 'map', fields: quirkFields },
  temperature: { kind: 'number', min: 0, max: 2 },
  max_tokens: positiveInteger,
  circuit_breaker: {
    kind: 'map',
    fields: { failure_threshold: positiveInteger, cool_down_s: { kind: 'number', min: 0 } },
  },
  headers: { kind: 'string-map' },
};

export const configSchema: ValueRule = {
  kind: 'map',
  required: ['models'],
  fields: {
    models: {
      kind: 'record',
      keyPattern: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
      keyMessage: 'role names are letters, digits, _, - and .',
      value: { kind: 'map', fields: { id: { kind: 'string' }, ...roleFields }, required: ['id'] },
    },
    defaults: { kind: 'map', fields: roleFields },
    budget: {
      kind: 'map',
      fields: {
        max_calls: positiveInteger,
        max_total_tokens: positiveInteger,
        soft_calls: positiveInteger,
        soft_total_tokens: positiveInteger,
      },
    },
    skills: { kind: 'string-list' },
    mcp_servers: {
      kind: 'record',
      keyPattern: /^[A-Za-z0-9_-]+$/,
      keyMessage: 'MCP server names are letters, digits, _ and - (they become part of tool names)',
      value: {
        kind: 'map',
        fields: {
          command: { kind: 'string' },
          args: { kind: 'string-list' },
          env: { kind: 'string-map' },
          cwd: { kind: 'string' },
          url: { kind: 'string' },
          headers: { kind: 'string-map' },
        },
      },
    },
    governance: {
      kind: 'map',
      fields: {
        max_tokens: positiveInteger,
        max_temperature: { kind: 'number', min: 0, max: 2 },
        blocked_tools: { kind: 'string-list' },
        allowed_servers: { kind: 'string-list' },
      },
    },
  },
};
