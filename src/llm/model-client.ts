import { type Clock, systemClock } from '../core/deps.js';
import type { ModelClient, RetryInfo } from '../core/types.js';
import type { Endpoint } from './endpoint.js';
import { parseEndpointUrl, registerEndpointSecrets } from './http/endpoint-url.js';
import { createFetchTransport, type FetchFunction } from './http/fetch-transport.js';
import { createNodeHttpTransport } from './http/node-http-transport.js';
import { createUndiciTransport } from './http/undici-transport.js';
import type { ResponseLimits } from './model-call-attempt.js';
import type { ApiType, ProviderName } from './providers/presets.js';
import type { EndpointSettings } from './providers/provider-adapter.js';
import { parseProviderName } from './providers/resolve-endpoint-preset.js';
import { selectProviderAdapter } from './providers/select-provider-adapter.js';
import { defaultTimeouts } from './resilience/default-timeouts.js';
import { defaultRetryOptions, type RetryOptions } from './resilience/retry-policy.js';
import { collectResponse, type ModelCallContext, runModelCall } from './run-model-call.js';
import { withToolCallReask } from './tool-calls/tool-call-reask.js';

/** One model endpoint (`Endpoint`: only `baseUrl` and `model` are required) and how this client treats it. */
export interface ModelClientOptions extends Endpoint {
  /**
   * Size limits of one response: `responseBytes` for the whole body (default 64 MiB), `eventBytes` for the
   * longest stretch of a stream without a complete event (default 16 MiB). Past either: LLM_RESPONSE_TOO_LARGE.
   */
  responseLimits?: Partial<ResponseLimits>;
  /** Retry policy; `maxRetries` of the endpoint wins over `retry.maxRetries`. */
  retry?: Partial<RetryOptions>;
  /** A `fetch` to send requests with instead of Spine's pooled undici agent. */
  fetch?: FetchFunction;
  /**
   * `undici` (default: the least CPU per call in a long-running process) or `node` (Node's own http, nothing to
   * load: a short-lived process, such as the CLI, answers sooner). Ignored when `fetch` is given.
   */
  httpClient?: 'undici' | 'node';
  /** Called before each retry (the same information is a `retry` stream event). */
  onRetry?: (info: RetryInfo) => void;
  /** Re-asks after a tool call that names an unknown tool or fails its schema (default 2). */
  repairRetries?: number;
}

export interface ModelClientDeps {
  clock: Clock;
  random: () => number;
}

/**
 * A client for one model endpoint, in whichever dialect it speaks (Chat Completions, the Responses API, Ollama
 * native): `stream()` yields normalized events, `respond()` returns the ModelResponse, the same whatever the
 * runner. Both run the same loop with the same retries, timeouts and cancellation.
 * @example
 * const model = createModelClient({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' });
 * const local = createModelClient({ provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3' });
 * const response = await model.respond({ messages: [{ role: 'user', content: 'hi' }] });
 */
export function createModelClient(
  options: ModelClientOptions,
  deps: Partial<ModelClientDeps> = {},
): ModelClient {
  const provider = resolveProviderName(options);
  const apiType = options.apiType ?? defaultApiTypeOf(provider);
  const context: ModelCallContext = {
    adapter: selectProviderAdapter(apiType),
    endpoint: toEndpointSettings(options, provider),
    transport: options.fetch
      ? createFetchTransport(options.fetch)
      : options.httpClient === 'node'
        ? createNodeHttpTransport()
        : createUndiciTransport(),
    clock: deps.clock ?? systemClock,
    random: deps.random ?? Math.random,
    timeoutMs: options.timeoutMs ?? defaultTimeouts.timeoutMs,
    firstByteTimeoutMs: options.firstByteTimeoutMs ?? defaultTimeouts.firstByteTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? defaultTimeouts.idleTimeoutMs,
    ...(options.responseLimits !== undefined ? { responseLimits: options.responseLimits } : {}),
    refusedFields: new Set(),
    retry: { ...defaultRetryOptions, ...options.retry, maxRetries: resolveMaxRetries(options) },
    onRetry: options.onRetry,
  };
  const client: ModelClient = {
    stream: (request) => runModelCall(context, request, true),
    respond: (request) => collectResponse(runModelCall(context, request, false)),
  };
  return withToolCallReask(client, { repairRetries: options.repairRetries });
}

/** Checked when the client is made, so a misspelt provider fails before any request is sent. */
function resolveProviderName(options: ModelClientOptions): ProviderName {
  if (options.provider !== undefined) return parseProviderName(options.provider);
  return options.preset?.name ?? 'openai-compatible';
}

// DECISIONS §1: `provider: ollama` means the native API at the server root; its /v1 shim is reached with
// `apiType: 'chat_completions'` (or `provider: 'openai-compatible'`), which keeps the /v1 base URL.
function defaultApiTypeOf(provider: ProviderName): ApiType {
  return provider === 'ollama' ? 'ollama' : 'chat_completions';
}

function toEndpointSettings(options: ModelClientOptions, provider: ProviderName): EndpointSettings {
  const url = parseEndpointUrl(options.baseUrl);
  registerEndpointSecrets(options.apiKey, options.headers);
  const endpoint: EndpointSettings = {
    provider,
    baseUrl: url.base,
    query: url.query,
    model: options.model,
    apiKey: options.apiKey,
    headers: withBasicAuthorization(options, url.basicAuthorization),
    apiVersion: options.apiVersion,
  };
  // Without a given preset, each call resolves one for the model it names (OpenAI reasoning models differ).
  if (options.preset) endpoint.preset = options.preset;
  else if (options.quirks) endpoint.quirks = options.quirks;
  if (options.contextLength !== undefined) endpoint.contextLength = options.contextLength;
  return endpoint;
}

/** `user:password@` in the base URL is sent as Basic auth, unless a key or an Authorization header is given. */
function withBasicAuthorization(
  options: ModelClientOptions,
  basicAuthorization: string | undefined,
): Record<string, string> | undefined {
  if (basicAuthorization === undefined || options.apiKey) return options.headers;
  const hasOwn = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  return hasOwn ? options.headers : { authorization: basicAuthorization, ...options.headers };
}

function resolveMaxRetries(options: ModelClientOptions): number {
  return options.maxRetries ?? options.retry?.maxRetries ?? defaultRetryOptions.maxRetries;
}
