import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from './fake-runner.js';
import { parseHttpFixture } from './http-fixture.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${runner.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
}

describe('fake runner', () => {
  it('serves scripted responses in order and records each request', async () => {
    runner.enqueue({ body: { n: 1 } }, { status: 418, body: 'teapot', headers: { 'x-a': 'b' } });
    const first = await post('/chat/completions', { model: 'm' });
    const second = await post('/other', { model: 'n' });
    expect(await first.json()).toEqual({ n: 1 });
    expect([second.status, await second.text(), second.headers.get('x-a')]).toEqual([418, 'teapot', 'b']);
    expect(runner.requests.map((request) => [request.method, request.url, request.body])).toEqual([
      ['POST', '/v1/chat/completions', { model: 'm' }],
      ['POST', '/v1/other', { model: 'n' }],
    ]);
    expect(runner.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('calls handler functions with the recorded request', async () => {
    runner.enqueue((request) => ({ body: { echo: request.body } }));
    expect(await (await post('/x', { a: 1 })).json()).toEqual({ echo: { a: 1 } });
  });

  it('frames SSE events, adds [DONE], comments and CRLF on request', async () => {
    runner.enqueue({ sse: [{ a: 1 }, 'event: ping\n\n'], interleaveComments: true, lineEnding: '\r\n' });
    const response = await post('/s', {});
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: ping\r\n\r\n: keep-alive\r\n\r\ndata: [DONE]\r\n\r\n',
    );
  });

  it('omits [DONE] and writes NDJSON', async () => {
    runner.enqueue({ sse: [{ a: 1 }], omitDone: true }, { ndjson: [{ a: 1 }, { b: 2 }] });
    expect(await (await post('/s', {})).text()).toBe('data: {"a":1}\n\n');
    expect(await (await post('/n', {})).text()).toBe('{"a":1}\n{"b":2}\n');
  });

  it('splits the body into separately flushed pieces', async () => {
    runner.enqueue({ body: 'abcdef', chunkSize: 1, delayMsBetweenChunks: 5 });
    const response = await post('/c', {});
    const pieces: string[] = [];
    for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
      pieces.push(Buffer.from(piece).toString());
    }
    expect(pieces.join('')).toBe('abcdef');
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('drops the connection after N bytes', async () => {
    runner.enqueue({ sse: [{ a: 1 }, { b: 2 }], dropAfterBytes: 10 });
    const response = await post('/d', {});
    await expect(response.text()).rejects.toThrow();
  });

  it('stalls after N bytes with the socket open', async () => {
    runner.enqueue({ sse: [{ a: 1 }], stallAfterBytes: 4 });
    const controller = new AbortController();
    const response = await fetch(`${runner.baseUrl}/stall`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('data');
    const pending = reader.read();
    const outcome = await Promise.race([
      pending.then(() => 'data'),
      new Promise((r) => setTimeout(r, 50, 'silent')),
    ]);
    expect(outcome).toBe('silent');
    expect(runner.openConnectionCount).toBe(1);
    controller.abort();
    await pending.catch(() => undefined);
  });

  it('delays the headers', async () => {
    runner.enqueue({ headersDelayMs: 150, body: {} });
    const response = post('/h', {});
    const early = await Promise.race([
      response.then(() => 'headers'),
      new Promise((r) => setTimeout(r, 40, 'waiting')),
    ]);
    expect(early).toBe('waiting');
    expect((await response).status).toBe(200);
  });

  it('answers an unscripted request with an error that says so', async () => {
    const response = await post('/none', {});
    expect(response.status).toBe(599);
    expect(await response.text()).toContain('no scripted response');
  });

  it('destroys open sockets on close', async () => {
    const socket = connect(Number(new URL(runner.origin).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await runner.close();
    await closed;
    expect(socket.destroyed).toBe(true);
    runner = await startFakeRunner();
  });
});

describe('parseHttpFixture', () => {
  it('reads status, headers and the raw body, dropping framing headers', () => {
    const bytes = Buffer.from(
      'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{"x":\r\n1}',
    );
    expect(parseHttpFixture(bytes)).toEqual({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"x":\r\n1}'),
    });
  });
});
