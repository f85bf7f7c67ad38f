import type { ScriptedResponse } from '../scripted-response.js';
import type { CaseWire, WireChunk } from './conformance-case.js';

/**
 * A case's wire answer as a fake-runner response, byte for byte: raw text chunks are sent as written (so CRLF,
 * CR-only lines and comments reach the client untouched), SSE events and NDJSON lines are framed the way the
 * runners frame them. `bytewise` writes every byte on its own, so each read boundary — inside a UTF-8
 * sequence, between `\r` and `\n`, inside a JSON value — is exercised.
 */
export function renderWire(wire: CaseWire, bytewise: boolean): ScriptedResponse {
  const headers = { ...wire.headers };
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  const { text, contentType } = renderBodyText(wire);
  if (!hasContentType && contentType !== undefined) headers['content-type'] = contentType;
  return {
    status: wire.status,
    headers,
    body: Buffer.from(text, 'utf8'),
    ...(bytewise ? { chunkSize: 1 } : {}),
  };
}

function renderBodyText(wire: CaseWire): { text: string; contentType: string | undefined } {
  if (wire.chunks !== undefined) {
    const ndjson = wire.chunks.some((chunk) => typeof chunk === 'object' && 'json' in chunk);
    return {
      text: wire.chunks.map(renderChunk).join(''),
      contentType: ndjson ? 'application/x-ndjson' : 'text/event-stream',
    };
  }
  if (typeof wire.body === 'string') return { text: wire.body, contentType: undefined };
  if (wire.body === undefined) return { text: '', contentType: undefined };
  return { text: JSON.stringify(wire.body), contentType: 'application/json' };
}

function renderChunk(chunk: WireChunk): string {
  if (typeof chunk === 'string') return chunk;
  if ('json' in chunk) return `${JSON.stringify(chunk.json)}\n`;
  const data = typeof chunk.data === 'string' ? chunk.data : JSON.stringify(chunk.data);
  return `${chunk.event === undefined ? '' : `event: ${chunk.event}\n`}data: ${data}\n\n`;
}
