import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completion, textChunk, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { catchSpineError, createTestClient, drainStream, hello, textOf } from './client-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

describe('timeouts', () => {
  it('first-byte: no headers within firstByteTimeoutMs', async () => {
    runner.enqueue({ headersDelayMs: 5_000, body: completion('late') });
    const error = await catchSpineError(
      createTestClient(runner, { firstByteTimeoutMs: 60, maxRetries: 0 }).respond(hello),
    );
    expect(error.code).toBe('LLM_TIMEOUT');
    expect(error.details).toMatchObject({ phase: 'first-byte', timeoutMs: 60 });
    expect(error.message).toContain('first-byte timeout');
    await runner.waitForConnectionsClosed();
  });

  it('a first-byte timeout is not retried: the runner still holds the first request', async () => {
    runner.enqueue({ headersDelayMs: 5_000, body: completion('late') }, { body: completion('on time') });
    const client = createTestClient(runner, { firstByteTimeoutMs: 60, maxRetries: 2 });
    const error = await catchSpineError(client.respond(hello));
    expect(error.details.phase).toBe('first-byte');
    expect(runner.requests).toHaveLength(1);
  });

  it('timeoutMs bounds the whole call: a silent server fails once, at the total, without retries', async () => {
    runner.enqueue({ headersDelayMs: 10_000, body: completion('late') });
    const client = createTestClient(runner, { timeoutMs: 300, maxRetries: 3 });
    const error = await catchSpineError(client.respond(hello));
    expect(error.code).toBe('LLM_TIMEOUT');
    expect(error.details).toMatchObject({ phase: 'total', timeoutMs: 300, headersReceived: false });
    expect(error.message).toContain('retries included');
    expect(runner.requests).toHaveLength(1);
  });

  it('timeoutMs counts retries and their waits: no retry starts that could not finish in time', async () => {
    const busy = {
      status: 503,
      headers: { 'retry-after-ms': '2000' },
      body: { error: { message: 'busy', type: 'unavailable_error' } },
    };
    runner.enqueue(busy, busy, busy, busy);
    const client = createTestClient(runner, { timeoutMs: 3_000, maxRetries: 3 });
    const error = await catchSpineError(client.respond(hello));
    // The second attempt starts about 2 s in; a third would start about 4 s in, after the 3 s total.
    expect(error.code).toBe('LLM_SERVER_ERROR');
    expect(runner.requests).toHaveLength(2);
  });

  it('a retry whose wait alone is longer than the time left is not made: the real failure is reported', async () => {
    runner.enqueue({
      status: 429,
      headers: { 'retry-after-ms': '5000' },
      body: { error: { message: 'slow down' } },
    });
    const client = createTestClient(runner, { timeoutMs: 1_000, maxRetries: 3 });
    const error = await catchSpineError(client.respond(hello));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(runner.requests).toHaveLength(1);
  });

  it('idle: the stream goes silent after content; not retried', async () => {
    runner.enqueue({
      sse: [textChunk('started'), textChunk('never')],
      stallAfterBytes: Buffer.byteLength(`data: ${JSON.stringify(textChunk('started'))}\n\n`),
    });
    runner.enqueue({ sse: textStream(['retry must not happen']) });
    const { events, error } = await drainStream(
      createTestClient(runner, { idleTimeoutMs: 60 }).stream(hello),
    );
    expect(textOf(events)).toBe('started');
    expect(error?.code).toBe('LLM_TIMEOUT');
    expect(error?.details.phase).toBe('idle');
    expect(error?.message).toContain('idle timeout');
    expect(runner.requests).toHaveLength(1);
  });

  it('idle: comments and keep-alives count as liveness', async () => {
    // The stream lasts longer than the idle timeout, but no gap comes near it: generous margins, so a loaded
    // machine that delays a chunk by hundreds of milliseconds still passes.
    const keepAlives = Array.from({ length: 6 }, () => ': keep-alive\n\n');
    runner.enqueue({
      sse: [...keepAlives, ...textStream(['alive'])],
      chunkSize: 'event',
      delayMsBetweenChunks: 150,
    });
    const { events, error } = await drainStream(
      createTestClient(runner, { idleTimeoutMs: 800 }).stream(hello),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('alive');
  });

  it('total: a stream still trickling when timeoutMs runs out', async () => {
    const pieces = Array.from({ length: 40 }, (_, index) => `${index} `);
    runner.enqueue({ sse: textStream(pieces), delayMsBetweenChunks: 20, chunkSize: 40 });
    const { events, error } = await drainStream(
      createTestClient(runner, { timeoutMs: 150, idleTimeoutMs: 1_000 }).stream(hello),
    );
    expect(error?.code).toBe('LLM_TIMEOUT');
    expect(error?.details.phase).toBe('total');
    expect(error?.message).toContain('total timeout');
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(runner.requests).toHaveLength(1);
  });

  it('per-request timeouts override the client defaults', async () => {
    runner.enqueue({ headersDelayMs: 5_000, body: completion('late') });
    const client = createTestClient(runner, { firstByteTimeoutMs: 60_000, maxRetries: 0 });
    const error = await catchSpineError(client.respond({ ...hello, firstByteTimeoutMs: 50 }));
    expect(error.details.phase).toBe('first-byte');
  });
});
