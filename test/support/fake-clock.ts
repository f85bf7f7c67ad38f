import type { Clock } from '../../src/core/deps.js';

/** A clock that only moves when told: `advance(ms)` runs the sleeps that fall due, in order. */
export interface FakeClock extends Clock {
  advance(ms: number): Promise<void>;
  /** Sleeps started and not yet resolved or aborted. */
  readonly pendingSleeps: number;
  /** Every `sleep` duration asked for, in order. */
  readonly sleeps: number[];
}

export function createFakeClock(start = 1_000_000): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  const pending = new Set<{ at: number; resolve: () => void }>();
  return {
    now: () => now,
    sleeps,
    get pendingSleeps() {
      return pending.size;
    },
    sleep(ms, signal) {
      sleeps.push(ms);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const entry = {
          at: now + ms,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          pending.delete(entry);
          reject(signal?.reason);
        };
        pending.add(entry);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    async advance(ms) {
      const target = now + ms;
      while (true) {
        const due = [...pending].filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = due.at;
        pending.delete(due);
        due.resolve();
        // Let the woken code run (and maybe sleep again) before the next one falls due.
        for (let turn = 0; turn < 5; turn++) await Promise.resolve();
      }
      now = target;
    },
  };
}
