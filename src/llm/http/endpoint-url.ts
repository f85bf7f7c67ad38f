import { registerSecret } from '../../core/secrets.js';
import { SpineError } from '../../core/spine-error.js';

/** A base URL taken apart: what request paths are appended to, the query every request keeps, the credentials. */
export interface EndpointUrl {
  /** Scheme, host, port and path; no query, no fragment, no `user:password@`. */
  base: string;
  /** `''`, or `?…` exactly as given: some gateways need a key or a version on every request. */
  query: string;
  /** An `Authorization: Basic …` value when the URL carried `user:password@`. */
  basicAuthorization?: string;
}

/**
 * Parses a configured base URL. A `#fragment` is refused (it is never sent, so it is a typo for something
 * else); `user:password@` becomes HTTP Basic authentication, as curl does, and the password is registered as a
 * secret so it is redacted wherever Spine prints or records text.
 */
export function parseEndpointUrl(raw: string): EndpointUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(
      `the base URL ${JSON.stringify(stripUserinfo(raw))} is not a URL (e.g. http://127.0.0.1:8080/v1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`the base URL must start with http:// or https://, not ${url.protocol}//`);
  }
  if (raw.includes('#')) {
    throw invalid(
      `the base URL has a #fragment (${JSON.stringify(url.hash)}), which is never sent to the server; remove it`,
    );
  }
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const query = url.search;
  url.username = '';
  url.password = '';
  url.search = '';
  const parsed: EndpointUrl = { base: url.toString().replace(/\/+$/, ''), query };
  if (username !== '' || password !== '') {
    registerSecret(password);
    parsed.basicAuthorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    registerSecret(parsed.basicAuthorization);
  }
  return parsed;
}

/** A request URL with the base URL's query added (after any query of its own, such as Azure's api-version). */
export function withEndpointQuery(url: string, query: string): string {
  if (query === '' || query === '?') return url;
  const target = new URL(url);
  const given = new URLSearchParams(query);
  // A parameter the user gave wins over the same one Spine would add (an explicit `api-version`).
  for (const name of new Set(given.keys())) target.searchParams.delete(name);
  for (const [name, value] of given) target.searchParams.append(name, value);
  return target.toString();
}

/** The API key and every configured header value are secrets: redacted wherever Spine prints or records text. */
export function registerEndpointSecrets(
  apiKey: string | undefined,
  headers: Record<string, string> | undefined,
): void {
  registerSecret(apiKey);
  for (const value of Object.values(headers ?? {})) registerSecret(value);
}

function stripUserinfo(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//');
}

function invalid(message: string): SpineError {
  return new SpineError({ code: 'CONFIG_INVALID', message });
}
