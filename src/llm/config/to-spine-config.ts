import {
  type ApiType,
  type ProviderName,
  type ProviderQuirks,
  providerPresets,
  quirkKeys,
} from '../providers/presets.js';
import type { ConfigProblem } from './config-error.js';
import { inferApiType, inferProvider } from './infer-endpoint.js';
import type { BudgetConfig, GovernanceConfig, ModelRoleConfig, SpineConfig } from './spine-config.js';

type Raw = Record<string, unknown>;

/**
 * Turns a checked document (keys as written) into a SpineConfig: `defaults:` merged under each role, the API
 * type and provider inferred where not given, and the endpoint checked against the API type.
 */
export function toSpineConfig(
  raw: Raw,
  lines: Record<string, number>,
): { config: SpineConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const defaults = (raw.defaults ?? {}) as Raw;
  const models: Record<string, ModelRoleConfig> = {};
  for (const [role, value] of Object.entries((raw.models ?? {}) as Record<string, Raw>)) {
    const path = `models.${role}`;
    const merged: Raw = { ...defaults, ...value, quirks: mergeOptional(defaults.quirks, value.quirks) };
    merged.circuit_breaker = mergeOptional(defaults.circuit_breaker, value.circuit_breaker);
    const roleLine = lines[path] ?? 1;
    const lineOf = (key?: string) =>
      key === undefined ? roleLine : (lines[`${path}.${key}`] ?? lines[`defaults.${key}`] ?? roleLine);
    const written = new Set(
      ['endpoint'].filter((key) => `${path}.${key}` in lines || `defaults.${key}` in lines),
    );
    const model = toRoleConfig(merged, { path, lineOf, written }, problems);
    if (model) models[role] = model;
  }
  const config: SpineConfig = { models };
  if (raw.budget) config.budget = toBudget(raw.budget as Raw);
  if (raw.governance) config.governance = toGovernance(raw.governance as Raw);
  if (Array.isArray(raw.skills)) config.skills = raw.skills as string[];
  if (raw.mcp_servers) config.mcpServers = raw.mcp_servers as NonNullable<SpineConfig['mcpServers']>;
  return { config, problems };
}

interface RoleSource {
  path: string;
  lineOf: (key?: string) => number;
  /** Keys present in the file, valid or not. */
  written: Set<string>;
}

function toRoleConfig(raw: Raw, source: RoleSource, problems: ConfigProblem[]): ModelRoleConfig | undefined {
  const { path, lineOf, written } = source;
  const endpoint = raw.endpoint as string | undefined;
  if (endpoint === undefined) {
    // An endpoint written but invalid has been reported already.
    if (written.has('endpoint')) return undefined;
    problems.push({ line: lineOf(), path: `${path}.endpoint`, message: 'is required (here or in defaults)' });
    return undefined;
  }
  if (raw.id === undefined) return undefined;
  const urlApiType = inferApiType(endpoint);
  const givenApiType = raw.api_type as ApiType | undefined;
  if (givenApiType && urlApiType && givenApiType !== urlApiType) {
    const message = `the URL is a ${urlApiType} endpoint but api_type is ${givenApiType}`;
    problems.push({ line: lineOf('endpoint'), path: `${path}.endpoint`, message });
    return undefined;
  }
  const provider =
    (raw.provider as ProviderName | undefined) ??
    inferProvider(endpoint, givenApiType ?? urlApiType) ??
    'openai-compatible';
  const model: ModelRoleConfig = {
    id: raw.id as string,
    endpoint,
    apiType: givenApiType ?? urlApiType ?? providerPresets[provider].defaultApiType,
    provider,
  };
  copyDefined(model, raw, {
    context_length: 'contextLength',
    max_concurrency: 'maxConcurrency',
    timeout_s: 'timeoutS',
    api_key_env: 'apiKeyEnv',
    temperature: 'temperature',
    max_tokens: 'maxTokens',
    headers: 'headers',
  });
  if (raw.quirks) model.quirks = toQuirks(raw.quirks as Raw);
  if (raw.circuit_breaker) {
    const breaker = raw.circuit_breaker as Raw;
    model.circuitBreaker = {};
    copyDefined(model.circuitBreaker, breaker, {
      failure_threshold: 'failureThreshold',
      cool_down_s: 'coolDownS',
    });
  }
  return model;
}

function toQuirks(raw: Raw): Partial<ProviderQuirks> {
  const quirks: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const quirk = quirkKeys[key];
    if (quirk) quirks[quirk.field] = value;
  }
  return quirks as Partial<ProviderQuirks>;
}

function toBudget(raw: Raw): BudgetConfig {
  const budget: BudgetConfig = {};
  copyDefined(budget, raw, {
    max_calls: 'maxCalls',
    max_total_tokens: 'maxTotalTokens',
    soft_calls: 'softCalls',
    soft_total_tokens: 'softTotalTokens',
  });
  return budget;
}

function toGovernance(raw: Raw): GovernanceConfig {
  const governance: GovernanceConfig = {};
  copyDefined(governance, raw, {
    max_tokens: 'maxTokens',
    max_temperature: 'maxTemperature',
    blocked_tools: 'blockedTools',
    allowed_servers: 'allowedServers',
  });
  return governance;
}

function mergeOptional(base: unknown, override: unknown): Raw | undefined {
  if (base === undefined && override === undefined) return undefined;
  return { ...(base as Raw | undefined), ...(override as Raw | undefined) };
}

function copyDefined<T extends object>(target: T, source: Raw, names: Record<string, keyof T>): void {
  for (const [from, to] of Object.entries(names)) {
    if (source[from] !== undefined) (target as Record<keyof T, unknown>)[to] = source[from];
  }
}
