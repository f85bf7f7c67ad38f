import { SpineError } from '../core/spine-error.js';
import type { ModelClient, ModelRequest, ModelResponse, StreamEvent } from '../core/types.js';

/**
 * One model call through `stream()`: every event before `done` goes to `onEvent`, the response is
 * returned. An abort ends the call at once with `ENGINE_ABORTED`, even when the client is slow to notice
 * the signal: the pending read is abandoned (its late failure swallowed) and the stream closed.
 */
export async function streamModelResponse(
  llm: ModelClient,
  request: ModelRequest,
  onEvent: (event: StreamEvent) => void,
): Promise<ModelResponse> {
  const signal = request.signal;
  if (signal?.aborted) throw abortedError(signal.reason);
  const iterator = llm.stream(request)[Symbol.asyncIterator]();
  const abort = watchAbort(signal);
  try {
    for (;;) {
      const pending = iterator.next();
      pending.catch(() => undefined);
      const next = await (abort ? Promise.race([pending, abort.promise]) : pending);
      if (next.done) {
        throw new SpineError({
          code: 'LLM_BAD_RESPONSE',
          message: 'the model stream ended without a response',
        });
      }
      if (next.value.type === 'done') {
        // Nothing follows `done`; one more read lets the client's generator finish on its own path (its
        // cleanup after the last yield runs) instead of being closed from outside.
        const end = iterator.next();
        end.catch(() => undefined);
        await (abort ? Promise.race([end, abort.promise]) : end).catch(() => undefined);
        return next.value.response;
      }
      onEvent(next.value);
    }
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    throw error;
  } finally {
    abort?.dispose();
    // Closing an abandoned stream lets the client release its connection; its own outcome is irrelevant.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  }
}

/** The error an abort ends a model call with. */
export function abortedError(reason?: unknown): SpineError {
  return new SpineError({ code: 'ENGINE_ABORTED', message: 'the run was cancelled', cause: reason });
}

function watchAbort(
  signal: AbortSignal | undefined,
): { promise: Promise<never>; dispose(): void } | undefined {
  if (signal === undefined) return undefined;
  let onAbort: () => void = () => undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
