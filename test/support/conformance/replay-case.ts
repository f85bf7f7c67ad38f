import { SpineError } from '../../../src/core/spine-error.js';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../../src/core/types.js';
import { createModelClient } from '../../../src/llm/model-client.js';
import type { FakeRunner, RecordedRequest } from '../fake-runner.js';
import { type ConformanceCase, resolveTools } from './conformance-case.js';
import { renderWire } from './render-wire.js';

/** What one replay of a case produced. */
export interface CaseOutcome {
  response?: ModelResponse;
  /** The failure, as code and message; a non-SpineError escaping the client has code `NOT_A_SPINE_ERROR`. */
  error?: { code: string; message: string; retryable: boolean };
  /** Streamed cases: every event seen, up to the end or the failure. */
  events?: StreamEvent[];
  /** The request the client sent (the fake runner answers the first one with the case's wire). */
  request: RecordedRequest | undefined;
  /** More than one request means the client asked again (a re-ask); the corpus scripts only one answer. */
  requestCount: number;
}

/**
 * Plays the case's wire answer from the fake runner and calls the real client on it: `stream()` for streamed
 * cases, `respond()` otherwise. No retries, so each case is exactly one exchange.
 */
export async function replayCase(
  kase: ConformanceCase,
  runner: FakeRunner,
  bytewise: boolean,
): Promise<CaseOutcome> {
  const before = runner.requests.length;
  runner.enqueue(renderWire(kase.wire, bytewise));
  const client = createModelClient({
    baseUrl: baseUrlFor(kase, runner),
    model: kase.client.model ?? 'conformance-model',
    provider: kase.client.provider,
    apiType: kase.client.apiType,
    apiKey: 'conformance-key',
    maxRetries: 0,
  });
  const request: ModelRequest = {
    messages: kase.request.messages,
    ...(kase.request.tools ? { tools: resolveTools(kase.request.tools) } : {}),
    ...(kase.request.maxTokens === undefined ? {} : { maxTokens: kase.request.maxTokens }),
  };
  const outcome = kase.request.stream
    ? await runStreamed(client.stream(request))
    : await runCollected(client.respond(request));
  const sent = runner.requests.slice(before);
  return { ...outcome, request: sent[0], requestCount: sent.length };
}

/** Ollama's base URL is the server root (DECISIONS §1), Azure's the resource; the others end in `/v1`. */
function baseUrlFor(kase: ConformanceCase, runner: FakeRunner): string {
  if (kase.client.apiType === 'ollama' || kase.client.provider === 'azure') return runner.origin;
  return runner.baseUrl;
}

async function runStreamed(
  stream: AsyncIterable<StreamEvent>,
): Promise<Omit<CaseOutcome, 'request' | 'requestCount'>> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { error: describeError(error), events };
  }
  const last = events.at(-1);
  return { events, ...(last?.type === 'done' ? { response: last.response } : {}) };
}

async function runCollected(
  promise: Promise<ModelResponse>,
): Promise<Omit<CaseOutcome, 'request' | 'requestCount'>> {
  try {
    return { response: await promise };
  } catch (error) {
    return { error: describeError(error) };
  }
}

function describeError(error: unknown): { code: string; message: string; retryable: boolean } {
  if (SpineError.is(error)) return { code: error.code, message: error.message, retryable: error.retryable };
  // A non-Spine error escaping the client is itself a conformance failure; keep it visible in the diff.
  return {
    code: 'NOT_A_SPINE_ERROR',
    message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    retryable: false,
  };
}
