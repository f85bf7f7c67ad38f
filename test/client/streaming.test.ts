import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textChunk, textStream, usageChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { collectEvents, createTestClient, hello, textOf } from './client-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const pieces = ['Grüße ', 'aus ', '東京 ', '🙂'];

describe('streaming through the wire', () => {
  it('yields text deltas, usage and exactly one done, last', async () => {
    runner.enqueue({ sse: [...textStream(pieces), usageChunk(7, 4)] });
    const events = await collectEvents(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe(pieces.join(''));
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.response).toMatchObject({
      content: pieces.join(''),
      finishReason: 'stop',
      usage: { promptTokens: 7, completionTokens: 4 },
    });
  });

  it.each([
    ['split every byte (inside multi-byte characters too)', { chunkSize: 1 }],
    ['split every 7 bytes', { chunkSize: 7 }],
    ['CRLF line endings', { lineEnding: '\r\n' as const }],
    ['CRLF split every byte', { lineEnding: '\r\n' as const, chunkSize: 1 }],
    ['keep-alive comments between events', { interleaveComments: true }],
    ['no [DONE] after the finish reason', { omitDone: true }],
  ])('gives the same answer: %s', async (_name, shape) => {
    runner.enqueue({ sse: textStream(pieces), ...shape });
    const events = await collectEvents(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe(pieces.join(''));
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      response: { content: pieces.join(''), finishReason: 'stop' },
    });
  });

  it('stops reading at [DONE] even when the server keeps the connection open', async () => {
    runner.enqueue({
      sse: [...textStream(['done ', 'here']), 'data: [DONE]\n\n', ': trailing\n\n'],
      omitDone: true,
      stallAfterBytes: 100_000,
    });
    const events = await collectEvents(createTestClient(runner, { idleTimeoutMs: 60_000 }).stream(hello));
    expect(textOf(events)).toBe('done here');
  });

  it('breaking out of the iteration aborts the request and closes the connection', async () => {
    runner.enqueue({
      sse: [textChunk('first'), textChunk('second')],
      stallAfterBytes: 100_000,
      omitDone: true,
    });
    runner.enqueue({ sse: [textChunk('x')], omitDone: true, stallAfterBytes: 10 });
    for await (const event of createTestClient(runner).stream(hello)) {
      expect(event).toEqual({ type: 'text-delta', text: 'first' });
      break;
    }
    await runner.waitForConnectionsClosed();
    expect(runner.requests).toHaveLength(1);
  });
});
