import { afterEach, describe, expect, it, vi } from 'vitest';
import { WaitIndicator } from './wait-indicator.js';

function recorder(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (chunk: string) => writes.push(chunk) } };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WaitIndicator', () => {
  it('spins on a terminal with the seconds waited, and erases its line when stopped', () => {
    vi.useFakeTimers();
    let now = 0;
    const { writes, stream } = recorder(true);
    const indicator = new WaitIndicator(stream, { intervalMs: 100, now: () => now });
    indicator.start('waiting for qwen3');
    now = 1_200;
    vi.advanceTimersByTime(300);
    expect(writes.length).toBe(4);
    expect(writes[0]).toBe('\r\u001b[K⠋ waiting for qwen3');
    expect(writes.at(-1)).toMatch(/^\r\u001b\[K. waiting for qwen3 1s$/);
    indicator.stop();
    expect(writes.at(-1)).toBe('\r\u001b[K');
    expect(indicator.active).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(writes.at(-1)).toBe('\r\u001b[K');
  });

  it('writes nothing when the stream is a pipe', () => {
    vi.useFakeTimers();
    const { writes, stream } = recorder(false);
    const indicator = new WaitIndicator(stream);
    indicator.start('waiting');
    vi.advanceTimersByTime(1_000);
    indicator.stop();
    expect(writes).toEqual([]);
  });
});
