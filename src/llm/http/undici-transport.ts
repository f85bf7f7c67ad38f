import type { Agent, Dispatcher } from 'undici';
import { lazyModule } from '../../core/lazy-module.js';
import { decodeContentEncoding } from './decode-content-encoding.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './http-transport.js';
import { toConnectionError } from './to-connection-error.js';

// Loaded at the first request, not at import: undici alone is ~75 ms of a cold start.
const undici = lazyModule<typeof import('undici')>('undici');

let sharedAgent: Agent | undefined;

/**
 * One pooled agent for every client in the process, so calls reuse keep-alive connections. undici's own
 * header and body timeouts are off: the model client enforces first-byte, idle and total deadlines itself.
 */
function getSharedAgent(): Agent {
  sharedAgent ??= new (undici().Agent)({
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 4_000,
    connections: maxConnectionsPerOrigin,
  });
  return sharedAgent;
}

/**
 * Open connections to one runner at most; further calls wait for a free one. Without a cap, 1,500 concurrent
 * calls opened 1,500 sockets and a third of them failed with EMFILE under the usual 1,024 open files; no
 * runner serves that many requests at once anyway (llama-server has a few slots, vLLM queues internally).
 */
export const maxConnectionsPerOrigin = 128;

/** The default transport: undici's `request`, much cheaper per chunk than `fetch`. */
export function createUndiciTransport(dispatcher?: Dispatcher): HttpTransport {
  return {
    async send(httpRequest: HttpRequest): Promise<HttpResponse> {
      let response: Dispatcher.ResponseData;
      try {
        response = await undici().request(httpRequest.url, {
          method: httpRequest.method,
          headers: httpRequest.headers,
          body: httpRequest.body,
          signal: httpRequest.signal,
          dispatcher: dispatcher ?? getSharedAgent(),
        });
      } catch (error) {
        throw toConnectionError(error, httpRequest.url);
      }
      const raw = response.body;
      const headers = flattenHeaders(response.headers);
      const body = decodeContentEncoding(raw, headers, httpRequest.url);
      return {
        status: response.statusCode,
        headers,
        body: readBody(body, httpRequest.url),
        cancel: () => {
          // Destroying a body that already ended is a no-op, so the connection goes back to the pool.
          if (!raw.destroyed) raw.destroy();
          if (body !== raw && !body.destroyed) body.destroy();
        },
      };
    },
  };
}

/** The body's own iterator with socket errors mapped; lighter per chunk than wrapping it in a generator. */
function readBody(body: AsyncIterable<Uint8Array>, url: string): AsyncIterable<Uint8Array> {
  const mapError = (error: unknown): never => {
    throw toConnectionError(error, url);
  };
  return {
    [Symbol.asyncIterator]() {
      const iterator = body[Symbol.asyncIterator]();
      return {
        next: () => iterator.next().catch(mapError),
        return: async () => (iterator.return ? iterator.return() : { done: true, value: undefined }),
      };
    },
  };
}

export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
