import { SpineError } from '../core/spine-error.js';
import type { ModelClient, RetryInfo } from '../core/types.js';
import { toBaseUrl } from '../llm/config/infer-endpoint.js';
import { findConfigFile, loadConfig } from '../llm/config/load-config.js';
import { type RoleSettings, resolveRoleSettings } from '../llm/config/resolve-role-settings.js';
import { createLlmClient } from '../llm/llm-client.js';
import { createModelClient } from '../llm/model-client.js';
import { type ProviderName, providerNames, resolvePreset } from '../llm/providers/presets.js';
import { parseCount, resolveEndpoint } from './endpoint-options.js';
import { type ModelFlags, parseApiType } from './model-selection.js';

/** A model the CLI can describe and probe: its settings (the key left out of printing) and a client for it. */
export interface ModelTarget {
  settings: RoleSettings;
  client: ModelClient;
  /** The config file it came from; undefined for endpoint flags. */
  file: string | undefined;
}

/**
 * Every configured role (or the `--role` one), else the one model the endpoint flags name (as role `default`).
 * Keys are not required here: a role whose key variable is missing is still listed, and fails when probed.
 */
export async function loadModelTargets(
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelTarget[]> {
  const explicitEndpoint = flags.baseUrl !== undefined || env.SPINE_BASE_URL !== undefined;
  const file = flags.config ?? (explicitEndpoint ? undefined : await findConfigFile(cwd));
  if (file === undefined) return [targetFromFlags(flags, onRetry, env)];

  const config = await loadConfig(file);
  const roles = Object.keys(config.models);
  if (flags.role !== undefined && !roles.includes(flags.role)) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `${file}: no role named ${flags.role}; configured roles: ${roles.join(', ') || '(none)'}`,
      details: { file, role: flags.role, roles },
    });
  }
  const llm = createLlmClient(config, { env, onRetry });
  return (flags.role !== undefined ? [flags.role] : roles).map((role) => ({
    settings: resolveRoleSettings(config, role, env, { requireApiKey: false }),
    client: {
      respond: (request) => llm.respond({ ...request, role }),
      stream: (request) => llm.stream({ ...request, role }),
    },
    file,
  }));
}

function targetFromFlags(
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
  env: NodeJS.ProcessEnv,
): ModelTarget {
  const endpoint = resolveEndpoint(flags, env, { modelRequired: false });
  const provider = parseProvider(endpoint.provider);
  const preset = resolvePreset(provider, { model: endpoint.model });
  const apiType = parseApiType(flags.apiType) ?? preset.defaultApiType;
  const timeoutMs = parseCount(flags.timeout, '--timeout') ?? 60_000;
  const settings: RoleSettings = {
    role: 'default',
    modelId: endpoint.model,
    endpoint: endpoint.baseUrl,
    baseUrl: toBaseUrl(endpoint.baseUrl, provider, apiType),
    apiType,
    provider,
    preset,
    timeoutMs,
    maxConcurrency: Number.POSITIVE_INFINITY,
    failureThreshold: 0,
    coolDownMs: 0,
    ...(endpoint.apiKey !== undefined ? { apiKey: endpoint.apiKey } : {}),
  };
  const client = createModelClient({ ...endpoint, provider, apiType, timeoutMs, onRetry });
  return { settings, client, file: undefined };
}

function parseProvider(value: string): ProviderName {
  if ((providerNames as readonly string[]).includes(value)) return value as ProviderName;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--provider must be one of ${providerNames.join(', ')}, got ${value}`,
  });
}
