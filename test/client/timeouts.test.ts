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
  it('first-byte: no headers within timeoutMs', async () => {
    runner.enqueue({ headersDelayMs: 5_000, body: completion('late') });
    const error = await catchSpineError(
      createTestClient(runner, { timeoutMs: 60, maxRetries: 0 }).respond(hello),
    );
    expect(error.code).toBe('LLM_TIMEOUT');
    expect(error.details).toMatchObject({ phase: 'first-byte', timeoutMs: 60 });
    expect(error.message).toContain('first-byte timeout');
    expect(error.retryable).toBe(true);
    await runner.waitForConnectionsClosed();
  });

  it('first-byte timeouts are retried', async () => {
    runner.enqueue({ headersDelayMs: 5_000, body: completion('late') }, { body: completion('on time') });
    const client = createTestClient(runner, { timeoutMs: 60, maxRetries: 1 });
    expect((await client.respond(hello)).content).toBe('on time');
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
    const client = createTestClient(runner, { timeoutMs: 60_000, maxRetries: 0 });
    const error = await catchSpineError(client.respond({ ...hello, timeoutMs: 50 }));
    expect(error.details.phase).toBe('first-byte');
  });
});
