import type { Clock } from '../core/deps.js';
import { SpineError } from '../core/spine-error.js';
import type { ModelRequest, ModelResponse, StreamEvent } from '../core/types.js';
import { describeTextBody } from './errors/classify-error-body.js';
import { describeUrl } from './errors/describe-url.js';
import { explainHttpFailure } from './errors/explain-failure.js';
import { withEndpointQuery } from './http/endpoint-url.js';
import type { HttpResponse, HttpTransport } from './http/http-transport.js';
import { normalizeModelResponse } from './normalize/normalize-model-response.js';
import { ResponseStreamNormalizer } from './normalize/response-stream-normalizer.js';
import type {
  DecoderContext,
  EndpointSettings,
  ProviderAdapter,
  StreamDecoder,
} from './providers/provider-adapter.js';
import { attachRetryHints } from './resilience/attach-retry-hints.js';
import { AttemptDeadline, type CallDeadline } from './resilience/attempt-deadline.js';
import type { ToolCallFormat } from './tool-calls/text-tool-calls/tool-call-formats.js';

export interface AttemptContext {
  adapter: ProviderAdapter;
  endpoint: EndpointSettings;
  transport: HttpTransport;
  clock: Clock;
  /** The whole call, retries included; 0 disables. */
  timeoutMs: number;
  /** Each attempt's wait for response headers; 0 disables. */
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  /** Size limits of one response; absent fields take `defaultResponseLimits`. */
  responseLimits?: Partial<ResponseLimits>;
  /**
   * Optional body fields this endpoint refused by name, shared by the client's calls: each is sent until the
   * runner refuses it once, then left out (RUNNER-QUIRKS §44).
   */
  refusedFields?: Set<string>;
}

/** How much of a response Spine reads before it gives up with LLM_RESPONSE_TOO_LARGE. */
export interface ResponseLimits {
  /** The whole body, streamed or not (bytes). */
  responseBytes: number;
  /** The longest stretch of a stream without one complete event or line (bytes). */
  eventBytes: number;
}

// A chat answer of 64 MiB is already far past any model's output; an event of 16 MiB leaves room for a tool
// call whose arguments carry a whole file. Both are far below what would exhaust a machine's memory.
export const defaultResponseLimits: Readonly<ResponseLimits> = Object.freeze({
  responseBytes: 64 * 1024 * 1024,
  eventBytes: 16 * 1024 * 1024,
});

/** Error bodies are read for their message only; a runaway one is cut here. */
const maxErrorBodyBytes = 1 << 20;

/**
 * One HTTP attempt of a model call: send, check the status, then turn body chunks into events. A streamed
 * call decodes SSE as it arrives; a non-streamed one (or a runner that answered a stream request with plain
 * JSON) reads the whole body and yields the same events at once. Either way the decoded response goes
 * through the provider-independent normalization (tool-call repair and extraction) before it is yielded.
 * `close()` releases everything.
 */
export class ModelCallAttempt {
  private readonly deadline: AttemptDeadline;
  private response: HttpResponse | undefined;
  private chunks: AsyncIterator<Uint8Array> | undefined;
  private decoder: StreamDecoder | undefined;
  private decoderContext: DecoderContext | undefined;
  private normalizer: ResponseStreamNormalizer | undefined;
  private ended = false;
  private bytesRead = 0;
  private bytesSinceEvent = 0;
  private readonly limits: ResponseLimits;

  constructor(
    private readonly context: AttemptContext,
    private readonly request: ModelRequest,
    private readonly streamed: boolean,
    callDeadline: CallDeadline | undefined,
  ) {
    this.limits = { ...defaultResponseLimits, ...context.responseLimits };
    this.deadline = new AttemptDeadline({
      clock: context.clock,
      ...(callDeadline !== undefined ? { callDeadline } : {}),
      firstByteTimeoutMs: request.firstByteTimeoutMs ?? context.firstByteTimeoutMs,
      idleTimeoutMs: request.idleTimeoutMs ?? context.idleTimeoutMs,
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
    });
  }

