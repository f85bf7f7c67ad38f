import { readFileSync } from 'node:fs';
import { SpineError } from '../../src/core/spine-error.js';
import type { ModelResponse, StreamEvent } from '../../src/core/types.js';
import { ChatStreamDecoder } from '../../src/llm/providers/openai-chat/chat-stream-decoder.js';

const encoder = new TextEncoder();

/** A recorded llama-server transcript: status and body bytes (the body starts after the first blank line). */
export function readLlamaFixture(name: string): { status: number; body: Uint8Array; text: string } {
  const bytes = readFileSync(new URL(`../data/llama-server/${name}.http`, import.meta.url));
  const separator = bytes.indexOf('\r\n\r\n');
  if (separator === -1) throw new Error(`${name}: no blank line after the headers`);
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(bytes.subarray(0, separator).toString('latin1'))?.[1]);
  const body = new Uint8Array(bytes.subarray(separator + 4));
  return { status, body, text: Buffer.from(body).toString('utf8') };
}

export function toBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export interface DecodeResult {
  events: StreamEvent[];
  error?: SpineError;
}

/**
 * Feeds `body` to a fresh decoder cut at `cuts` (sorted byte offsets), as a transport would: stops reading at
 * `finished`, then calls `end()`. A thrown SpineError is returned; anything else is rethrown.
 */
export function decodeStream(body: Uint8Array, cuts: number[] = []): DecodeResult {
  const decoder = new ChatStreamDecoder({ startedAt: 1000, now: () => 1250 });
  const events: StreamEvent[] = [];
  let start = 0;
  try {
    for (const end of [...cuts, body.length]) {
      events.push(...decoder.push(body.subarray(start, end)));
      start = end;
      if (decoder.finished) break;
    }
    events.push(...decoder.end());
    return { events };
  } catch (error) {
    if (!SpineError.is(error)) throw error;
    return { events, error };
  }
}

export function decodeStreamText(text: string, cuts: number[] = []): DecodeResult {
  return decodeStream(toBytes(text), cuts);
}

/** The `done` event's response; fails when the stream did not end with exactly one `done`. */
export function responseOf(result: DecodeResult): ModelResponse {
  if (result.error) throw result.error;
  const done = result.events.filter((event) => event.type === 'done');
  const last = result.events[result.events.length - 1];
  if (done.length !== 1 || last?.type !== 'done') throw new Error('expected exactly one done event, last');
  return last.response;
}

/** Concatenated text of the given delta kind. */
export function joinDeltas(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  let text = '';
  for (const event of events) if (event.type === type) text += event.text;
  return text;
}

/** An SSE stream of Chat Completions chunks, one `data:` event each, ending with `[DONE]`. */
export function sseOf(chunks: unknown[], options: { done?: boolean; lineEnd?: string } = {}): string {
  const lineEnd = options.lineEnd ?? '\n';
  let text = '';
  for (const chunk of chunks) text += `data: ${JSON.stringify(chunk)}${lineEnd}${lineEnd}`;
  if (options.done ?? true) text += `data: [DONE]${lineEnd}${lineEnd}`;
  return text;
}

/** A chunk with one choice (index 0) carrying `delta` and an optional finish reason. */
export function chunkOf(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): Record<string, unknown> {
  return { id: 'chatcmpl-1', model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] };
}
