import type { Context, Tracer } from '@opentelemetry/api';
import { type Clock, systemClock } from '../core/deps.js';
import { lazyModule } from '../core/lazy-module.js';
import type { ModelClient, ModelRequest, ModelResponse, RetryInfo, StreamEvent } from '../core/types.js';
import {
  completeRoleConfig,
  endpointOf,
  type ModelRoleInput,
  type RoleSettings,
  resolveRoleSettings,
} from './config/resolve-role-settings.js';
import type { BudgetConfig, GovernanceConfig, ModelRoleConfig, SpineConfig } from './config/spine-config.js';
import type { Endpoint } from './endpoint.js';
import { createModelClient } from './model-client.js';
import { type BudgetUsage, type BudgetWarning, createBudgetGuard } from './policies/budget-guard.js';
import { type CircuitState, createCircuitBreaker } from './policies/circuit-breaker.js';
import { createConcurrencyLimiter } from './policies/concurrency-limiter.js';
import {
  type CallEndEvent,
  type GuardedModelClient,
  guardModelClient,
} from './policies/guard-model-client.js';
import type { ApiType, ProviderName, ProviderPreset } from './providers/presets.js';

/** One call to a role: the model request plus the role, and optionally the caller's trace context. */
export type LlmCallRequest = ModelRequest & { role: string; traceContext?: Context };

/** What a model client factory gets for one role: the role's `Endpoint`, resolved, and the client's hooks. */
export interface RoleModelClientOptions extends Endpoint {
  role: string;
  provider: ProviderName;
  apiType: ApiType;
  preset: ProviderPreset;
  /** The endpoint as configured. */
  endpoint: string;
  /** The role's per-attempt timeout. */
  timeoutMs: number;
  /** See `ModelClientOptions.httpClient`. */
  httpClient?: 'undici' | 'node';
  /** Called before each retry of this role's calls. */
  onRetry?: (info: RetryInfo) => void;
}

export type ModelClientFactory = (options: RoleModelClientOptions, deps: { clock: Clock }) => ModelClient;

export type LlmClientEvent =
  | CallEndEvent
  | ({ type: 'budget-warning' } & BudgetWarning)
  | { type: 'circuit-change'; role: string; state: CircuitState; previous: CircuitState };

const otel = lazyModule<typeof import('@opentelemetry/api')>('@opentelemetry/api');

/** The API keeps its registered providers on a global symbol: a look at it costs nothing, loading the API ~25 ms. */
function registeredTracer(): Tracer | undefined {
  const registry = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[
    Symbol.for('opentelemetry.js.api.1')
  ];
  return registry?.trace === undefined ? undefined : otel().trace.getTracer('spine');
}

export interface LlmClientOptions {
  /** Builds each role's model client (default: `createModelClient`). */
  createModelClient?: ModelClientFactory;
  /** Where `api_key_env` variables are read (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: Clock;
  onEvent?: (event: LlmClientEvent) => void;
  /** Called before each retry, with the role that retried. */
  onRetry?: (info: RetryInfo & { role: string }) => void;
  /** See `ModelClientOptions.httpClient` (default `undici`). */
  httpClient?: 'undici' | 'node';
  /**
   * Default: `trace.getTracer('spine')` when the application has registered an OpenTelemetry SDK (before the
   * client is made); else no spans, and the OpenTelemetry API is not even loaded.
   */
  tracer?: Tracer;
}

/** A configured role as `roles()` lists it: the resolved settings, without the key itself. */
export type RoleSummary = Omit<RoleSettings, 'apiKey'> & {
  apiKeyPresent: boolean;
  circuitState: CircuitState;
};

export interface LlmClient {
  respond(request: LlmCallRequest): Promise<ModelResponse>;
  stream(request: LlmCallRequest): AsyncIterable<StreamEvent>;
  roles(): RoleSummary[];
  /**
   * A `ModelClient` bound to one role, with its defaults, limits, budget and spans: what an engine or any code
   * written against `ModelClient` takes. An unknown role fails at the first call, naming the configured ones.
   */
  forRole(role: string): ModelClient;
  /** Calls and tokens used so far by this client (what the budget counts). */
  usage(): BudgetUsage;
}

/** A config as a library user may write it: roles may leave `apiType` and `provider` to inference. */
export interface LlmClientConfig {
  models: Record<string, ModelRoleInput | ModelRoleConfig>;
  budget?: BudgetConfig;
  governance?: GovernanceConfig;
  source?: SpineConfig['source'];
}

interface RoleRuntime {
  settings: RoleSettings;
  client: GuardedModelClient;
  circuitState: () => CircuitState;
}