  /** Sends the request and waits for a successful status; throws the classified error otherwise. */
  async open(): Promise<void> {
    for (;;) {
      const refused = await this.send();
      if (refused === undefined) return;
      // The runner named a field Spine added on its own: the same request again without it, this attempt still.
      this.context.refusedFields?.add(refused);
    }
  }

  /** One request; the name of an optional field the runner refused (the request is then over), else undefined. */
  private async send(): Promise<string | undefined> {
    const { adapter, endpoint, clock, refusedFields } = this.context;
    const built = adapter.buildRequest(this.request, {
      stream: this.streamed,
      endpoint,
      ...(refusedFields !== undefined ? { leaveOut: refusedFields } : {}),
    });
    const spec = { ...built, url: withEndpointQuery(built.url, endpoint.query ?? '') };
    const startedAt = clock.now();
    if (this.deadline.failure) throw this.deadline.failure;
    const response = await this.context.transport.send({
      ...spec,
      method: 'POST',
      signal: this.deadline.signal,
    });
    this.response = response;
    this.deadline.markHeadersReceived();
    this.chunks = response.body[Symbol.asyncIterator]();
    this.decoderContext = { startedAt, now: () => clock.now(), request: this.request };
    if (response.status >= 300 && response.status < 400) {
      response.cancel();
      throw redirectRefused(response.status, response.headers.location, spec.url);
    }
    if (response.status < 200 || response.status > 299) {
      const bodyText = await this.readText(maxErrorBodyBytes);
      const refused = refusedField(response.status, bodyText, built.optionalFields, refusedFields);
      if (refused !== undefined) {
        // Reading the error body ended this response; the next one starts fresh.
        this.ended = false;
        this.bytesRead = 0;
        return refused;
      }
      const failure = explainHttpFailure(adapter.classifyHttpError(response.status, bodyText), spec.url);
      throw attachRetryHints(failure, response, clock.now());
    }
    if (isHtml(response.headers['content-type'])) {
      // A web page where the API should be (a proxy's login page, a web UI at the root): say so, with its title.
      const page = describeTextBody(await this.readText(maxErrorBodyBytes));
      throw new SpineError({
        code: 'LLM_BAD_RESPONSE',
        message: `HTTP ${response.status} from POST ${describeUrl(spec.url)}: the server answered with ${page.startsWith('an HTML page') ? page : 'an HTML page instead of an API answer'} (check --base-url: it should be the API root, such as http://127.0.0.1:8080/v1)`,
        details: {
          status: response.status,
          url: describeUrl(spec.url),
          contentType: response.headers['content-type'],
        },
      });
    }
    if (this.streamed && !isJson(response.headers['content-type'])) {
      this.decoder = adapter.createStreamDecoder(this.decoderContext);
      this.normalizer = new ResponseStreamNormalizer(this.request, this.normalizeOptions());
    }
    return undefined;
  }

  /** The next events; undefined once the body is done. */
  async next(): Promise<StreamEvent[] | undefined> {
    if (this.ended) return undefined;
    const decoder = this.decoder;
    if (!decoder) {
      this.ended = true;
      const bodyText = await this.readText(this.limits.responseBytes + 1);
      this.checkSize(0);
      const decoded = this.context.adapter.decodeResponse(bodyText, this.decoderContext as DecoderContext);
      return eventsOf(normalizeModelResponse(decoded, this.request, this.normalizeOptions()));
    }
    const normalizer = this.normalizer as ResponseStreamNormalizer;
    while (true) {
      const chunk = await (this.chunks as AsyncIterator<Uint8Array>).next();
      if (chunk.done) {
        this.ended = true;
        return normalizer.push(decoder.end());
      }
      this.deadline.touch();
      this.bytesRead += chunk.value.length;
      const decoded = decoder.push(chunk.value);
      this.checkSize(decoded.length > 0 ? 0 : chunk.value.length);
      const events = normalizer.push(decoded);
      if (decoder.finished) {
        // [DONE] seen: some proxies keep the socket open after it (RUNNER-QUIRKS §19), so stop reading here.
        this.ended = true;
        this.response?.cancel();
        return [...events, ...normalizer.push(decoder.end())];
      }
      if (events.length > 0) return events;
    }
  }

