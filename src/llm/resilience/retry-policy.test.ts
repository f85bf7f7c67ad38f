import { describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import { computeExponentialBackoff, computeLinearBackoff } from './compute-backoff.js';
import { parseRetryAfterMs, parseShouldRetry } from './parse-retry-after.js';
import { decideRetry, defaultRetryOptions } from './retry-policy.js';

const half = () => 0.5;
function decide(error: SpineError, retriesDone = 0, contentEmitted = false) {
  return decideRetry(error, { retriesDone, contentEmitted, options: defaultRetryOptions, random: half });
}
function error(code: SpineError['code'], retryable: boolean, details: Record<string, unknown> = {}) {
  return new SpineError({ code, message: `${code} happened`, retryable, details });
}

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('prefers retry-after-ms over retry-after', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
  });
  it('reads seconds, fractions and HTTP dates', () => {
    expect(parseRetryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(parseRetryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(parseRetryAfterMs({ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'retry-after': 'Mon, 31 Dec 2029 23:00:00 GMT' }, now)).toBe(0);
  });
  it('ignores absent, negative and unreadable values', () => {
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after-ms': '-5' }, now)).toBeUndefined();
  });
  it('reads x-should-retry', () => {
    expect(parseShouldRetry({ 'x-should-retry': 'true' })).toBe(true);
    expect(parseShouldRetry({ 'x-should-retry': 'false' })).toBe(false);
    expect(parseShouldRetry({ 'x-should-retry': 'maybe' })).toBeUndefined();
  });
});

describe('backoff', () => {
  it('grows exponentially up to the cap, with full jitter', () => {
    const options = { baseDelayMs: 500, maxDelayMs: 8000 };
    expect(
      [0, 1, 2, 3, 4, 5].map((attempt) => computeExponentialBackoff(attempt, options, () => 0.999999)),
    ).toEqual([499, 999, 1999, 3999, 7999, 7999]);
    expect(computeExponentialBackoff(3, options, () => 0)).toBe(0);
  });
  it('grows linearly for unparseable bodies', () => {
    expect([0, 1, 2].map((attempt) => computeLinearBackoff(attempt, 1000))).toEqual([1000, 2000, 3000]);
  });
});

describe('decideRetry', () => {
  it('retries retryable errors with jittered exponential backoff', () => {
    expect(decide(error('LLM_CONNECTION', true))).toEqual({
      delayMs: 250,
      reason: 'LLM_CONNECTION happened',
    });
    expect(decide(error('LLM_SERVER_ERROR', true, { status: 503 }), 1)?.reason).toBe(
      'HTTP 503: LLM_SERVER_ERROR happened',
    );
    expect(decide(error('LLM_SERVER_ERROR', true), 1)?.delayMs).toBe(500);
  });
  it('stops at maxRetries', () => {
    expect(decide(error('LLM_CONNECTION', true), 2)).toBeUndefined();
  });
  it('never retries once content reached the caller', () => {
    expect(decide(error('LLM_CONNECTION', true), 0, true)).toBeUndefined();
  });
  it('never retries aborts, auth failures or context overflow, even when told to', () => {
    for (const code of ['LLM_ABORTED', 'LLM_AUTH_FAILED', 'LLM_CONTEXT_OVERFLOW'] as const) {
      expect(decide(error(code, true, { shouldRetry: true }))).toBeUndefined();
    }
  });
  it('does not retry errors that are not retryable', () => {
    expect(decide(error('LLM_HTTP_ERROR', false, { status: 400 }))).toBeUndefined();
  });
  it('follows x-should-retry both ways', () => {
    expect(decide(error('LLM_HTTP_ERROR', false, { shouldRetry: true }))).toBeDefined();
    expect(decide(error('LLM_SERVER_ERROR', true, { shouldRetry: false }))).toBeUndefined();
  });
  it('waits what the server asked, unless it asked for more than 60 s', () => {
    expect(decide(error('LLM_RATE_LIMITED', true, { retryAfterMs: 1234.2 }))?.delayMs).toBe(1235);
    expect(decide(error('LLM_RATE_LIMITED', true, { retryAfterMs: 61_000 }))?.delayMs).toBe(250);
  });
  it('backs off linearly for unparseable bodies', () => {
    expect(decide(error('LLM_BAD_RESPONSE', true), 0)?.delayMs).toBe(1000);
    expect(decide(error('LLM_BAD_RESPONSE', true), 1)?.delayMs).toBe(2000);
  });
});