/**
 * Models by role, each behind governance, budget, a concurrency limit and a circuit breaker, with one span per
 * call. Roles are set up on first use, so a missing key variable fails only the role that needs it.
 * @example
 * const llm = createLlmClient(await loadConfig('spine.yaml'));
 * const response = await llm.respond({ role: 'coding', messages: [{ role: 'user', content: 'hi' }] });
 */
export function createLlmClient(
  config: SpineConfig | LlmClientConfig,
  options: LlmClientOptions = {},
): LlmClient {
  const spineConfig = normalizeConfig(config);
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  const tracer = options.tracer ?? registeredTracer();
  const factory = options.createModelClient ?? createDefaultModelClient;
  const emit = (event: LlmClientEvent) => options.onEvent?.(event);
  const budget = createBudgetGuard(spineConfig.budget ?? {}, (warning) =>
    emit({ type: 'budget-warning', ...warning }),
  );
  const runtimes = new Map<string, RoleRuntime>();

  const getRuntime = (role: string): RoleRuntime => {
    const existing = runtimes.get(role);
    if (existing) return existing;
    const settings = resolveRoleSettings(spineConfig, role, env);
    const breaker = createCircuitBreaker({
      name: `role ${role}`,
      failureThreshold: settings.failureThreshold,
      coolDownMs: settings.coolDownMs,
      clock,
      onStateChange: (state, previous) => emit({ type: 'circuit-change', role, state, previous }),
    });
    const onRetry = options.onRetry;
    const factoryOptions = toFactoryOptions(settings);
    if (options.httpClient !== undefined) factoryOptions.httpClient = options.httpClient;
    if (onRetry) factoryOptions.onRetry = (info) => onRetry({ ...info, role });
    const inner = factory(factoryOptions, { clock });
    const client = guardModelClient(inner, {
      role,
      modelId: settings.modelId,
      endpoint: settings.endpoint,
      provider: settings.provider,
      apiType: settings.apiType,
      limiter: createConcurrencyLimiter(settings.maxConcurrency),
      breaker,
      budget,
      governance: spineConfig.governance,
      tracer,
      clock,
      onCallEnd: emit,
    });
    const runtime = { settings, client, circuitState: () => breaker.state };
    runtimes.set(role, runtime);
    return runtime;
  };

  const llm: LlmClient = {
    respond(request) {
      try {
        const runtime = getRuntime(request.role);
        return runtime.client.respond(applyRoleDefaults(request, runtime.settings));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async *stream(request) {
      const runtime = getRuntime(request.role);
      yield* runtime.client.stream(applyRoleDefaults(request, runtime.settings));
    },
    forRole: (role) => ({
      respond: (request) => llm.respond({ ...request, role }),
      stream: (request) => llm.stream({ ...request, role }),
    }),
    roles: () =>
      Object.keys(spineConfig.models).map((role) => {
        const { apiKey, ...settings } = resolveRoleSettings(spineConfig, role, env, { requireApiKey: false });
        const circuitState = runtimes.get(role)?.circuitState() ?? 'closed';
        return { ...settings, apiKeyPresent: apiKey !== undefined, circuitState };
      }),
    usage: () => budget.usage,
  };
  return llm;
}

/** Spec 001 §4.2: per-role defaults, per-call values win. */
function applyRoleDefaults(request: LlmCallRequest, settings: RoleSettings) {
  const { role: _role, ...modelRequest } = request;
  const withDefaults = { ...modelRequest, timeoutMs: request.timeoutMs ?? settings.timeoutMs };
  if (withDefaults.temperature === undefined && settings.temperature !== undefined) {
    withDefaults.temperature = settings.temperature;
  }
  if (withDefaults.maxTokens === undefined && settings.maxTokens !== undefined) {
    withDefaults.maxTokens = settings.maxTokens;
  }
  return withDefaults;
}

function toFactoryOptions(settings: RoleSettings): RoleModelClientOptions {
  return {
    ...endpointOf(settings),
    role: settings.role,
    provider: settings.provider,
    apiType: settings.apiType,
    preset: settings.preset,
    endpoint: settings.endpoint,
    timeoutMs: settings.timeoutMs,
  };
}

/** Each role speaks its own dialect: `apiType` picks the adapter, `preset` shapes what is sent. */
const createDefaultModelClient: ModelClientFactory = (options, deps) => createModelClient(options, deps);

function normalizeConfig(config: SpineConfig | LlmClientConfig): SpineConfig {
  const models: Record<string, ModelRoleConfig> = {};
  for (const [role, model] of Object.entries(config.models)) models[role] = completeRoleConfig(model);
  return { ...config, models };
}
