/** One scripted reply of the fake runner. Every field is optional; the default is `200 {}`. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string or Buffer is sent as it is; any other value is sent as JSON. */
  body?: string | Buffer | object;
  /** SSE events: an object becomes `data: JSON\n\n`, a string is written raw. `data: [DONE]` follows unless `omitDone`. */
  sse?: Array<object | string>;
  /** NDJSON lines (Ollama native): one JSON object per line. */
  ndjson?: object[];
  /** Split the body every N bytes, or after every SSE event (`'event'`); each piece is written on its own. */
  chunkSize?: number | 'event';
  /** `\r\n` rewrites every line ending of the body (JSON never holds a raw newline, so data is unchanged). */
  lineEnding?: '\n' | '\r\n';
  /** Insert a `: keep-alive` comment before every SSE event. */
  interleaveComments?: boolean;
  delayMsBetweenChunks?: number;
  /** Destroy the socket after this many body bytes. */
  dropAfterBytes?: number;
  /** Stop writing after this many body bytes, keeping the socket open until the runner closes. */
  stallAfterBytes?: number;
  /** Wait this long before sending the status line and headers. */
  headersDelayMs?: number;
  omitDone?: boolean;
}

/** What the runner received for one request. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  rawBody: string;
}

export type ResponseHandler = (request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

/** The body bytes and default content type a scripted response stands for. */
export function renderBody(response: ScriptedResponse): { bytes: Buffer; contentType: string | undefined } {
  const lineEnding = response.lineEnding ?? '\n';
  if (response.sse !== undefined) {
    const comment = response.interleaveComments ? ': keep-alive\n\n' : '';
    const events = response.sse.map((event) =>
      typeof event === 'string' ? event : `${comment}data: ${JSON.stringify(event)}\n\n`,
    );
    if (!response.omitDone) events.push(`${comment}data: [DONE]\n\n`);
    return {
      bytes: Buffer.from(applyLineEnding(events.join(''), lineEnding)),
      contentType: 'text/event-stream',
    };
  }
  if (response.ndjson !== undefined) {
    const text = response.ndjson.map((line) => `${JSON.stringify(line)}\n`).join('');
    return { bytes: Buffer.from(applyLineEnding(text, lineEnding)), contentType: 'application/x-ndjson' };
  }
  const body = response.body;
  if (body === undefined) return { bytes: Buffer.from('{}'), contentType: 'application/json' };
  if (Buffer.isBuffer(body)) return { bytes: body, contentType: undefined };
  if (typeof body === 'string')
    return { bytes: Buffer.from(applyLineEnding(body, lineEnding)), contentType: undefined };
  return { bytes: Buffer.from(JSON.stringify(body)), contentType: 'application/json' };
}

function applyLineEnding(text: string, lineEnding: '\n' | '\r\n'): string {
  return lineEnding === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}

/** Splits the body into the pieces written one by one. */
export function splitBody(bytes: Buffer, chunkSize: number | 'event' | undefined): Buffer[] {
  if (chunkSize === 'event') return splitAfterEvents(bytes);
  if (!chunkSize || chunkSize >= bytes.length) return bytes.length === 0 ? [] : [bytes];
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    pieces.push(bytes.subarray(offset, offset + chunkSize));
  }
  return pieces;
}

function splitAfterEvents(bytes: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  const text = bytes.toString('latin1');
  let start = 0;
  for (const match of text.matchAll(/\r?\n\r?\n/g)) {
    const end = (match.index ?? 0) + match[0].length;
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  if (start < bytes.length) pieces.push(bytes.subarray(start));
  return pieces;
}
