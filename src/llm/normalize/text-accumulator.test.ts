import { describe, expect, it } from 'vitest';
import { TextAccumulator } from './text-accumulator.js';

describe('TextAccumulator', () => {
  it('gives back every delta in order, with the running length, across its internal parts', () => {
    const accumulator = new TextAccumulator();
    const deltas: string[] = [];
    for (let index = 0; index < 3000; index += 1) {
      const delta = index % 7 === 0 ? '' : `${index % 10}${index % 3 === 0 ? 'é\n' : ''}`;
      deltas.push(delta);
      accumulator.append(delta);
      if (index === 1500) expect(accumulator.toString()).toBe(deltas.join(''));
    }
    expect(accumulator.toString()).toBe(deltas.join(''));
    expect(accumulator.length).toBe(deltas.join('').length);
  });

  it('is empty before any delta', () => {
    const accumulator = new TextAccumulator();
    expect(accumulator.toString()).toBe('');
    expect(accumulator.length).toBe(0);
  });
});
