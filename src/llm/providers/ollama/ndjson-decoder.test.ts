import { describe, expect, it } from 'vitest';
import { SpineError } from '../../../core/spine-error.js';
import { NdjsonDecoder } from './ndjson-decoder.js';

describe('NdjsonDecoder', () => {
  it('decodes one 20 MB line fed in 4 KB reads (linear: each read is searched once)', () => {
    // In 4 KB reads the old decoder, which re-joined and re-searched the whole line on every read, took ~40 s.
    const content = 'w'.repeat(20 * 1024 * 1024);
    const bytes = Buffer.from(`${JSON.stringify({ message: { content } })}\n{"done":true}\n`);
    const decoder = new NdjsonDecoder();
    const values: unknown[] = [];
    for (let offset = 0; offset < bytes.length; offset += 4096) {
      values.push(...decoder.push(bytes.subarray(offset, offset + 4096)));
    }
    values.push(...decoder.flush());
    expect(values).toHaveLength(2);
    expect((values[0] as { message: { content: string } }).message.content.length).toBe(content.length);
    expect(values[1]).toEqual({ done: true });
  });

  it('splits lines anywhere, several per read or one across reads', () => {
    const decoder = new NdjsonDecoder();
    expect(decoder.push(Buffer.from('{"a":1}\n{"b"'))).toEqual([{ a: 1 }]);
    expect(decoder.push(Buffer.from(':2}\r\n\n{"c":3}'))).toEqual([{ b: 2 }]);
    expect(decoder.flush()).toEqual([{ c: 3 }]);
  });

  it('a last line cut in the middle is a dropped connection; a whole line that is not JSON is bad JSON', () => {
    const cut = new NdjsonDecoder();
    cut.push(Buffer.from('{"a":1}\n{"message":{"content":"par'));
    expect(() => cut.flush()).toThrow(expect.objectContaining({ code: 'LLM_CONNECTION' }));
    const bad = new NdjsonDecoder();
    let error: unknown;
    try {
      bad.push(Buffer.from('not json\n'));
    } catch (caught) {
      error = caught;
    }
    expect(SpineError.is(error) && error.code).toBe('LLM_BAD_RESPONSE');
  });
});
