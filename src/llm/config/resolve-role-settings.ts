import type { Endpoint } from '../endpoint.js';
import { type ApiType, type ProviderName, type ProviderPreset, resolvePreset } from '../providers/presets.js';
import { createConfigError } from './config-error.js';
import { inferApiType, inferProvider, toBaseUrl } from './infer-endpoint.js';
import type { ModelRoleConfig, SpineConfig } from './spine-config.js';

/** Spec 001 §5.2: the default per-call timeout of each well-known role; any other role gets 60 s. */
export const defaultRoleTimeoutsMs: Readonly<Record<string, number>> = {
  router: 5_000,
  reasoning: 60_000,
  coding: 45_000,
};
export const defaultTimeoutMs = 60_000;
export const defaultFailureThreshold = 5;
export const defaultCoolDownMs = 30_000;

/** Everything one role needs at call time, resolved from the config and the environment. */
export interface RoleSettings {
  role: string;
  modelId: string;
  /** The endpoint as configured (what spans report). */
  endpoint: string;
  /** The endpoint without its API path, for the adapter to append to. */
  baseUrl: string;
  apiType: ApiType;
  provider: ProviderName;
  preset: ProviderPreset;
  timeoutMs: number;
  /** Infinity when not limited. */
  maxConcurrency: number;
  contextLength?: number;
  temperature?: number;
  maxTokens?: number;
  apiKey?: string;
  /** The variable the key comes from, when the config names one. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  failureThreshold: number;
  coolDownMs: number;
  maxRetries?: number;
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** A role as a library user may write it: `apiType` and `provider` are inferred when left out. */
export type ModelRoleInput = Omit<ModelRoleConfig, 'apiType' | 'provider'> & {
  apiType?: ApiType;
  provider?: ProviderName;
};

/** Fills in what a hand-written role leaves out, by the same rules the config file follows. */
export function completeRoleConfig(input: ModelRoleInput): ModelRoleConfig {
  const urlApiType = inferApiType(input.endpoint);
  const provider =
    input.provider ?? inferProvider(input.endpoint, input.apiType ?? urlApiType) ?? 'openai-compatible';
  const apiType = input.apiType ?? urlApiType ?? resolvePreset(provider).defaultApiType;
  return { ...input, provider, apiType };
}

/**
 * Resolves one configured role. The key variable is read here, when the role is first used: a missing one is a
 * CONFIG_INVALID error naming the line of `api_key_env`.
 */
export function resolveRoleSettings(
  config: SpineConfig,
  role: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { requireApiKey?: boolean } = {},
): RoleSettings {
  const model = config.models[role];
  if (!model) throw createUnknownRoleError(config, role);
  const preset = resolvePreset(model.provider, { model: model.id, quirks: model.quirks });
  const settings: RoleSettings = {
    role,
    modelId: model.id,
    endpoint: model.endpoint,
    baseUrl: toBaseUrl(model.endpoint, model.provider, model.apiType),
    apiType: model.apiType,
    provider: model.provider,
    preset,
    timeoutMs:
      model.timeoutS !== undefined
        ? model.timeoutS * 1000
        : (defaultRoleTimeoutsMs[role] ?? defaultTimeoutMs),
    maxConcurrency: model.maxConcurrency ?? Number.POSITIVE_INFINITY,
    failureThreshold: model.circuitBreaker?.failureThreshold ?? defaultFailureThreshold,
    coolDownMs:
      model.circuitBreaker?.coolDownS !== undefined
        ? model.circuitBreaker.coolDownS * 1000
        : defaultCoolDownMs,
  };
  if (model.contextLength !== undefined) settings.contextLength = model.contextLength;
  if (model.temperature !== undefined) settings.temperature = model.temperature;
  if (model.maxTokens !== undefined) settings.maxTokens = model.maxTokens;
  if (model.headers !== undefined) settings.headers = model.headers;
  if (model.apiKeyEnv !== undefined) settings.apiKeyEnv = model.apiKeyEnv;
  if (model.maxRetries !== undefined) settings.maxRetries = model.maxRetries;
  if (model.firstByteTimeoutMs !== undefined) settings.firstByteTimeoutMs = model.firstByteTimeoutMs;
  if (model.idleTimeoutMs !== undefined) settings.idleTimeoutMs = model.idleTimeoutMs;
  const apiKey = readApiKey(config, role, model, preset, env, options.requireApiKey ?? true);
  if (apiKey !== undefined) settings.apiKey = apiKey;
  return settings;
}

function readApiKey(
  config: SpineConfig,
  role: string,
  model: ModelRoleConfig,
  preset: ProviderPreset,
  env: Readonly<Record<string, string | undefined>>,
  requireApiKey: boolean,
): string | undefined {
  if (model.apiKey !== undefined && model.apiKey !== '') return model.apiKey;
  if (model.apiKeyEnv !== undefined) {
    const value = env[model.apiKeyEnv];
    if (value !== undefined && value !== '') return value;
    if (!requireApiKey) return undefined;
    const path = `models.${role}.api_key_env`;
    const line = config.source?.lines[path] ?? config.source?.lines['defaults.api_key_env'] ?? 0;
    throw createConfigError(config.source?.file ?? '<config>', [
      { line, path, message: `environment variable ${model.apiKeyEnv} is not set` },
    ]);
  }
  // Only official hosts have a conventional variable; local runners get the generic one, if any.
  const fallback = preset.apiKeyEnv ? env[preset.apiKeyEnv] : undefined;
  return fallback || env.LLM_API_KEY || undefined;
}

function createUnknownRoleError(config: SpineConfig, role: string) {
  const roles = Object.keys(config.models);
  return createConfigError(config.source?.file ?? '<config>', [
    {
      line: config.source?.lines.models ?? 0,
      path: `models.${role}`,
      message: `no such role (configured: ${roles.length > 0 ? roles.join(', ') : 'none'})`,
    },
  ]);
}

/** A role's `Endpoint`: where and how to reach its model, the one shape a model client is made from. */
export function endpointOf(settings: RoleSettings): Endpoint {
  const endpoint: Endpoint = {
    provider: settings.provider,
    apiType: settings.apiType,
    preset: settings.preset,
    baseUrl: settings.baseUrl,
    model: settings.modelId,
    timeoutMs: settings.timeoutMs,
  };
  if (settings.apiKey !== undefined) endpoint.apiKey = settings.apiKey;
  if (settings.headers !== undefined) endpoint.headers = settings.headers;
  if (settings.contextLength !== undefined) endpoint.contextLength = settings.contextLength;
  if (settings.maxRetries !== undefined) endpoint.maxRetries = settings.maxRetries;
  if (settings.firstByteTimeoutMs !== undefined) endpoint.firstByteTimeoutMs = settings.firstByteTimeoutMs;
  if (settings.idleTimeoutMs !== undefined) endpoint.idleTimeoutMs = settings.idleTimeoutMs;
  return endpoint;
}
