import { type Clock, systemClock } from '../core/deps.js';
import type { ModelClient, RetryInfo } from '../core/types.js';
import { createFetchTransport, type FetchFunction } from './http/fetch-transport.js';
import { createUndiciTransport } from './http/undici-transport.js';
import { openAiChatAdapter } from './providers/openai-chat/openai-chat-adapter.js';
import type { ApiType } from './providers/presets.js';
import { defaultRetryOptions, type RetryOptions } from './resilience/retry-policy.js';
import { collectResponse, type ModelCallContext, runModelCall } from './run-model-call.js';

/** One model endpoint. Only `baseUrl` and `model` are required. */
export interface ModelClientOptions {
  /** A preset name: `openai-compatible` (default), `openai`, `azure`, `vllm`, `llamacpp`, `deepseek`, … */
  provider?: string;
  baseUrl: string;
  model: string;
  /** Which API to speak: `chat_completions` (default), `responses`, or `ollama` (native `/api/chat`). */
  apiType?: ApiType;
  apiKey?: string;
  /** Sent with every request; they win over Spine's own headers. */
  headers?: Record<string, string>;
  /** Deadline for each attempt, from sending to the last byte (default 60 s; 0 disables). */
  timeoutMs?: number;
  /** Longest silence between body chunks (default 30 s; 0 disables). */
  idleTimeoutMs?: number;
  /** Retries after the first attempt (default 2). Wins over `retry.maxRetries`. */
  maxRetries?: number;
  retry?: Partial<RetryOptions>;
  /** A `fetch` to send requests with instead of Spine's pooled undici agent. */
  fetch?: FetchFunction;
  /** Azure classic URLs: the `api-version` query parameter (default `2024-10-21`). */
  apiVersion?: string;
  /** Called before each retry (the same information is a `retry` stream event). */
  onRetry?: (info: RetryInfo) => void;
}

export interface ModelClientDeps {
  clock: Clock;
  random: () => number;
}

/**
 * A client for one OpenAI-compatible chat endpoint: `stream()` yields normalized events, `respond()` returns
 * the ModelResponse. Both run the same loop with the same retries, timeouts and cancellation.
 * @example
 * const model = createModelClient({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' });
 * const response = await model.respond({ messages: [{ role: 'user', content: 'hi' }] });
 */
export function createModelClient(
  options: ModelClientOptions,
  deps: Partial<ModelClientDeps> = {},
): ModelClient {
  const context: ModelCallContext = {
    adapter: openAiChatAdapter,
    endpoint: {
      provider: options.provider ?? 'openai-compatible',
      baseUrl: options.baseUrl,
      model: options.model,
      apiKey: options.apiKey,
      headers: options.headers,
      apiVersion: options.apiVersion,
    },
    transport: options.fetch ? createFetchTransport(options.fetch) : createUndiciTransport(),
    clock: deps.clock ?? systemClock,
    random: deps.random ?? Math.random,
    timeoutMs: options.timeoutMs ?? 60_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
    retry: { ...defaultRetryOptions, ...options.retry, maxRetries: resolveMaxRetries(options) },
    onRetry: options.onRetry,
  };
  return {
    stream: (request) => runModelCall(context, request, true),
    respond: (request) => collectResponse(runModelCall(context, request, false)),
  };
}

function resolveMaxRetries(options: ModelClientOptions): number {
  return options.maxRetries ?? options.retry?.maxRetries ?? defaultRetryOptions.maxRetries;
}
