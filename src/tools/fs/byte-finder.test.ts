import { describe, expect, test } from 'vitest';
import { createByteFinder } from './byte-finder.js';

/** Every place `needle` starts in `haystack`, found with the finder, stepping one byte past each. */
function allPlaces(haystack: Buffer, needle: Buffer): number[] {
  const find = createByteFinder(needle);
  const places: number[] = [];
  for (let at = find(haystack, 0); at !== -1; at = find(haystack, at + 1)) places.push(at);
  return places;
}

function allPlacesByIndexOf(haystack: Buffer, needle: Buffer): number[] {
  const places: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) places.push(at);
  return places;
}

describe('createByteFinder', () => {
  test.each([
    ['a rare byte in the middle', 'xx needle_qx7 yy needle_qx needle_qx7', 'needle_qx7'],
    ['the rare byte first and last', 'q..zq zqz q zq', 'zq'],
    ['a needle at the very start and end', 'Zeta and more Zeta', 'Zeta'],
    ['only common bytes (searched whole)', 'the then other the', 'the'],
    ['a single byte', 'a|b|c', '|'],
    ['a rare byte repeated in the needle', 'qq qqq q qqqq', 'qqq'],
    ['a needle longer than the text', 'short', 'much longer needle'],
    ['multibyte characters', 'café — naïve café', 'é —'],
    ['the rare byte near the end of the text, the needle cut off', 'abc needle_q', 'needle_qx'],
  ])('%s: the same places as Buffer.indexOf', (_, text, needle) => {
    const haystack = Buffer.from(text);
    const bytes = Buffer.from(needle);
    expect(allPlaces(haystack, bytes)).toEqual(allPlacesByIndexOf(haystack, bytes));
  });

  test('a rare byte that is common in the text: switches to whole searches and still finds every place', () => {
    const haystack = Buffer.from(`${'q'.repeat(5000)}needle_q${'q'.repeat(500)}needle_qx7 and needle_qx7`);
    const needle = Buffer.from('needle_qx7');
    expect(allPlaces(haystack, needle)).toEqual(allPlacesByIndexOf(haystack, needle));
    expect(allPlaces(haystack, needle)).toHaveLength(2);
  });

  test('random texts and needles over a small alphabet agree with Buffer.indexOf', () => {
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const alphabet = 'eqz \nx7';
    const make = (length: number) =>
      Buffer.from(Array.from({ length }, () => alphabet[random(alphabet.length)]).join(''));
    for (let round = 0; round < 500; round += 1) {
      const haystack = make(random(300));
      const needle =
        round % 3 === 0 && haystack.length > 4
          ? haystack.subarray(random(haystack.length - 3), haystack.length)
          : make(1 + random(5));
      expect(allPlaces(haystack, Buffer.from(needle))).toEqual(
        allPlacesByIndexOf(haystack, Buffer.from(needle)),
      );
    }
  });
});
