import { describe, expect, it } from 'vitest';
import { isCutOffJson } from './is-cut-off-json.js';

describe('isCutOffJson', () => {
  it('is true inside a string or after a separator', () => {
    expect(isCutOffJson('{"path":"a.py","content":"def f(')).toBe(true);
    expect(isCutOffJson('{"a": "say \\"hi')).toBe(true);
    expect(isCutOffJson('{"a": 1,')).toBe(true);
    expect(isCutOffJson('{"a":')).toBe(true);
  });

  it('is false when only closing brackets are missing, or nothing is', () => {
    expect(isCutOffJson('{"task": {"title": "Buy milk", "done": false')).toBe(false);
    expect(isCutOffJson('{"a": "x\\\\"')).toBe(false);
    expect(isCutOffJson('{"a": [1, 2]}')).toBe(false);
    expect(isCutOffJson('')).toBe(false);
  });
});
