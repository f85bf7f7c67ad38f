import { describe, expect, it } from 'vitest';
import { stableStringify } from './stable-stringify.js';

describe('stableStringify', () => {
  it('gives equal strings for objects that differ only in key order', () => {
    expect(stableStringify({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      stableStringify({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
  });
  it('keeps array order', () => {
    expect(stableStringify([2, 1])).not.toBe(stableStringify([1, 2]));
  });
});
