import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { decodeContentEncoding } from './decode-content-encoding.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './http-transport.js';
import { toConnectionError } from './to-connection-error.js';
import { flattenHeaders, maxConnectionsPerOrigin } from './undici-transport.js';

let agents: { http: HttpAgent; https: HttpsAgent } | undefined;

function sharedAgents() {
  agents ??= {
    http: new HttpAgent({ keepAlive: true, maxSockets: maxConnectionsPerOrigin }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: maxConnectionsPerOrigin }),
  };
  return agents;
}

/**
 * A transport over Node's own `http` / `https`: nothing to load, so a one-call process (`spine complete`) starts
 * in a third of the time undici takes to load (~60 ms against ~200 ms to a first answer). undici stays the
 * library's default, as it costs less CPU per call in a long-running process. Same contract: redirects are not
 * followed, gzip/deflate/br are decoded, socket failures are LLM_CONNECTION.
 */
export function createNodeHttpTransport(): HttpTransport {
  return {
    send(request: HttpRequest): Promise<HttpResponse> {
      return new Promise((resolve, reject) => {
        const secure = request.url.startsWith('https:');
        const send = secure ? httpsRequest : httpRequest;
        const outgoing = send(request.url, {
          method: request.method,
          headers:
            request.body === undefined
              ? request.headers
              : { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
          agent: secure ? sharedAgents().https : sharedAgents().http,
        });
        const onAbort = () => outgoing.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (request.signal.aborted) onAbort();
        request.signal.addEventListener('abort', onAbort, { once: true });
        outgoing.once('error', (error) => {
          request.signal.removeEventListener('abort', onAbort);
          reject(toConnectionError(error, request.url));
        });
        outgoing.once('response', (incoming: IncomingMessage) => {
          const headers = flattenHeaders(incoming.headers);
          let body: IncomingMessage | ReturnType<typeof decodeContentEncoding>;
          try {
            body = decodeContentEncoding(incoming, headers, request.url);
          } catch (error) {
            request.signal.removeEventListener('abort', onAbort);
            reject(error);
            return;
          }
          incoming.once('close', () => request.signal.removeEventListener('abort', onAbort));
          resolve({
            status: incoming.statusCode ?? 0,
            headers,
            body: readBody(body, request.url),
            cancel: () => {
              if (!incoming.destroyed) incoming.destroy();
              if (body !== incoming && !body.destroyed) body.destroy();
            },
          });
        });
        outgoing.end(request.body);
      });
    },
  };
}

function readBody(body: AsyncIterable<Uint8Array>, url: string): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      try {
        yield* body;
      } catch (error) {
        throw toConnectionError(error, url);
      }
    },
  };
}
