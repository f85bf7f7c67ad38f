import { describe, expect, it } from 'vitest';
import { SpineError } from './spine-error.js';

describe('SpineError', () => {
  it('is recognised by brand, keeps its cause and serialises without a stack', () => {
    const cause = new Error('socket hang up');
    const error = new SpineError({ code: 'LLM_CONNECTION', message: 'lost', retryable: true, cause });
    expect(SpineError.is(error)).toBe(true);
    expect(SpineError.is(new Error('x'))).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.retryable).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'LLM_CONNECTION', message: 'lost' });
  });
});
