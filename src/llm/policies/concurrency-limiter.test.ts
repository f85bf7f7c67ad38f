import { describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import { createConcurrencyLimiter, type ReleaseSlot } from './concurrency-limiter.js';

async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

describe('createConcurrencyLimiter', () => {
  it('never lets more than N hold a slot, and serves waiters first come first served', async () => {
    const limiter = createConcurrencyLimiter(2);
    const order: number[] = [];
    const releases: ReleaseSlot[] = [];
    let holding = 0;
    let mostHolding = 0;
    const tasks = Array.from({ length: 6 }, (_, index) =>
      limiter.acquire().then((release) => {
        order.push(index);
        holding += 1;
        mostHolding = Math.max(mostHolding, holding);
        releases.push(() => {
          holding -= 1;
          release();
        });
      }),
    );
    await settle();
    expect(order).toEqual([0, 1]);
    expect(limiter.queued).toBe(4);
    while (order.length < 6) {
      releases.shift()?.();
      await settle();
    }
    await Promise.all(tasks);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostHolding).toBe(2);
    for (const release of releases) release();
    expect(limiter.inFlight).toBe(0);
  });

  it('removes a waiter whose signal aborts, and gives its turn to the next one', async () => {
    const limiter = createConcurrencyLimiter(1);
    const first = await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    expect(limiter.queued).toBe(2);
    controller.abort(new Error('user'));
    const error = await aborted.catch((caught: unknown) => caught);
    expect(SpineError.is(error) && error.code).toBe('LLM_ABORTED');
    expect(limiter.queued).toBe(1);
    first();
    const second = await next;
    expect(limiter.inFlight).toBe(1);
    second();
    expect(limiter.inFlight).toBe(0);
  });

  it('rejects at once when the signal is already aborted, and ignores a second release', async () => {
    const limiter = createConcurrencyLimiter(1);
    const error = await limiter.acquire(AbortSignal.abort()).catch((caught: unknown) => caught);
    expect(SpineError.is(error) && error.code).toBe('LLM_ABORTED');
    const release = await limiter.acquire();
    const waiting = limiter.acquire();
    release();
    release();
    const second = await waiting;
    expect(limiter.inFlight).toBe(1);
    const third = limiter.acquire();
    expect(limiter.queued).toBe(1);
    second();
    (await third)();
    expect(limiter.inFlight).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => createConcurrencyLimiter(0)).toThrow(RangeError);
  });
});
