import type { HttpRequest, HttpResponse, HttpTransport } from './http-transport.js';
import { toConnectionError } from './to-connection-error.js';

export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** A transport over a caller-supplied `fetch` (a proxy, a custom agent, a test double in a browser). */
export function createFetchTransport(fetchFunction: FetchFunction): HttpTransport {
  return {
    async send(httpRequest: HttpRequest): Promise<HttpResponse> {
      let response: Response;
      try {
        response = await fetchFunction(httpRequest.url, {
          method: httpRequest.method,
          headers: httpRequest.headers,
          body: httpRequest.body,
          signal: httpRequest.signal,
          // Never followed: a redirect could carry the key to another origin. The model client reports it.
          redirect: 'manual',
        });
      } catch (error) {
        throw toConnectionError(error, httpRequest.url);
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const reader = response.body?.getReader();
      return {
        status: response.status,
        headers,
        body: readBody(reader, httpRequest.url),
        cancel: () => {
          reader?.cancel().catch(() => {});
        },
      };
    },
  };
}

async function* readBody(
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
  url: string,
): AsyncGenerator<Uint8Array> {
  if (!reader) return;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch (error) {
    throw toConnectionError(error, url);
  }
}
