import type { ModelClient, RetryInfo } from '../core/types.js';
import { type RoleSettings, resolveRoleSettings } from '../llm/config/resolve-role-settings.js';
import { createLlmClient } from '../llm/llm-client.js';
import type { SettingOrigins } from './command-line-overlay.js';
import type { ModelFlags } from './model-selection.js';
import { resolveCommandModels } from './resolve-command-models.js';

/** A model the CLI can describe and probe: its settings (the key left out of printing) and a client for it. */
export interface ModelTarget {
  settings: RoleSettings;
  client: ModelClient;
  /** The config file it came from; undefined for endpoint flags. */
  file: string | undefined;
  /** Where each setting came from. */
  origins: SettingOrigins;
}

/**
 * Every configured role (or the `--role` one), else the one model the flags name (as role `default`), each with
 * the command line laid over it and the origin of every setting. Keys are not required here: a role whose key
 * variable is missing is still listed, and fails when probed.
 */
export async function loadModelTargets(
  flags: ModelFlags,
  onRetry: (info: RetryInfo) => void,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelTarget[]> {
  const models = await resolveCommandModels(flags, { cwd, env, allRoles: true, modelRequired: false });
  const llm = createLlmClient(models.config, { env, onRetry, httpClient: 'node' });
  return models.roles.map((role) => ({
    settings: resolveRoleSettings(models.config, role, env, { requireApiKey: false }),
    client: llm.forRole(role),
    file: models.file,
    origins: models.origins[role]!,
  }));
}
