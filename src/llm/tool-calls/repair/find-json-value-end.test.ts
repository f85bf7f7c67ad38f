import { describe, expect, it } from 'vitest';
import { findJsonValueEnd, splitJsonValues } from './find-json-value-end.js';

describe('findJsonValueEnd', () => {
  it.each([
    { text: '{"a":1} tail', start: 0, end: 7 },
    { text: 'x {"a":"}{]"} y', start: 2, end: 13 },
    { text: '{"a":"\\"}"}', start: 0, end: 11 },
    { text: "{'a': '}'}", start: 0, end: 10 },
    { text: '{"a": "it\'s"}', start: 0, end: 13 },
    { text: '[{"a":[1,2]},{}]', start: 0, end: 16 },
    { text: '{"a": [1, 2', start: 0, end: -1 },
    { text: '{"a": ]', start: 0, end: -1 },
    { text: 'plain', start: 0, end: -1 },
  ])('finds the end in $text', ({ text, start, end }) => {
    expect(findJsonValueEnd(text, start)).toBe(end);
  });
});

describe('splitJsonValues', () => {
  it('splits values back to back, with separators, and keeps an unclosed last one', () => {
    expect(splitJsonValues('{"a":1}{"b":2}; {"c":3},\n{"d":')).toEqual([
      { text: '{"a":1}', closed: true },
      { text: '{"b":2}', closed: true },
      { text: '{"c":3}', closed: true },
      { text: '{"d":', closed: false },
    ]);
  });

  it('gives nothing for text that does not open with JSON', () => {
    expect(splitJsonValues('not json {"a":1}')).toEqual([]);
  });
});
