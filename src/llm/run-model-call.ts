import type { Clock } from '../core/deps.js';
import { SpineError } from '../core/spine-error.js';
import type { ModelRequest, ModelResponse, RetryInfo, StreamEvent } from '../core/types.js';
import { type AttemptContext, ModelCallAttempt } from './model-call-attempt.js';
import { type CallDeadline, createAbortedError } from './resilience/attempt-deadline.js';
import { decideRetry, type RetryDecision, type RetryOptions } from './resilience/retry-policy.js';

export interface ModelCallContext extends AttemptContext {
  clock: Clock;
  random: () => number;
  retry: RetryOptions;
  onRetry?: (info: RetryInfo) => void;
}

/** Events that put model output in front of the caller; after one, the call is never retried. */
const contentEvents = new Set<StreamEvent['type']>([
  'text-delta',
  'reasoning-delta',
  'tool-call-delta',
  'tool-call',
]);

/**
 * The one loop behind `stream()` and `respond()`: attempts, with retries in between, as one event stream.
 * A retry shows as a `retry` event and an `onRetry` call. Breaking out of the iteration aborts the request.
 */
export async function* runModelCall(
  context: ModelCallContext,
  request: ModelRequest,
  streamed: boolean,
): AsyncGenerator<StreamEvent> {
  const callDeadline = startCallDeadline(context, request);
  for (let retriesDone = 0; ; retriesDone++) {
    const attempt = new ModelCallAttempt(context, request, streamed, callDeadline);
    let contentEmitted = false;
    try {
      await attempt.open();
      for (let events = await attempt.next(); events; events = await attempt.next()) {
        for (const event of events) {
          if (contentEvents.has(event.type)) contentEmitted = true;
          yield event;
        }
      }
      return;
    } catch (error) {
      const failure = attempt.toFailure(error);
      const decision = decideRetry(failure, {
        retriesDone,
        contentEmitted,
        options: context.retry,
        random: context.random,
      });
      // A retry that could not even start before the call's end is not made: the failure as it is says more.
      if (!decision || !hasTimeFor(context.clock, callDeadline, decision.delayMs)) throw failure;
      attempt.close();
      yield* announceRetry(context, request, toRetryInfo(retriesDone, decision, failure));
      await sleepBeforeRetry(context.clock, decision.delayMs, request.signal);
    } finally {
      attempt.close();
    }
  }
}

/** `timeoutMs` bounds the whole call, every attempt and every wait between them (0: no limit). */
function startCallDeadline(context: ModelCallContext, request: ModelRequest): CallDeadline | undefined {
  const timeoutMs = request.timeoutMs ?? context.timeoutMs;
  return timeoutMs > 0 ? { at: context.clock.now() + timeoutMs, timeoutMs } : undefined;
}

function hasTimeFor(clock: Clock, deadline: CallDeadline | undefined, delayMs: number): boolean {
  return deadline === undefined || clock.now() + delayMs < deadline.at;
}

function toRetryInfo(retriesDone: number, decision: RetryDecision, failure: SpineError): RetryInfo {
  return { attempt: retriesDone + 1, delayMs: decision.delayMs, code: failure.code, reason: decision.reason };
}

function* announceRetry(
  context: ModelCallContext,
  request: ModelRequest,
  info: RetryInfo,
): Generator<StreamEvent> {
  context.onRetry?.(info);
  request.onRetry?.(info);
  yield { type: 'retry', retry: info };
}

async function sleepBeforeRetry(
  clock: Clock,
  delayMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await clock.sleep(delayMs, signal);
  } catch (error) {
    throw signal?.aborted ? createAbortedError(signal.reason) : error;
  }
}

/** `respond()`: the same loop, collected to its `done` response. */
export async function collectResponse(events: AsyncIterable<StreamEvent>): Promise<ModelResponse> {
  for await (const event of events) {
    if (event.type === 'done') return event.response;
  }
  throw new SpineError({ code: 'LLM_BAD_RESPONSE', message: 'the model call ended without a response' });
}
