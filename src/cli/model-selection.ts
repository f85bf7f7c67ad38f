import type { Command } from 'commander';
import { SpineError } from '../core/spine-error.js';
import type { ModelClient, RetryInfo } from '../core/types.js';
import { createLlmClient, type LlmClient } from '../llm/llm-client.js';
import { type ApiType, apiTypes } from '../llm/providers/presets.js';
import type { SettingOrigins } from './command-line-overlay.js';
import { addEndpointOptions, type EndpointFlags } from './endpoint-options.js';
import { resolveCommandModels } from './resolve-command-models.js';

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
  llm: LlmClient;
  role: string;
  /** Where each setting came from (`flag --model`, `spine.yaml:12`, `default`). */
  origins: SettingOrigins;
  /** The role's context window, when known: the engine's history budget. */
  contextLength?: number;
}

export function addModelOptions(command: Command): Command {
  return addEndpointOptions(command)
    .option('--api-type <type>', `API to speak: ${apiTypes.join(', ')}`)
    .option('--config <file>', 'models by role (default: ./spine.yaml or ./config/models.yaml)')
    .option('--role <name>', 'the configured role to use (default: default, else coding, else the first)');
}

/**
 * The model a command talks to: one role, resolved once by `resolveCommandModels` (flag > environment > the
 * role in spine.yaml > default), behind the same LlmClient whether it came from a config or the flags alone.
 */
export async function selectModel(
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<SelectedModel> {
  const models = await resolveCommandModels(flags, { cwd, env, allRoles: false, modelRequired: true });
  const role = models.roles[0];
  if (role === undefined) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `${models.file}: no model roles are configured`,
    });
  }
  // A CLI process makes a few calls and exits: Node's own http answers sooner than loading undici.
  const llm = createLlmClient(models.config, { onRetry, env, httpClient: 'node' });
  const settings = llm.roles().find((summary) => summary.role === role);
  const client = llm.forRole(role);
  const where = settings ? `${settings.modelId} at ${settings.endpoint}` : 'unknown model';
  const description =
    models.file === undefined
      ? `${where} (${settings?.provider ?? 'openai-compatible'})`
      : `${role}: ${where} (${models.file})`;
  const selected: SelectedModel = { client, llm, role, description, origins: models.origins[role]! };
  if (settings?.contextLength !== undefined) selected.contextLength = settings.contextLength;
  return selected;
}

export function parseApiType(value: string | undefined): ApiType | undefined {
  if (value === undefined) return undefined;
  if ((apiTypes as readonly string[]).includes(value)) return value as ApiType;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--api-type must be one of ${apiTypes.join(', ')}, got ${value}`,
  });
}
