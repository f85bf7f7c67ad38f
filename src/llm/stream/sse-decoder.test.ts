import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseMessage } from './sse-decoder.js';

const encoder = new TextEncoder();

function decodeAll(text: string | Uint8Array, cuts: number[] = []): SseMessage[] {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  const decoder = new SseDecoder();
  const messages: SseMessage[] = [];
  let start = 0;
  for (const end of [...cuts, bytes.length]) {
    messages.push(...decoder.push(bytes.subarray(start, end)));
    start = end;
  }
  messages.push(...decoder.flush());
  return messages.map((message) => ({ event: message.event, data: message.data }));
}

const data = (value: string, event?: string): SseMessage => ({ event, data: value });

describe('SseDecoder', () => {
  it('dispatches on a blank line with LF, CRLF and CR line ends, also mixed in one chunk', () => {
    expect(decodeAll('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r\n\n')).toEqual([
      data('a'),
      data('b'),
      data('c'),
      data('d'),
    ]);
  });

  it('handles a CRLF split between two pushes without seeing an extra blank line', () => {
    const text = 'data: a\r\ndata: b\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) expect(decodeAll(text, [cut])).toEqual([data('a\nb')]);
  });

  it('ignores comments and keep-alives and never dispatches an event without data', () => {
    expect(decodeAll(': keep-alive\n\n:ping\n\nid: 7\n\nevent: ping\n\nretry: 10\n\ndata: x\n\n')).toEqual([
      data('x'),
    ]);
  });

  it('joins multi-line data with LF and keeps the event name', () => {
    expect(decodeAll('event: error\ndata: {"a":\ndata: 1}\n\n')).toEqual([data('{"a":\n1}', 'error')]);
  });

  it("reports llama.cpp's non-standard `error:` line as an error event carrying its value", () => {
    const text = 'error: {"code":400,"message":"too big"}\n\ndata: [DONE]\n\n';
    expect(decodeAll(text)).toEqual([data('{"code":400,"message":"too big"}', 'error'), data('[DONE]')]);
  });

  it('ignores other unknown fields', () => {
    expect(decodeAll('foo: bar\ndata: x\n\n')).toEqual([data('x')]);
  });

  it('flushes a last event sent without its blank line, or without any line end', () => {
    expect(decodeAll('data: a\n\ndata: [DONE]\n')).toEqual([data('a'), data('[DONE]')]);
    expect(decodeAll('data: [DONE]')).toEqual([data('[DONE]')]);
    expect(decodeAll('data: [DONE]\r')).toEqual([data('[DONE]')]);
  });

  it('decodes a UTF-8 character split at every byte', () => {
    const text = 'data: é€😀\n\n';
    const length = encoder.encode(text).length;
    for (let cut = 1; cut < length; cut++) expect(decodeAll(text, [cut])).toEqual([data('é€😀')]);
  });

  it('strips a leading byte order mark', () => {
    expect(decodeAll('\uFEFFdata: x\n\n')).toEqual([data('x')]);
  });

  it('gives the same events for any split of a stream', () => {
    const text = ': hi\r\ndata: {"a":"é"}\r\n\r\nevent: error\rdata: 2\r\rdata: 3\n\ndata: [DONE]';
    const bytes = encoder.encode(text);
    const whole = decodeAll(bytes);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        (cuts) => {
          expect(
            decodeAll(
              bytes,
              cuts.sort((a, b) => a - b),
            ),
          ).toEqual(whole);
        },
      ),
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 300 }), (bytes, cut) => {
        decodeAll(bytes, cut < bytes.length && cut > 0 ? [cut] : []);
      }),
    );
  });
});
