import type { SpineError } from '../../core/spine-error.js';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../core/types.js';
import type { ProviderPreset, ProviderQuirks } from './presets.js';

/** Where and how to reach one model: what a provider adapter needs to build a request. */
export interface EndpointSettings {
  provider: string;
  /** Without query, fragment or credentials (see `parseEndpointUrl`). */
  baseUrl: string;
  /** The base URL's `?query`, added to every request URL. */
  query?: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  apiVersion?: string;
  /** What the runner accepts; when absent it is resolved per call from `provider`, the model and `quirks`. */
  preset?: ProviderPreset;
  /** Single preset entries overridden (a model's `quirks:` in the config). */
  quirks?: Partial<ProviderQuirks>;
  /** The model's context window: Ollama native sends it as `options.num_ctx` unless the call sets one. */
  contextLength?: number;
}

export interface HttpRequestSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  /**
   * Body fields Spine added on its own, which the call can do without (`stream_options`, a default
   * `parallel_tool_calls`): a runner that refuses one by name gets the request again without it (§44).
   */
  optionalFields?: readonly string[];
}

/** Bytes of a streamed body in, normalized events out. Pure and synchronous, so any split can be tested. */
export interface StreamDecoder {
  push(chunk: Uint8Array): StreamEvent[];
  /** The runner said it is done (e.g. `[DONE]`, `done:true`, `response.completed`): stop reading. */
  readonly finished: boolean;
  /** Content reached the caller: from here on the call must not be retried. */
  readonly hasEmittedContent: boolean;
  /** End of body: the final events, ending in exactly one `done`; throws a SpineError for a cut-off stream. */
  end(): StreamEvent[];
}

export interface DecoderContext {
  startedAt: number;
  now: () => number;
  request: ModelRequest;
}

/**
 * One runner dialect at the wire edge: Chat Completions, Ollama native, the Responses API. The client's
 * resilience, timeouts and cancellation are shared; only these four steps differ.
 */
export interface ProviderAdapter {
  buildRequest(
    request: ModelRequest,
    options: {
      stream: boolean;
      endpoint: EndpointSettings;
      /** Optional fields this endpoint refused before: left out. */
      leaveOut?: ReadonlySet<string>;
    },
  ): HttpRequestSpec;
  createStreamDecoder(context: DecoderContext): StreamDecoder;
  decodeResponse(bodyText: string, context: DecoderContext): ModelResponse;
  classifyHttpError(status: number, bodyText: string): SpineError;
}
