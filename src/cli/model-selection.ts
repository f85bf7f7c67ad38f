import type { Command } from 'commander';
import { SpineError } from '../core/spine-error.js';
import type { ModelClient, RetryInfo } from '../core/types.js';
import { findConfigFile, loadConfig } from '../llm/config/load-config.js';
import { createLlmClient, type LlmClient } from '../llm/llm-client.js';
import { createModelClient } from '../llm/model-client.js';
import { type ApiType, apiTypes } from '../llm/providers/presets.js';
import { addEndpointOptions, type EndpointFlags, parseCount, resolveEndpoint } from './endpoint-options.js';

/** Endpoint flags plus the config-file flags every model command shares. */
export interface ModelFlags extends EndpointFlags {
  config?: string;
  role?: string;
  apiType?: string;
}

/** The model a command talks to, and how to name it to the user. */
export interface SelectedModel {
  client: ModelClient;
  /** e.g. `coding: qwen3 at http://127.0.0.1:8080/v1 (spine.yaml)` */
  description: string;
  /** Set when the model came from a config file. */
  llm?: LlmClient;
  role?: string;
}

export function addModelOptions(command: Command): Command {
  return addEndpointOptions(command)
    .option('--api-type <type>', `API to speak: ${apiTypes.join(', ')}`)
    .option('--config <file>', 'models by role (default: ./spine.yaml or ./config/models.yaml)')
    .option('--role <name>', 'the configured role to use (default: default, else coding, else the first)');
}

/**
 * Which model a command uses, in ARCHITECTURE.md's order: endpoint flags (or SPINE_BASE_URL), else the config
 * file, else Ollama on 127.0.0.1:11434.
 */
export async function selectModel(
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<SelectedModel> {
  const apiType = parseApiType(flags.apiType);
  const explicitEndpoint = flags.baseUrl !== undefined || env.SPINE_BASE_URL !== undefined;
  const configFile = flags.config ?? (explicitEndpoint ? undefined : await findConfigFile(cwd));
  if (configFile !== undefined) return selectConfiguredRole(configFile, flags, onRetry);

  const endpoint = resolveEndpoint(flags, env);
  const timeoutMs = parseCount(flags.timeout, '--timeout');
  const firstByteTimeoutMs = parseCount(flags.firstByteTimeout, '--first-byte-timeout');
  const idleTimeoutMs = parseCount(flags.idleTimeout, '--idle-timeout');
  const maxRetries = parseCount(flags.maxRetries, '--max-retries');
  const client = createModelClient({
    ...endpoint,
    ...(apiType !== undefined ? { apiType } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    onRetry,
  });
  return { client, description: `${endpoint.model} at ${endpoint.baseUrl} (${endpoint.provider})` };
}

async function selectConfiguredRole(
  file: string,
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
): Promise<SelectedModel> {
  const config = await loadConfig(file);
  const roles = Object.keys(config.models);
  const role = flags.role ?? ['default', 'coding'].find((name) => roles.includes(name)) ?? roles[0];
  if (role === undefined || !roles.includes(role)) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `${file}: no role named ${role ?? '(none)'}; configured roles: ${roles.join(', ') || '(none)'}`,
      details: { file, role, roles },
    });
  }
  const llm = createLlmClient(config, { onRetry });
  const settings = llm.roles().find((summary) => summary.role === role);
  const client: ModelClient = {
    respond: (request) => llm.respond({ ...request, role }),
    stream: (request) => llm.stream({ ...request, role }),
  };
  const where = settings ? `${settings.modelId} at ${settings.endpoint}` : 'unknown model';
  return { client, llm, role, description: `${role}: ${where} (${file})` };
}

export function parseApiType(value: string | undefined): ApiType | undefined {
  if (value === undefined) return undefined;
  if ((apiTypes as readonly string[]).includes(value)) return value as ApiType;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--api-type must be one of ${apiTypes.join(', ')}, got ${value}`,
  });
}