  /** Maps whatever an attempt threw to the error to report: an abort or timeout wins over its side effects. */
  toFailure(error: unknown): SpineError {
    const failure = this.deadline.failure;
    if (failure) return failure;
    if (SpineError.is(error)) return error;
    return new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `could not read the response: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }

  close(): void {
    this.deadline.dispose();
    this.response?.cancel();
  }

  /** A pinned tool-call family, from the preset or a model's `quirks:`. */
  private normalizeOptions(): { toolCallFormat?: ToolCallFormat } {
    const { endpoint } = this.context;
    const format = endpoint.preset?.toolCallFormat ?? endpoint.quirks?.toolCallFormat;
    return format === undefined || format === 'auto' ? {} : { toolCallFormat: format };
  }

  /** Counts what was read; `withoutEvent` is 0 when the chunk completed an event, else its size. */
  private checkSize(withoutEvent: number): void {
    this.bytesSinceEvent = withoutEvent === 0 ? 0 : this.bytesSinceEvent + withoutEvent;
    const overBody = this.bytesRead > this.limits.responseBytes;
    if (!overBody && this.bytesSinceEvent <= this.limits.eventBytes) return;
    this.response?.cancel();
    const [what, limit] = overBody
      ? ['the response body', this.limits.responseBytes]
      : ['one event of the stream', this.limits.eventBytes];
    throw new SpineError({
      code: 'LLM_RESPONSE_TOO_LARGE',
      message: `${what} is larger than the limit of ${limit} bytes; reading stopped (raise responseLimits if this runner really sends that much)`,
      details: { limitBytes: limit, readBytes: this.bytesRead },
    });
  }

  private async readText(limit: number): Promise<string> {
    const parts: Uint8Array[] = [];
    let size = 0;
    const chunks = this.chunks as AsyncIterator<Uint8Array>;
    while (size < limit) {
      const chunk = await chunks.next();
      if (chunk.done) break;
      this.deadline.touch();
      parts.push(chunk.value);
      size += chunk.value.length;
      this.bytesRead += chunk.value.length;
    }
    this.ended = true;
    return Buffer.concat(parts, Math.min(size, limit)).toString('utf8');
  }
}

function isHtml(contentType: string | undefined): boolean {
  return contentType?.toLowerCase().includes('text/html') === true;
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.includes('application/json') === true;
}

/** A whole response as the same events a stream ends with. */
function eventsOf(response: ModelResponse): StreamEvent[] {
  const events: StreamEvent[] = [];
  if (response.reasoning) events.push({ type: 'reasoning-delta', text: response.reasoning });
  if (response.content) events.push({ type: 'text-delta', text: response.content });
  for (const call of response.toolCalls) events.push({ type: 'tool-call', call });
  events.push({ type: 'usage', usage: response.usage }, { type: 'done', response });
  return events;
}

/** Redirects are never followed (a key would travel to wherever they point); the error says where to go. */
function redirectRefused(status: number, location: string | undefined, url: string): SpineError {
  let target = '(no Location header)';
  try {
    if (location !== undefined) target = describeUrl(new URL(location, url).toString());
  } catch {
    target = '(an unreadable Location header)';
  }
  return new SpineError({
    code: 'LLM_HTTP_ERROR',
    message: `HTTP ${status} from POST ${describeUrl(url)}: the server redirects to ${target}; Spine does not follow redirects, so credentials never leave the configured origin: set the base URL to where it points`,
    details: { status, url: describeUrl(url), location: target },
  });
}

/**
 * The optional field a client error names (`Unrecognized request argument supplied: stream_options`, `property
 * 'stream_options' is unsupported`, a validation error located at `body.stream_options`); undefined when it names
 * none, or only ones already left out. Only a 400 or 422: anything else is not about the request's fields.
 */
function refusedField(
  status: number,
  bodyText: string,
  optionalFields: readonly string[] | undefined,
  alreadyRefused: ReadonlySet<string> | undefined,
): string | undefined {
  if ((status !== 400 && status !== 422) || optionalFields === undefined || alreadyRefused === undefined)
    return undefined;
  return optionalFields.find(
    (field) => !alreadyRefused.has(field) && new RegExp(`\\b${field}\\b`).test(bodyText),
  );
}
