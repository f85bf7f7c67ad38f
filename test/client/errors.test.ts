import { createServer } from 'node:net';
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

const noRetry = { maxRetries: 0 };

describe('HTTP errors', () => {
  it.each([
    [401, 'LLM_AUTH_FAILED'],
    [403, 'LLM_AUTH_FAILED'],
    [429, 'LLM_RATE_LIMITED'],
    [500, 'LLM_SERVER_ERROR'],
    [503, 'LLM_SERVER_ERROR'],
    [400, 'LLM_HTTP_ERROR'],
    [404, 'LLM_HTTP_ERROR'],
    [422, 'LLM_HTTP_ERROR'],
  ])('status %i → %s, with the status in details', async (status, code) => {
    runner.enqueue({ status, body: { error: { message: `status ${status} said no`, type: 'x' } } });
    const error = await catchSpineError(createTestClient(runner, noRetry).respond(hello));
    expect(error.code).toBe(code);
    expect(error.message).toContain(`status ${status} said no`);
    expect(error.details.status).toBe(status);
  });

  it.each([
    [
      'OpenAI',
      { error: { message: 'openai shape', type: 'invalid_request_error', code: null } },
      'openai shape',
    ],
    ['Ollama native', { error: 'ollama string shape' }, 'ollama string shape'],
    [
      'vLLM flat',
      { object: 'error', message: 'vllm flat shape', type: 'BadRequestError', code: 400 },
      'vllm flat shape',
    ],
    ['plain text', 'plain text failure', 'plain text failure'],
  ])('reads the message from the %s error body', async (_name, body, message) => {
    runner.enqueue({ status: 400, body, headers: { 'content-type': 'application/octet-stream' } });
    expect((await catchSpineError(createTestClient(runner, noRetry).respond(hello))).message).toContain(
      message,
    );
  });

  it('classifies a context overflow (llama.cpp 400 exceed_context_size_error), also on a stream request', async () => {
    const body = {
      error: {
        code: 400,
        message: 'request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it',
        type: 'exceed_context_size_error',
      },
    };
    runner.enqueue({ status: 400, body }, { status: 400, body });
    const client = createTestClient(runner);
    expect((await catchSpineError(client.respond(hello))).code).toBe('LLM_CONTEXT_OVERFLOW');
    expect((await drainStream(client.stream(hello))).error?.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(runner.requests).toHaveLength(2);
  });

  it('treats a 200 whose body is an error object as an error', async () => {
    runner.enqueue({ body: { error: { message: 'upstream exploded', type: 'server_error', code: 502 } } });
    const error = await catchSpineError(createTestClient(runner, noRetry).respond(hello));
    expect(error.message).toContain('upstream exploded');
  });

  it('treats a 200 JSON error answering a stream request as an error', async () => {
    runner.enqueue({ body: { error: { message: 'no streaming today', type: 'invalid_request_error' } } });
    const { error } = await drainStream(createTestClient(runner, noRetry).stream(hello));
    expect(error?.message).toContain('no streaming today');
  });

  it('an error object inside the stream fails it, after the content already given', async () => {
    runner.enqueue({
      sse: [textChunk('partial'), { error: { message: 'model crashed', type: 'server_error' } }],
      omitDone: true,
      chunkSize: 'event',
      delayMsBetweenChunks: 10,
    });
    const { events, error } = await drainStream(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe('partial');
    expect(error?.message).toContain('model crashed');
    expect(runner.requests).toHaveLength(1);
  });

  it('an `event: error` inside the stream fails it', async () => {
    runner.enqueue({
      sse: [textChunk('a'), 'event: error\ndata: {"message":"named error event"}\n\n'],
      chunkSize: 'event',
      delayMsBetweenChunks: 10,
    });
    const { events, error } = await drainStream(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe('a');
    expect(error?.message).toContain('named error event');
  });

  it('a connection dropped mid-stream is LLM_CONNECTION, not a short answer', async () => {
    const sse = textStream(['one ', 'two ', 'three']);
    const firstEvent = `data: ${JSON.stringify(sse[0])}\n\n`;
    runner.enqueue({ sse, dropAfterBytes: Buffer.byteLength(firstEvent) + 5 });
    const { events, error } = await drainStream(createTestClient(runner).stream(hello));
    expect(textOf(events)).toBe('one ');
    expect(error?.code).toBe('LLM_CONNECTION');
    expect(events.some((event) => event.type === 'done')).toBe(false);
  });

  it('a stream that ends cleanly without a finish reason or [DONE] is an error', async () => {
    runner.enqueue({ sse: [textChunk('cut')], omitDone: true });
    const { error } = await drainStream(createTestClient(runner, noRetry).stream(hello));
    expect(error?.code).toBe('LLM_CONNECTION');
  });

  it('a refused connection is LLM_CONNECTION once retries are spent', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const retries: number[] = [];
    const client = createTestClient(runner, {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      onRetry: (info) => retries.push(info.attempt),
    });
    const error = await catchSpineError(client.respond(hello));
    expect([error.code, error.retryable]).toEqual(['LLM_CONNECTION', true]);
    expect(retries).toEqual([1, 2]);
  });

  it('an unparseable non-streamed body is LLM_BAD_RESPONSE', async () => {
    runner.enqueue({ body: '{"choices": [' });
    expect((await catchSpineError(createTestClient(runner, noRetry).respond(hello))).code).toBe(
      'LLM_BAD_RESPONSE',
    );
  });

  it('a non-streamed answer reads like the collected stream', async () => {
    runner.enqueue({ body: completion('same') }, { sse: textStream(['sa', 'me']) });
    const client = createTestClient(runner);
    const collected = await client.respond(hello);
    const { events } = await drainStream(client.stream(hello));
    const streamed = events.at(-1);
    expect(streamed?.type === 'done' && streamed.response.content).toBe(collected.content);
  });
});
