import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type RecordedRequest,
  type ResponseHandler,
  renderBody,
  type ScriptedResponse,
  splitBody,
} from './scripted-response.js';

export type { RecordedRequest, ResponseHandler, ScriptedResponse } from './scripted-response.js';

/** A real HTTP server on 127.0.0.1 that plays scripted responses, one per request, in order. */
export interface FakeRunner {
  /** `http://127.0.0.1:PORT/v1` */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connectionCount: number;
  /** TCP connections currently open. */
  readonly openConnectionCount: number;
  enqueue(...responses: Array<ScriptedResponse | ResponseHandler>): void;
  /** Resolves once no connection is open (rejects after `timeoutMs`). */
  waitForConnectionsClosed(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake runner on an ephemeral loopback port. */
export async function startFakeRunner(): Promise<FakeRunner> {
  const queue: Array<ScriptedResponse | ResponseHandler> = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  // Cancels the runner's own delays on close, so a test can check that no timer is left behind.
  const lifetime = new AbortController();
  let connectionCount = 0;

  const server = createServer((request, response) => {
    void handleRequest(request, response, { queue, requests, signal: lifetime.signal });
  });
  server.on('connection', (socket) => {
    connectionCount += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server);
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    get connectionCount() {
      return connectionCount;
    },
    get openConnectionCount() {
      return sockets.size;
    },
    enqueue: (...responses) => {
      queue.push(...responses);
    },
    waitForConnectionsClosed: async (timeoutMs = 2000) => {
      const started = Date.now();
      while (sockets.size > 0) {
        if (Date.now() - started > timeoutMs) throw new Error(`${sockets.size} connection(s) still open`);
        await sleep(5);
      }
    },
    close: async () => {
      lifetime.abort();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

interface RunnerState {
  queue: Array<ScriptedResponse | ResponseHandler>;
  requests: RecordedRequest[];
  signal: AbortSignal;
}

async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  state: RunnerState,
): Promise<void> {
  const { queue, requests } = state;
  const recorded = await recordRequest(request);
  requests.push(recorded);
  const next = queue.shift();
  const scripted: ScriptedResponse =
    next === undefined
      ? { status: 599, body: { error: { message: `fake runner: no scripted response for ${recorded.url}` } } }
      : typeof next === 'function'
        ? await next(recorded)
        : next;
  try {
    await playResponse(scripted, response, state.signal);
  } catch {
    // The client went away mid-response (aborts, timeouts): nothing left to send.
  }
}

async function recordRequest(request: IncomingMessage): Promise<RecordedRequest> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const rawBody = Buffer.concat(parts).toString('utf8');
  let body: unknown;
  try {
    body = rawBody === '' ? undefined : JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  return {
    method: request.method ?? '',
    url: request.url ?? '',
    headers: { ...request.headers },
    body,
    rawBody,
  };
}

async function playResponse(
  scripted: ScriptedResponse,
  response: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const { bytes, contentType } = renderBody(scripted);
  const pieces = splitBody(bytes, scripted.chunkSize);
  const streamed = pieces.length > 1 || scripted.sse !== undefined || scripted.ndjson !== undefined;
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  const cutAt = scripted.dropAfterBytes ?? scripted.stallAfterBytes;
  if (!streamed && cutAt === undefined) headers['content-length'] = String(bytes.length);
  Object.assign(headers, scripted.headers);

  if (scripted.headersDelayMs) await sleep(scripted.headersDelayMs, undefined, { signal });
  if (response.destroyed) return;
  response.writeHead(scripted.status ?? 200, headers);
  response.flushHeaders();
  await writePieces(response, pieces, scripted, { cutAt, signal });
}

async function writePieces(
  response: ServerResponse,
  pieces: Buffer[],
  scripted: ScriptedResponse,
  options: { cutAt: number | undefined; signal: AbortSignal },
): Promise<void> {
  const { cutAt, signal } = options;
  let written = 0;
  for (const piece of pieces) {
    if (response.destroyed) return;
    const room = cutAt === undefined ? piece.length : Math.max(0, cutAt - written);
    const part = room < piece.length ? piece.subarray(0, room) : piece;
    if (part.length > 0) await write(response, part);
    written += part.length;
    if (cutAt !== undefined && written >= cutAt) return cut(response, scripted);
    // A pause between writes makes each piece its own TCP segment, so the client sees the split.
    if (scripted.delayMsBetweenChunks) await sleep(scripted.delayMsBetweenChunks, undefined, { signal });
    else await new Promise((resolve) => setImmediate(resolve));
  }
  if (cutAt !== undefined) return cut(response, scripted);
  response.end();
}

function write(response: ServerResponse, piece: Buffer): Promise<void> {
  return new Promise((resolve) => response.write(piece, () => resolve()));
}

function cut(response: ServerResponse, scripted: ScriptedResponse): void {
  if (scripted.dropAfterBytes !== undefined) response.socket?.destroy();
  // stallAfterBytes: keep the socket open and silent; close() destroys it.
}
