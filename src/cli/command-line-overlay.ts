import type { ModelRoleConfig, SpineConfig } from '../llm/config/spine-config.js';
import type { ApiType, ProviderName } from '../llm/providers/presets.js';
import { parseCount } from './endpoint-options.js';
import type { ModelFlags } from './model-selection.js';

/** The settings whose origin `spine models` shows. */
export const overlaidSettings = [
  'model',
  'baseUrl',
  'provider',
  'apiType',
  'apiKey',
  'timeout',
  'firstByteTimeout',
  'idleTimeout',
  'maxRetries',
  'contextLength',
] as const;

export type OverlaidSetting = (typeof overlaidSettings)[number];

/** Where each setting of a role came from: `flag --model`, `env SPINE_MODEL`, `spine.yaml:12`, `default`. */
export type SettingOrigins = Record<OverlaidSetting, string>;

interface Source<T> {
  flag?: { name: string; value: T | undefined };
  env?: { name: string; value: T | undefined };
  /** The config's keys for it, in the role then in `defaults:` (for the line number). */
  configKeys?: string[];
}

/**
 * The command line laid over a configured role, so that a user's word wins: for every setting, a flag, then an
 * environment variable, then the role in spine.yaml (with `defaults:`), then Spine's default. Returns the
 * config with the chosen role rewritten, and where each of its settings came from.
 */
export function overlayCommandLine(
  config: SpineConfig,
  role: string,
  flags: ModelFlags,
  env: NodeJS.ProcessEnv,
  parsed: { apiType?: ApiType; provider?: ProviderName },
): { config: SpineConfig; origins: SettingOrigins } {
  const model: ModelRoleConfig = { ...config.models[role]! };
  const origins = {} as SettingOrigins;
  const lineOf = (keys: string[] = []) => {
    for (const key of keys) {
      const line = config.source?.lines[`models.${role}.${key}`] ?? config.source?.lines[`defaults.${key}`];
      if (line !== undefined) return `${config.source?.file ?? 'config'}:${line}`;
    }
    return undefined;
  };
  const pick = <T>(setting: OverlaidSetting, source: Source<T>, apply: (value: T) => void): void => {
    if (source.flag?.value !== undefined) {
      apply(source.flag.value);
      origins[setting] = `flag ${source.flag.name}`;
    } else if (source.env?.value !== undefined && source.env.value !== '') {
      apply(source.env.value);
      origins[setting] = `env ${source.env.name}`;
    } else origins[setting] = lineOf(source.configKeys) ?? 'default';
  };

  pick(
    'model',
    {
      flag: { name: '--model', value: flags.model },
      env: { name: 'SPINE_MODEL', value: env.SPINE_MODEL },
      configKeys: ['id'],
    },
    (value) => {
      model.id = value;
    },
  );
  pick(
    'baseUrl',
    {
      flag: { name: '--base-url', value: flags.baseUrl },
      env: { name: 'SPINE_BASE_URL', value: env.SPINE_BASE_URL },
      configKeys: ['endpoint'],
    },
    (value) => {
      model.endpoint = value;
    },
  );
  pick(
    'provider',
    {
      flag: { name: '--provider', value: parsed.provider },
      env: { name: 'SPINE_PROVIDER', value: env.SPINE_PROVIDER as ProviderName | undefined },
      configKeys: ['provider', 'endpoint'],
    },
    (value) => {
      model.provider = value;
    },
  );
  pick(
    'apiType',
    { flag: { name: '--api-type', value: parsed.apiType }, configKeys: ['api_type', 'endpoint'] },
    (value) => {
      model.apiType = value;
    },
  );
  pick(
    'apiKey',
    {
      flag: { name: '--api-key', value: flags.apiKey },
      env: model.apiKeyEnv === undefined ? { name: 'LLM_API_KEY', value: env.LLM_API_KEY } : undefined,
      configKeys: ['api_key_env'],
    },
    (value) => {
      model.apiKey = value;
    },
  );
  pick(
    'timeout',
    { flag: { name: '--timeout', value: parseCount(flags.timeout, '--timeout') }, configKeys: ['timeout_s'] },
    (value) => {
      model.timeoutS = value / 1000;
    },
  );
  pick(
    'firstByteTimeout',
    {
      flag: {
        name: '--first-byte-timeout',
        value: parseCount(flags.firstByteTimeout, '--first-byte-timeout'),
      },
    },
    (value) => {
      model.firstByteTimeoutMs = value;
    },
  );
  pick(
    'idleTimeout',
    { flag: { name: '--idle-timeout', value: parseCount(flags.idleTimeout, '--idle-timeout') } },
    (value) => {
      model.idleTimeoutMs = value;
    },
  );
  pick(
    'maxRetries',
    { flag: { name: '--max-retries', value: parseCount(flags.maxRetries, '--max-retries') } },
    (value) => {
      model.maxRetries = value;
    },
  );
  pick(
    'contextLength',
    {
      flag: { name: '--context-length', value: parseCount(flags.contextLength, '--context-length', 1) },
      configKeys: ['context_length'],
    },
    (value) => {
      model.contextLength = value;
    },
  );
  return { config: { ...config, models: { ...config.models, [role]: model } }, origins };
}
