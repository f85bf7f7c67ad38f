import { SpineError } from '../../core/spine-error.js';

/** Gives back a slot; calling it twice is harmless. */
export type ReleaseSlot = () => void;

export interface ConcurrencyLimiter {
  /** Waits for a slot, first come first served. Aborting while queued leaves the queue (LLM_ABORTED). */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
  readonly inFlight: number;
  readonly queued: number;
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
}

/** At most `maxConcurrency` holders at once (Infinity: no limit); the rest wait in a FIFO queue. */
export function createConcurrencyLimiter(maxConcurrency: number): ConcurrencyLimiter {
  if (!(maxConcurrency >= 1)) throw new RangeError('maxConcurrency must be at least 1');
  let inFlight = 0;
  const queue: Waiter[] = [];

  const createRelease = (): ReleaseSlot => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      // The slot passes straight to the next waiter, so a late arrival can never jump the queue.
      if (next) next.grant(createRelease());
      else inFlight -= 1;
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return queue.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(createQueueAbortError(signal.reason));
      if (inFlight < maxConcurrency) {
        inFlight += 1;
        return Promise.resolve(createRelease());
      }
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(createQueueAbortError(signal?.reason));
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        queue.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

function createQueueAbortError(reason: unknown): SpineError {
  return new SpineError({
    code: 'LLM_ABORTED',
    message: 'the call was aborted while waiting for a free slot',
    cause: reason,
  });
}
