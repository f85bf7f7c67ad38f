import { readFileSync } from 'node:fs';
import { SpineError } from '../../../core/spine-error.js';
import type { ModelResponse, StreamEvent } from '../../../core/types.js';
import type { DecoderContext } from '../provider-adapter.js';
import { ResponsesStreamDecoder } from './responses-stream-decoder.js';

export const context: DecoderContext = { startedAt: 100, now: () => 142, request: { messages: [] } };

/** `test/data/<folder>/<name>`; a recorded `.http` file gives its body only. */
export function loadWire(folder: string, name: string): Buffer {
  const bytes = readFileSync(new URL(`../../../../test/data/${folder}/${name}`, import.meta.url));
  if (!name.endsWith('.http')) return bytes;
  return bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
}

/** Feeds the bytes cut at the given offsets, then ends the body. */
export function decodeStream(bytes: Uint8Array, cuts: number[] = []): StreamEvent[] {
  const decoder = new ResponsesStreamDecoder(context);
  const events: StreamEvent[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    events.push(...decoder.push(bytes.subarray(start, cut)));
    start = cut;
  }
  events.push(...decoder.push(bytes.subarray(start)));
  return [...events, ...decoder.end()];
}

export function responseOf(events: StreamEvent[]): ModelResponse {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error('no done event');
  return last.response;
}

export function textOf(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('');
}

export function catchError(run: () => unknown): SpineError {
  try {
    run();
  } catch (error) {
    if (SpineError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SpineError');
}
