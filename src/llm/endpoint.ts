import type { ApiType, ProviderPreset, ProviderQuirks } from './providers/presets.js';

/**
 * Where and how to reach one model: the one shape every way in resolves to — `createModelClient` options, a
 * role of spine.yaml (`endpointOf`), the CLI's flags over a role (flag > environment > the role > default) — and
 * that a model client, `LlmClient.forRole` and `spine doctor` all send with. Only `baseUrl` and `model` are
 * required; the rest has defaults.
 */
export interface Endpoint {
  /**
   * A preset name: `openai-compatible` (default), `openai`, `azure`, `deepseek`, `ollama`, `lmstudio`,
   * `llamacpp`, `vllm`. Any other name is a CONFIG_INVALID error.
   */
  provider?: string;
  /** The server root for Ollama native (a trailing `/v1` or `/api` is trimmed), else the API base URL. */
  baseUrl: string;
  model: string;
  /**
   * Which API to speak: `chat_completions`, `responses`, or `ollama` (native `/api/chat`). Default: `ollama`
   * for `provider: 'ollama'`, else `chat_completions`.
   */
  apiType?: ApiType;
  /** What the runner accepts, as resolved elsewhere (e.g. from a config); default: the provider's preset. */
  preset?: ProviderPreset;
  /** Single preset entries to override (a config's `quirks:`); ignored when `preset` is given. */
  quirks?: Partial<ProviderQuirks>;
  /** The model's context window; Ollama native sends it as `options.num_ctx`. */
  contextLength?: number;
  apiKey?: string;
  /** Sent with every request; they win over Spine's own headers. */
  headers?: Record<string, string>;
  /** Azure classic URLs: the `api-version` query parameter (default `2024-10-21`). */
  apiVersion?: string;
  /** The whole call, from sending to the last byte, retries and their waits included (default 10 min; 0 disables). */
  timeoutMs?: number;
  /** Each attempt's wait for the response headers (default 60 s; 0 disables). Not retried when it fires. */
  firstByteTimeoutMs?: number;
  /** Longest silence between body chunks once headers arrived (default 30 s; 0 disables). */
  idleTimeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
}
