import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { loadFixtureRequest, loadHttpFixture } from '../support/http-fixture.js';
import { catchSpineError, createTestClient, drainStream, textOf } from './client-test-kit.js';

// Transcripts recorded from a real llama-server (see test/data/llama-server/README.md), replayed byte for byte
// through the loopback runner and the whole client: transport, retries, decoding.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

function requestOf(name: string) {
  const body = JSON.parse(loadFixtureRequest('llama-server', name));
  return {
    messages: body.messages,
    tools: body.tools,
    toolChoice: body.tool_choice,
    maxTokens: body.max_tokens,
  };
}

/** The text a recorded stream carries, read straight from its data lines. */
function recordedText(name: string): string {
  const body = String(loadHttpFixture('llama-server', name).body);
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '';
  }
  return text;
}

describe('llama-server transcripts', () => {
  it('chat-plain: a non-streamed answer with usage', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'chat-plain'));
    const response = await createTestClient(runner).respond(requestOf('chat-plain'));
    expect(response.content).toMatch(/^hak cowardKing/);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toMatchObject({ promptTokens: 22, completionTokens: 22 });
  });

  it.each([1, 5, 64])('chat-stream split every %i bytes gives the recorded text', async (chunkSize) => {
    runner.enqueue(loadHttpFixture('llama-server', 'chat-stream', { chunkSize }));
    const { events, error } = await drainStream(createTestClient(runner).stream(requestOf('chat-stream')));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe(recordedText('chat-stream'));
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { finishReason: 'stop' } });
  });

  it('chat-stream-usage: usage from the final choices:[] chunk, finish length', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'chat-stream-usage', { chunkSize: 13 }));
    const { events } = await drainStream(createTestClient(runner).stream(requestOf('chat-stream-usage')));
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      response: { finishReason: 'length', usage: { promptTokens: 24, completionTokens: 24 } },
    });
  });

  it('chat-stream-tools-required: one complete get_weather call', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'chat-stream-tools-required', { chunkSize: 9 }));
    const { events } = await drainStream(
      createTestClient(runner).stream(requestOf('chat-stream-tools-required')),
    );
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
    expect(calls.map((call) => call.name)).toEqual(['get_weather']);
    expect(typeof calls[0]?.arguments).toBe('object');
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { finishReason: 'tool_calls' } });
  });

  it('error-context-overflow: LLM_CONTEXT_OVERFLOW, not retried', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'error-context-overflow'));
    const error = await catchSpineError(
      createTestClient(runner).respond(requestOf('error-context-overflow')),
    );
    expect(error.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(error.message).toContain('exceeds the available context size');
    expect(runner.requests).toHaveLength(1);
  });

  it('error-not-found: LLM_HTTP_ERROR with the server message', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'error-not-found'));
    const error = await catchSpineError(createTestClient(runner).respond(requestOf('chat-plain')));
    expect([error.code, error.details.status]).toEqual(['LLM_HTTP_ERROR', 404]);
    expect(error.message).toContain('File Not Found');
  });

  it('error-stream-invalid-utf8-output: the in-stream error fails the call after its content', async () => {
    runner.enqueue(
      loadHttpFixture('llama-server', 'error-stream-invalid-utf8-output', {
        chunkSize: 'event',
        delayMsBetweenChunks: 2,
      }),
    );
    const { events, error } = await drainStream(
      createTestClient(runner).stream(requestOf('error-stream-invalid-utf8-output')),
    );
    expect(textOf(events)).toBe(recordedText('error-stream-invalid-utf8-output'));
    expect(error?.message).toContain('does not match the expected peg-native format');
    expect(runner.requests).toHaveLength(1);
  });
});
