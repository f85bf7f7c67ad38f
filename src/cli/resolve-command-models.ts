import { isAbsolute, relative, resolve } from 'node:path';
import { SpineError } from '../core/spine-error.js';
import { inferApiType } from '../llm/config/infer-endpoint.js';
import { findConfigFile, loadConfig } from '../llm/config/load-config.js';
import type { SpineConfig } from '../llm/config/spine-config.js';
import { type ProviderName, providerNames, resolvePreset } from '../llm/providers/presets.js';
import { defaultTimeouts } from '../llm/resilience/default-timeouts.js';
import { overlayCommandLine, type SettingOrigins } from './command-line-overlay.js';
import { defaultBaseUrl, requireModel } from './endpoint-options.js';
import { type ModelFlags, parseApiType } from './model-selection.js';

/** The roles a command uses, resolved once: the config (or a default role) with the command line laid over. */
export interface CommandModels {
  config: SpineConfig;
  /** The roles to use, in order: the one `--role` names (or the default one), or every role for listings. */
  roles: string[];
  origins: Record<string, SettingOrigins>;
  /** The config file; undefined when none was found and the flags alone give the model. */
  file: string | undefined;
}

/**
 * Every model command's settings, in one order for every setting: flag, environment variable, the role in
 * spine.yaml, Spine's default. The config is used whenever there is one (a flag then overrides only its own
 * setting); without one, a role `default` is made from the flags, the environment and the defaults.
 */
export async function resolveCommandModels(
  flags: ModelFlags,
  options: { cwd: string; env: NodeJS.ProcessEnv; allRoles: boolean; modelRequired: boolean },
): Promise<CommandModels> {
  const parsed = {
    ...(flags.apiType !== undefined ? { apiType: parseApiType(flags.apiType)! } : {}),
    ...(flags.provider !== undefined ? { provider: parseProvider(flags.provider) } : {}),
  };
  const file = flags.config ?? shortPath(options.cwd, await findConfigFile(options.cwd));
  let config: SpineConfig;
  let roles: string[];
  if (file === undefined) {
    config = { models: { default: flagsOnlyRole() } };
    roles = ['default'];
  } else {
    config = await loadConfig(resolve(options.cwd, file));
    // Errors and origins name the file as the user knows it (`spine.yaml:12`).
    if (config.source !== undefined) config.source.file = file;
    // A listing shows every role, unless the command line names one model: then the one it would use.
    const namesOne = [flags.baseUrl, flags.model, options.env.SPINE_BASE_URL, options.env.SPINE_MODEL].some(
      (value) => value !== undefined,
    );
    roles = chooseRoles(config, file, flags.role, options.allRoles && !namesOne);
  }
  const origins: Record<string, SettingOrigins> = {};
  for (const role of roles) {
    const overlaid = overlayCommandLine(config, role, flags, options.env, parsed);
    config = overlaid.config;
    origins[role] = overlaid.origins;
    const model = config.models[role]!;
    // A provider or URL from the command line, and no API type: speak what that URL or provider implies.
    const moved = [overlaid.origins.provider, overlaid.origins.baseUrl].some((origin) =>
      /^(flag|env) /.test(origin),
    );
    if (moved && !overlaid.origins.apiType.startsWith('flag')) {
      model.apiType = inferApiType(model.endpoint) ?? resolvePreset(model.provider).defaultApiType;
    }
  }
  if (file === undefined) {
    const role = config.models.default!;
    // A provider chosen by flag without an API type speaks that provider's own (Ollama: its native API).
    if (flags.apiType === undefined) role.apiType = resolvePreset(role.provider).defaultApiType;
    if (options.modelRequired) role.id = requireModel(role.id);
  }
  return { config, roles, origins, file };
}

/** A found config file as a path from the working folder (`spine.yaml`), absolute when it lies elsewhere. */
function shortPath(cwd: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const short = relative(cwd, file);
  return short.startsWith('..') || isAbsolute(short) ? file : short;
}

function flagsOnlyRole() {
  return {
    id: '',
    endpoint: defaultBaseUrl,
    provider: 'openai-compatible' as ProviderName,
    apiType: 'chat_completions' as const,
    timeoutS: defaultTimeouts.timeoutMs / 1000,
  };
}

function chooseRoles(
  config: SpineConfig,
  file: string,
  role: string | undefined,
  allRoles: boolean,
): string[] {
  const roles = Object.keys(config.models);
  if (role !== undefined) {
    if (!roles.includes(role)) {
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `${file}: no role named ${role}; configured roles: ${roles.join(', ') || '(none)'}`,
        details: { file, role, roles },
      });
    }
    return [role];
  }
  if (allRoles) return roles;
  const chosen = ['default', 'coding'].find((name) => roles.includes(name)) ?? roles[0];
  return chosen === undefined ? [] : [chosen];
}

function parseProvider(value: string): ProviderName {
  if ((providerNames as readonly string[]).includes(value)) return value as ProviderName;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--provider must be one of ${providerNames.join(', ')}, got ${value}`,
  });
}
