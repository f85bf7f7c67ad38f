import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxConnectionsPerOrigin } from '../../src/llm/http/undici-transport.js';
import { TextBuffer } from '../../src/llm/stream/text-buffer.js';
import { completion, textChunk, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { catchSpineError, createTestClient, drainStream, hello, textOf } from './client-test-kit.js';

// What a broken, hostile or misconfigured runner (or a proxy in front of it) sends back.
let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

describe('every response has a size limit', () => {
  it('a JSON body over responseBytes is LLM_RESPONSE_TOO_LARGE, read no further than the limit', async () => {
    runner.enqueue({ body: completion('x'.repeat(3 * 1024 * 1024)) });
    const client = createTestClient(runner, {
      maxRetries: 0,
      responseLimits: { responseBytes: 1024 * 1024 },
    });
    const error = await catchSpineError(client.respond(hello));
    expect(error.code).toBe('LLM_RESPONSE_TOO_LARGE');
    expect(error.message).toContain('1048576 bytes');
  });

  it('one SSE event over eventBytes is LLM_RESPONSE_TOO_LARGE', async () => {
    runner.enqueue({ sse: [textChunk('y'.repeat(2 * 1024 * 1024))], chunkSize: 64 * 1024 });
    const client = createTestClient(runner, { maxRetries: 0, responseLimits: { eventBytes: 512 * 1024 } });
    const { error } = await drainStream(client.stream(hello));
    expect(error?.code).toBe('LLM_RESPONSE_TOO_LARGE');
    expect(error?.message).toContain('one event');
  });

  it('a stream of many small events over responseBytes is cut too; under the limits it passes whole', async () => {
    const pieces = Array.from({ length: 4000 }, () => 'z'.repeat(500));
    runner.enqueue(
      { sse: textStream(pieces), chunkSize: 'event' },
      { sse: textStream(pieces), chunkSize: 'event' },
    );
    const capped = createTestClient(runner, {
      maxRetries: 0,
      responseLimits: { responseBytes: 1024 * 1024 },
    });
    expect((await drainStream(capped.stream(hello))).error?.code).toBe('LLM_RESPONSE_TOO_LARGE');
    const roomy = createTestClient(runner, { maxRetries: 0 });
    const whole = await drainStream(roomy.stream(hello));
    expect(whole.error).toBeUndefined();
    expect(textOf(whole.events)).toBe(pieces.join(''));
  });
});

describe('what arrives is named', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s-encoded body is decoded', async (encoding, compress) => {
    runner.enqueue({
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body: compress(Buffer.from(JSON.stringify(completion('compressed hello')))),
    });
    const response = await createTestClient(runner, { maxRetries: 0 }).respond(hello);
    expect(response.content).toBe('compressed hello');
  });

  it('a gzip-encoded stream is decoded', async () => {
    const sse = textStream(['com', 'pressed'])
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('');
    runner.enqueue({
      headers: { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(`${sse}data: [DONE]\n\n`)),
    });
    const { events, error } = await drainStream(createTestClient(runner, { maxRetries: 0 }).stream(hello));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('compressed');
  });

  it('an encoding Spine cannot decode is named in the error', async () => {
    runner.enqueue({
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
    });
    const error = await catchSpineError(createTestClient(runner, { maxRetries: 0 }).respond(hello));
    expect(error.code).toBe('LLM_BAD_RESPONSE');
    expect(error.message).toContain('"zstd"');
  });

  it('a 200 web page on a streamed call says it is a web page, with its title', async () => {
    runner.enqueue({
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html><head><title>Open WebUI</title></head><body>app</body></html>',
    });
    const { error } = await drainStream(createTestClient(runner, { maxRetries: 0 }).stream(hello));
    expect(error?.code).toBe('LLM_BAD_RESPONSE');
    expect(error?.message).toContain('HTTP 200');
    expect(error?.message).toContain('an HTML page ("Open WebUI")');
    expect(error?.message).toContain('--base-url');
  });

  it('a stream that ends in the middle of an event is a dropped connection, not bad JSON', async () => {
    runner.enqueue({
      sse: [textChunk('Hel'), 'data: {"choices":[{"index":0,"delta":{"content":"lo wo'],
      omitDone: true,
    });
    const { events, error } = await drainStream(createTestClient(runner, { maxRetries: 0 }).stream(hello));
    expect(textOf(events)).toBe('Hel');
    expect(error?.code).toBe('LLM_CONNECTION');
    expect(error?.message).toContain('in the middle of an event');
  });

  it("llama-server's last [DONE] without its blank line is still a clean end", async () => {
    runner.enqueue({ sse: [...textStream(['ok']), 'data: [DONE]'], omitDone: true });
    const { events, error } = await drainStream(createTestClient(runner, { maxRetries: 0 }).stream(hello));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('ok');
  });
});

describe('connections per runner are capped', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it(`${maxConnectionsPerOrigin * 2 + 44} concurrent calls share at most ${maxConnectionsPerOrigin} sockets, and all succeed`, async () => {
    let open = 0;
    let mostOpen = 0;
    server = createServer((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(completion('ok')));
      }, 20);
    });
    server.on('connection', (socket) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      socket.on('close', () => {
        open -= 1;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createTestClient({ baseUrl: `http://127.0.0.1:${port}/v1` } as FakeRunner, {
      maxRetries: 0,
    });
    const calls = Array.from({ length: maxConnectionsPerOrigin * 2 + 44 }, () => client.respond(hello));
    const responses = await Promise.all(calls);
    expect(responses.every((response) => response.content === 'ok')).toBe(true);
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(maxConnectionsPerOrigin);
  });
});

describe('a long stream holds its text, not one object per delta', () => {
  it('TextBuffer gives back every piece in order, however many', () => {
    const buffer = new TextBuffer();
    const pieces = Array.from({ length: 5000 }, (_, index) => String(index % 10));
    for (const piece of pieces) buffer.append(piece);
    buffer.append('');
    expect(buffer.length).toBe(5000);
    expect(buffer.toString()).toBe(pieces.join(''));
    buffer.append('!');
    expect(buffer.toString()).toBe(`${pieces.join('')}!`);
  });
});

describe('a model pinned to one tool-call format', () => {
  it('reads calls of that family from the text and leaves others alone, streamed and not', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'w',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const hermes = '<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>';
    const mistral = '[TOOL_CALLS]get_weather{"city":"Oslo"}';
    runner.enqueue(
      { body: completion(mistral) },
      { body: completion(hermes) },
      { sse: textStream([mistral]) },
    );
    const client = createTestClient(runner, { maxRetries: 0, quirks: { toolCallFormat: 'mistral' } });
    const read = await client.respond({ ...hello, tools });
    expect(read.toolCalls.map((call) => call.arguments)).toEqual([{ city: 'Oslo' }]);
    const ignored = await client.respond({ ...hello, tools });
    expect(ignored).toMatchObject({ toolCalls: [], content: hermes });
    const streamed = await drainStream(client.stream({ ...hello, tools }));
    const done = streamed.events.find((event) => event.type === 'done');
    expect(done?.type === 'done' && done.response.toolCalls).toHaveLength(1);
  });
});
