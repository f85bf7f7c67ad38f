import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/deps.js';
import type { RetryInfo } from '../../src/core/types.js';
import { completion, textChunk, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { catchSpineError, createTestClient, drainStream, hello, textOf, typesOf } from './client-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

/** Records each backoff and returns at once. Only for clients whose timeouts are off (they share the clock). */
function createInstantClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
}

const overloaded = { status: 503, body: { error: { message: 'Loading model', type: 'unavailable_error' } } };

describe('retries', () => {
  it('retries a 503, visibly: a retry event and both onRetry callbacks', async () => {
    runner.enqueue(overloaded, { sse: textStream(['ok']) });
    const fromOptions: RetryInfo[] = [];
    const fromRequest: RetryInfo[] = [];
    const client = createTestClient(runner, { onRetry: (info) => fromOptions.push(info) });
    const { events, error } = await drainStream(
      client.stream({ ...hello, onRetry: (info) => fromRequest.push(info) }),
    );
    expect(error).toBeUndefined();
    expect(typesOf(events).filter((type) => type !== 'usage')).toEqual(['retry', 'text-delta', 'done']);
    const retry = events[0]?.type === 'retry' ? events[0].retry : undefined;
    expect(retry).toMatchObject({ attempt: 1, code: 'LLM_SERVER_ERROR' });
    expect(retry?.reason).toContain('HTTP 503');
    expect(retry?.reason).toContain('Loading model');
    expect(fromOptions).toEqual([retry]);
    expect(fromRequest).toEqual([retry]);
    expect(runner.requests).toHaveLength(2);
  });

  it.each([408, 409, 429, 500, 502])('retries status %i', async (status) => {
    runner.enqueue({ status, body: { error: { message: 'try later' } } }, { body: completion('fine') });
    expect((await createTestClient(runner).respond(hello)).content).toBe('fine');
    expect(runner.requests).toHaveLength(2);
  });

  it('honours retry-after-ms over retry-after', async () => {
    runner.enqueue(
      { ...overloaded, status: 429, headers: { 'retry-after-ms': '30', 'retry-after': '5' } },
      { body: completion('ok') },
    );
    const retries: RetryInfo[] = [];
    await createTestClient(runner, { onRetry: (info) => retries.push(info) }).respond(hello);
    expect(retries.map((info) => [info.delayMs, info.code])).toEqual([[30, 'LLM_RATE_LIMITED']]);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    runner.enqueue(
      { ...overloaded, status: 429, headers: { 'retry-after': '2' } },
      { ...overloaded, headers: { 'retry-after': past } },
      { body: completion('ok') },
    );
    const clock = createInstantClock();
    const client = createTestClient(
      runner,
      { timeoutMs: 0, firstByteTimeoutMs: 0, idleTimeoutMs: 0 },
      { clock },
    );
    expect((await client.respond(hello)).content).toBe('ok');
    expect(clock.sleeps).toEqual([2000, 0]);
  });

  it('falls back to capped backoff when Retry-After asks for more than 60 s', async () => {
    runner.enqueue({ ...overloaded, headers: { 'retry-after': '3600' } }, { body: completion('ok') });
    const clock = createInstantClock();
    const client = createTestClient(
      runner,
      { timeoutMs: 0, firstByteTimeoutMs: 0, idleTimeoutMs: 0, retry: { baseDelayMs: 500 } },
      { clock, random: () => 0.5 },
    );
    await client.respond(hello);
    expect(clock.sleeps).toEqual([250]);
  });

  it('uses exponential backoff with full jitter (base 500 ms, cap 8 s as by default)', async () => {
    runner.enqueue(overloaded, overloaded, overloaded, overloaded, { body: completion('ok') });
    const clock = createInstantClock();
    const client = createTestClient(
      runner,
      {
        timeoutMs: 0,
        firstByteTimeoutMs: 0,
        idleTimeoutMs: 0,
        maxRetries: 4,
        retry: { baseDelayMs: 500, maxDelayMs: 8000 },
      },
      { clock, random: () => 0.9999 },
    );
    expect((await client.respond(hello)).content).toBe('ok');
    expect(clock.sleeps).toEqual([499, 999, 1999, 3999]);
  });

  it('follows x-should-retry: false on a 503 and true on a 400', async () => {
    runner.enqueue({ ...overloaded, headers: { 'x-should-retry': 'false' } });
    expect((await catchSpineError(createTestClient(runner).respond(hello))).code).toBe('LLM_SERVER_ERROR');
    expect(runner.requests).toHaveLength(1);
    runner.enqueue(
      { status: 400, body: { error: { message: 'odd' } }, headers: { 'x-should-retry': 'true' } },
      { body: completion('ok') },
    );
    expect((await createTestClient(runner).respond(hello)).content).toBe('ok');
  });

  it('gives up after maxRetries with the last error', async () => {
    runner.enqueue(overloaded, overloaded, overloaded);
    const error = await catchSpineError(createTestClient(runner, { maxRetries: 2 }).respond(hello));
    expect(error.code).toBe('LLM_SERVER_ERROR');
    expect(runner.requests).toHaveLength(3);
  });

  it.each([
    ['401', { status: 401, body: { error: { message: 'bad key' } } }, 'LLM_AUTH_FAILED'],
    ['400', { status: 400, body: { error: { message: 'bad request' } } }, 'LLM_HTTP_ERROR'],
    [
      'context overflow',
      {
        status: 400,
        body: {
          error: {
            message:
              "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.",
            code: 'context_length_exceeded',
          },
        },
      },
      'LLM_CONTEXT_OVERFLOW',
    ],
  ])('never retries %s', async (_name, response, code) => {
    runner.enqueue(response, { body: completion('should not be reached') });
    expect((await catchSpineError(createTestClient(runner).respond(hello))).code).toBe(code);
    expect(runner.requests).toHaveLength(1);
  });

  it('retries a connection dropped before any content', async () => {
    runner.enqueue({ sse: textStream(['x']), dropAfterBytes: 0 }, { sse: textStream(['second try']) });
    const { events, error } = await drainStream(createTestClient(runner).stream(hello));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('second try');
    expect(events[0]).toMatchObject({ type: 'retry', retry: { code: 'LLM_CONNECTION' } });
  });

  it('never retries once stream content reached the caller', async () => {
    const first = `data: ${JSON.stringify(textChunk('shown'))}\n\n`;
    runner.enqueue(
      { sse: textStream(['shown', 'lost']), dropAfterBytes: Buffer.byteLength(first) + 3 },
      { sse: textStream(['again']) },
    );
    const { events, error } = await drainStream(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe('shown');
    expect(error?.code).toBe('LLM_CONNECTION');
    expect(typesOf(events)).not.toContain('retry');
    expect(runner.requests).toHaveLength(1);
  });

  it('retries an unparseable non-streamed body with linear backoff (1 s, 2 s, …)', async () => {
    runner.enqueue({ body: 'not json' }, { body: '{"choices": [' }, { body: completion('parsed') });
    const clock = createInstantClock();
    const client = createTestClient(
      runner,
      { timeoutMs: 0, firstByteTimeoutMs: 0, idleTimeoutMs: 0, retry: { badResponseDelayMs: 1000 } },
      { clock },
    );
    expect((await client.respond(hello)).content).toBe('parsed');
    expect(clock.sleeps).toEqual([1000, 2000]);
  });
});
