import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.js';
import { AttemptDeadline } from './attempt-deadline.js';

describe('AttemptDeadline', () => {
  it('reports a first-byte timeout before headers, not retryable, naming the flag to raise', async () => {
    const clock = createFakeClock();
    const deadline = new AttemptDeadline({ clock, firstByteTimeoutMs: 100, idleTimeoutMs: 50 });
    await clock.advance(100);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.failure?.code).toBe('LLM_TIMEOUT');
    expect(deadline.failure?.details.phase).toBe('first-byte');
    expect(deadline.failure?.retryable).toBe(false);
    expect(deadline.failure?.message).toContain('first-byte timeout');
    expect(deadline.failure?.message).toContain('--first-byte-timeout');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('stops the first-byte clock once headers arrive', async () => {
    const clock = createFakeClock();
    const deadline = new AttemptDeadline({ clock, firstByteTimeoutMs: 100, idleTimeoutMs: 0 });
    await clock.advance(60);
    deadline.markHeadersReceived();
    await clock.advance(500);
    expect(deadline.failure).toBeUndefined();
    expect(clock.pendingSleeps).toBe(0);
  });

  it('reports an idle timeout, reset by every touch', async () => {
    const clock = createFakeClock();
    const deadline = new AttemptDeadline({ clock, firstByteTimeoutMs: 1000, idleTimeoutMs: 50 });
    deadline.markHeadersReceived();
    for (let step = 0; step < 5; step++) {
      await clock.advance(40);
      deadline.touch();
    }
    expect(deadline.failure).toBeUndefined();
    await clock.advance(50);
    expect(deadline.failure?.details).toEqual({ phase: 'idle', timeoutMs: 50 });
    expect(deadline.failure?.retryable).toBe(false);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('reports the call deadline as a total timeout, before or after headers', async () => {
    const clock = createFakeClock();
    const callDeadline = { at: clock.now() + 100, timeoutMs: 100 };
    const streaming = new AttemptDeadline({ clock, callDeadline, firstByteTimeoutMs: 0, idleTimeoutMs: 0 });
    streaming.markHeadersReceived();
    const waiting = new AttemptDeadline({ clock, callDeadline, firstByteTimeoutMs: 0, idleTimeoutMs: 0 });
    await clock.advance(100);
    expect(streaming.failure?.details).toEqual({ phase: 'total', timeoutMs: 100, headersReceived: true });
    expect(waiting.failure?.details).toEqual({ phase: 'total', timeoutMs: 100, headersReceived: false });
    expect(streaming.failure?.message).toContain('total timeout');
  });

  it('a later attempt gets only what is left of the call', async () => {
    const clock = createFakeClock();
    const callDeadline = { at: clock.now() + 100, timeoutMs: 100 };
    await clock.advance(70);
    const late = new AttemptDeadline({ clock, callDeadline, firstByteTimeoutMs: 1000, idleTimeoutMs: 0 });
    await clock.advance(29);
    expect(late.failure).toBeUndefined();
    await clock.advance(1);
    expect(late.failure?.details.phase).toBe('total');
    const tooLate = new AttemptDeadline({ clock, callDeadline, firstByteTimeoutMs: 1000, idleTimeoutMs: 0 });
    expect(tooLate.failure?.details.phase).toBe('total');
  });

  it('turns the caller abort into LLM_ABORTED and leaves no listener or timer behind', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    const deadline = new AttemptDeadline({
      clock,
      firstByteTimeoutMs: 100,
      idleTimeoutMs: 50,
      signal: controller.signal,
    });
    deadline.markHeadersReceived();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(deadline.failure?.code).toBe('LLM_ABORTED');
    expect(deadline.signal.aborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await clock.advance(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('is aborted at once for an already aborted signal', () => {
    const clock = createFakeClock();
    const deadline = new AttemptDeadline({
      clock,
      firstByteTimeoutMs: 100,
      idleTimeoutMs: 50,
      signal: AbortSignal.abort(),
    });
    expect(deadline.failure?.code).toBe('LLM_ABORTED');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('dispose cancels timers and the listener', async () => {
    const clock = createFakeClock();
    const controller = new AbortController();
    const deadline = new AttemptDeadline({
      clock,
      callDeadline: { at: clock.now() + 100, timeoutMs: 100 },
      firstByteTimeoutMs: 100,
      idleTimeoutMs: 50,
      signal: controller.signal,
    });
    deadline.markHeadersReceived();
    deadline.dispose();
    await clock.advance(0);
    expect(clock.pendingSleeps).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await clock.advance(500);
    expect(deadline.failure).toBeUndefined();
  });
});
