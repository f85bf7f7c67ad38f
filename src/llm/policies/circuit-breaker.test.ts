import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/support/fake-clock.js';
import { SpineError } from '../../core/spine-error.js';
import { type CircuitState, classifyOutcome, createCircuitBreaker } from './circuit-breaker.js';

function setup(failureThreshold = 3, coolDownMs = 10_000) {
  const clock = createFakeClock();
  const changes: string[] = [];
  const breaker = createCircuitBreaker({
    name: 'role coding',
    failureThreshold,
    coolDownMs,
    clock,
    onStateChange: (state: CircuitState, previous: CircuitState) => changes.push(`${previous}->${state}`),
  });
  return { clock, breaker, changes };
}

function circuitOpenCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return SpineError.is(error) ? error.code : 'other';
  }
  return undefined;
}

describe('createCircuitBreaker', () => {
  it('opens after N consecutive failures and refuses calls with LLM_CIRCUIT_OPEN', () => {
    const { breaker, changes } = setup(3);
    breaker.admit()('failure');
    breaker.admit()('failure');
    expect(breaker.state).toBe('closed');
    breaker.admit()('failure');
    expect(breaker.state).toBe('open');
    expect(circuitOpenCode(() => breaker.admit())).toBe('LLM_CIRCUIT_OPEN');
    expect(changes).toEqual(['closed->open']);
  });

  it('counts only consecutive failures: a success in between resets the count', () => {
    const { breaker } = setup(2);
    breaker.admit()('failure');
    breaker.admit()('success');
    breaker.admit()('failure');
    expect(breaker.state).toBe('closed');
    breaker.admit()('neutral');
    breaker.admit()('failure');
    expect(breaker.state).toBe('open');
  });

  it('goes half-open after the cool-down, lets one trial through, and closes on its success', async () => {
    const { breaker, clock, changes } = setup(1, 10_000);
    breaker.admit()('failure');
    await clock.advance(9_999);
    expect(breaker.state).toBe('open');
    await clock.advance(1);
    expect(breaker.state).toBe('half-open');
    const trial = breaker.admit();
    expect(circuitOpenCode(() => breaker.admit())).toBe('LLM_CIRCUIT_OPEN');
    trial('success');
    expect(breaker.state).toBe('closed');
    expect(circuitOpenCode(() => breaker.admit())).toBeUndefined();
    expect(changes).toEqual(['closed->open', 'open->half-open', 'half-open->closed']);
  });

  it('opens again with a fresh cool-down when the trial fails', async () => {
    const { breaker, clock } = setup(1, 5_000);
    breaker.admit()('failure');
    await clock.advance(5_000);
    breaker.admit()('failure');
    expect(breaker.state).toBe('open');
    await clock.advance(4_000);
    expect(breaker.state).toBe('open');
    await clock.advance(1_000);
    expect(breaker.state).toBe('half-open');
  });

  it('frees the trial slot when the trial was neither a success nor a failure', async () => {
    const { breaker, clock } = setup(1, 1_000);
    breaker.admit()('failure');
    await clock.advance(1_000);
    breaker.admit()('neutral');
    expect(breaker.state).toBe('half-open');
    expect(circuitOpenCode(() => breaker.admit())).toBeUndefined();
  });

  it('says how long is left in the error details', async () => {
    const { breaker, clock } = setup(1, 10_000);
    breaker.admit()('failure');
    await clock.advance(4_000);
    try {
      breaker.admit();
    } catch (error) {
      expect(SpineError.is(error) && error.details).toEqual({ name: 'role coding', retryAfterMs: 6_000 });
    }
    expect.assertions(1);
  });
});

describe('classifyOutcome', () => {
  it.each([
    [new SpineError({ code: 'LLM_SERVER_ERROR', message: '', retryable: true }), 'failure'],
    [new SpineError({ code: 'LLM_TIMEOUT', message: '', retryable: true }), 'failure'],
    [new SpineError({ code: 'LLM_HTTP_ERROR', message: '', retryable: false }), 'success'],
    [new SpineError({ code: 'LLM_ABORTED', message: '' }), 'neutral'],
    [new TypeError('bug'), 'failure'],
  ])('%s → %s', (error, expected) => {
    expect(classifyOutcome(error)).toBe(expected);
  });
});
