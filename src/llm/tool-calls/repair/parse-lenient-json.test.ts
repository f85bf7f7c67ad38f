import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLenientJson, replacePythonLiterals, stripCodeFence } from './parse-lenient-json.js';

describe('parseLenientJson', () => {
  it.each([
    { text: '{"a":1}', value: { a: 1 }, fixes: [] },
    { text: '```json\n{"a":1}\n```', value: { a: 1 }, fixes: ['code-fence'] },
    { text: '```\n{"a":1}', value: { a: 1 }, fixes: ['code-fence'] },
    { text: '{"a": True}', value: { a: true }, fixes: ['python-literals'] },
    { text: "{'a': None,}", value: { a: null }, fixes: ['python-literals', 'json-repair'] },
    { text: '{"a": [1, {"b": 2', value: { a: [1, { b: 2 }] }, fixes: ['truncated-json'] },
    { text: "{'a': 'x'", value: { a: 'x' }, fixes: ['truncated-json'] },
    {
      text: '```json\n{"a": False,}\n```',
      value: { a: false },
      fixes: ['code-fence', 'python-literals', 'json-repair'],
    },
  ])('parses $text', ({ text, value, fixes }) => {
    expect(parseLenientJson(text)).toEqual({ ok: true, value, fixes });
  });

  it('reports text it cannot read', () => {
    const result = parseLenientJson('{"a":1} {"b":2} trailing');
    expect(result.ok).toBe(false);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseLenientJson(text)));
  });
});

describe('replacePythonLiterals', () => {
  it('replaces only bare words outside strings', () => {
    expect(replacePythonLiterals(`{'a': True, "b": "None", 'c': 'False', Truer: NoneX, d: None}`)).toBe(
      `{'a': true, "b": "None", 'c': 'False', Truer: NoneX, d: null}`,
    );
    expect(replacePythonLiterals('{"a": "x\\"True", "b": False}')).toBe('{"a": "x\\"True", "b": false}');
    expect(replacePythonLiterals('{"constructor": toString}')).toBe('{"constructor": toString}');
  });
});

describe('stripCodeFence', () => {
  it('returns the body of a fence that is the whole text', () => {
    expect(stripCodeFence('  ```json\n{"a":1}\n```  ')).toBe('{"a":1}');
    expect(stripCodeFence('{"a":1}')).toBeUndefined();
  });
});
