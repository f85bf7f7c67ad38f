import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/core/types.js';
import { completion, textChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { catchSpineError, createTestClient, drainStream, hello, waitUntil } from './client-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

/** Timers and sockets this process holds, by kind. */
function countResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/**
 * After the abort, no socket, timer or listener of the call may remain. An aborted exchange closes its
 * connection; a connection whose response was read to the end may stay in the pool (idle and unref'd) until the
 * runner closes it.
 */
async function expectNothingLeft(
  signal: AbortSignal,
  before: Record<string, number>,
  connection: 'closed' | 'pooled' = 'closed',
): Promise<void> {
  expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  if (connection === 'closed') await runner.waitForConnectionsClosed();
  await runner.close();
  await waitUntil(() => {
    const after = countResources();
    return (
      (after.Timeout ?? 0) <= (before.Timeout ?? 0) &&
      (after.TCPSocketWrap ?? 0) <= (before.TCPSocketWrap ?? 0)
    );
  }, 'timers and sockets to be released');
}

describe('cancellation', () => {
  it('an already aborted signal fails at once without a request', async () => {
    const error = await catchSpineError(
      createTestClient(runner).respond({ ...hello, signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe('LLM_ABORTED');
    expect(runner.requests).toHaveLength(0);
  });

  it('while connecting', async () => {
    runner.enqueue({ body: completion('never') });
    const controller = new AbortController();
    const before = countResources();
    const pending = catchSpineError(
      createTestClient(runner).respond({ ...hello, signal: controller.signal }),
    );
    controller.abort();
    expect((await pending).code).toBe('LLM_ABORTED');
    await expectNothingLeft(controller.signal, before);
  });

  it('while waiting for headers', async () => {
    runner.enqueue({ headersDelayMs: 10_000, body: completion('never') });
    const controller = new AbortController();
    const before = countResources();
    const pending = catchSpineError(
      createTestClient(runner).respond({ ...hello, signal: controller.signal }),
    );
    await waitUntil(() => runner.requests.length === 1, 'the request to arrive');
    controller.abort();
    expect((await pending).code).toBe('LLM_ABORTED');
    await expectNothingLeft(controller.signal, before);
  });

  it('mid-stream, keeping what was already given', async () => {
    runner.enqueue({ sse: [textChunk('partial'), textChunk('more')], stallAfterBytes: 200, omitDone: true });
    const controller = new AbortController();
    const before = countResources();
    const seen: StreamEvent[] = [];
    const stream = createTestClient(runner).stream({ ...hello, signal: controller.signal });
    const pending = (async () => {
      try {
        for await (const event of stream) {
          seen.push(event);
          if (event.type === 'text-delta') controller.abort();
        }
      } catch (error) {
        return error;
      }
    })();
    expect(await pending).toMatchObject({ code: 'LLM_ABORTED' });
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial' }]);
    await expectNothingLeft(controller.signal, before);
  });

  it('during a backoff sleep', async () => {
    runner.enqueue({
      status: 503,
      body: { error: { message: 'busy' } },
      headers: { 'retry-after-ms': '10000' },
    });
    const controller = new AbortController();
    const before = countResources();
    const stream = createTestClient(runner).stream({
      ...hello,
      signal: controller.signal,
      onRetry: () => controller.abort(),
    });
    const { events, error } = await drainStream(stream);
    expect(events.map((event) => event.type)).toEqual(['retry']);
    expect(error?.code).toBe('LLM_ABORTED');
    expect(runner.requests).toHaveLength(1);
    await expectNothingLeft(controller.signal, before, 'pooled');
  });

  it('leaves no listener on the caller signal after a successful call', async () => {
    runner.enqueue({ body: completion('ok') });
    const controller = new AbortController();
    await createTestClient(runner).respond({ ...hello, signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
