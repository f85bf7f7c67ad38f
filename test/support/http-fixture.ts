import { readFileSync } from 'node:fs';
import type { ScriptedResponse } from './scripted-response.js';

/** Headers the replaying server recomputes: the recorded body has its chunked framing removed. */
const framingHeaders = new Set(['transfer-encoding', 'content-length', 'connection', 'keep-alive']);

/**
 * Parses a recorded `.http` file (what `curl -i` received: status line, CRLF header lines, a blank line, the
 * body bytes) into a scripted response the fake runner can replay, byte for byte.
 */
export function parseHttpFixture(bytes: Buffer): ScriptedResponse {
  const separator = bytes.indexOf('\r\n\r\n');
  if (separator === -1) throw new Error('not a recorded HTTP response: no blank line after the headers');
  const [statusLine = '', ...headerLines] = bytes.subarray(0, separator).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not a status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && !framingHeaders.has(name)) headers[name] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: bytes.subarray(separator + 4) };
}

/**
 * Loads `test/data/<runner>/<name>.http` (see the README there for its origin) as a scripted response;
 * `extra` adds chunking or faults.
 */
export function loadHttpFixture(
  runner: string,
  name: string,
  extra: Omit<ScriptedResponse, 'status' | 'headers' | 'body'> = {},
): ScriptedResponse {
  const file = new URL(`../data/${runner}/${name}.http`, import.meta.url);
  return { ...parseHttpFixture(readFileSync(file)), ...extra };
}

/** Loads the request body recorded beside a transcript (`NAME.request.json`), as text. */
export function loadFixtureRequest(runner: string, name: string): string {
  return readFileSync(new URL(`../data/${runner}/${name}.request.json`, import.meta.url), 'utf8');
}
