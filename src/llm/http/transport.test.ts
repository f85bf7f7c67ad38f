import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../../../test/support/fake-runner.js';
import { SpineError } from '../../core/spine-error.js';
import { createFetchTransport } from './fetch-transport.js';
import type { HttpTransport } from './http-transport.js';
import { createNodeHttpTransport } from './node-http-transport.js';
import { createUndiciTransport } from './undici-transport.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString();
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const transports: Array<[string, () => HttpTransport]> = [
  ['undici', () => createUndiciTransport()],
  ['fetch', () => createFetchTransport(fetch)],
  ['node http', () => createNodeHttpTransport()],
];

describe.each(transports)('%s transport', (_name, createTransport) => {
  const send = (transport: HttpTransport, signal = new AbortController().signal) =>
    transport.send({
      url: `${runner.baseUrl}/chat/completions`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: '{"a":1}',
      signal,
    });

  it('sends the request and yields status, lower-case headers and the body', async () => {
    runner.enqueue({ status: 201, headers: { 'X-Thing': 'v' }, body: 'hello world', chunkSize: 3 });
    const response = await send(createTransport());
    expect(response.status).toBe(201);
    expect(response.headers['x-thing']).toBe('v');
    expect(await readAll(response.body)).toBe('hello world');
    expect(runner.requests[0]).toMatchObject({
      method: 'POST',
      body: { a: 1 },
      headers: { 'x-test': 'yes' },
    });
  });

  it('reports a refused connection as retryable LLM_CONNECTION', async () => {
    const port = await closedPort();
    const error = await createTransport()
      .send({
        url: `http://127.0.0.1:${port}/v1`,
        method: 'POST',
        headers: {},
        body: '{}',
        signal: new AbortController().signal,
      })
      .catch((caught: unknown) => caught);
    expect(SpineError.is(error) && [error.code, error.retryable]).toEqual(['LLM_CONNECTION', true]);
    expect((error as SpineError).message).toContain('ECONNREFUSED');
  });

  it('reports a connection dropped mid-body as LLM_CONNECTION', async () => {
    runner.enqueue({ sse: [{ a: 1 }, { b: 2 }], dropAfterBytes: 12 });
    const response = await send(createTransport());
    const error = await readAll(response.body).catch((caught: unknown) => caught);
    expect(SpineError.is(error) && error.code).toBe('LLM_CONNECTION');
  });

  it('cancel closes a stalled connection', async () => {
    runner.enqueue({ sse: [{ a: 1 }], stallAfterBytes: 5 });
    const response = await send(createTransport());
    const iterator = response.body[Symbol.asyncIterator]();
    await iterator.next();
    response.cancel();
    await runner.waitForConnectionsClosed();
    expect(runner.openConnectionCount).toBe(0);
  });

  it('abort while waiting for headers closes the connection', async () => {
    runner.enqueue({ headersDelayMs: 5_000 });
    const controller = new AbortController();
    const pending = send(createTransport(), controller.signal).catch((caught: unknown) => caught);
    while (runner.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort();
    expect(SpineError.is(await pending)).toBe(true);
    await runner.waitForConnectionsClosed();
  });
});

describe('undici transport', () => {
  it('reuses the pooled connection after a body read to the end and cancelled', async () => {
    const transport = createUndiciTransport();
    runner.enqueue({ sse: [{ a: 1 }] }, { sse: [{ b: 2 }] }, { body: {} }, { sse: [{ c: 3 }] });
    for (let index = 0; index < 4; index++) {
      const response = await transport.send({
        url: `${runner.baseUrl}/chat/completions`,
        method: 'POST',
        headers: {},
        body: '{}',
        signal: new AbortController().signal,
      });
      await readAll(response.body);
      response.cancel();
    }
    // undici's pool may open a second socket while the first is being released; never one per request.
    expect(runner.connectionCount).toBeLessThanOrEqual(2);
  });
});
