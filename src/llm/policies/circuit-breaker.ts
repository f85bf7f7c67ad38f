import type { Clock } from '../../core/deps.js';
import { SpineError } from '../../core/spine-error.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

/** How a call ended, as the breaker counts it. */
export type CallOutcome = 'success' | 'failure' | 'neutral';

export interface CircuitBreakerOptions {
  /** Consecutive retryable failures that open the circuit. */
  failureThreshold: number;
  /** Time the circuit stays open before one trial call is let through. */
  coolDownMs: number;
  clock: Clock;
  /** Named in LLM_CIRCUIT_OPEN errors and state changes. */
  name: string;
  onStateChange?: (state: CircuitState, previous: CircuitState) => void;
}

export interface CircuitBreaker {
  readonly state: CircuitState;
  /** Admits a call or throws LLM_CIRCUIT_OPEN; the returned function reports how the call ended. */
  admit(): (outcome: CallOutcome) => void;
}

/**
 * Closed → open after N consecutive retryable failures; open → half-open once the cool-down has passed (read
 * from the clock on the next call, so no timer is left behind); half-open lets one trial call through, whose
 * success closes the circuit and whose failure opens it again.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  let state: CircuitState = 'closed';
  let failures = 0;
  let openedAt = 0;
  let trialInFlight = false;

  const moveTo = (next: CircuitState) => {
    if (next === state) return;
    const previous = state;
    state = next;
    options.onStateChange?.(next, previous);
  };

  const open = () => {
    openedAt = options.clock.now();
    moveTo('open');
  };

  const report = (isTrial: boolean, outcome: CallOutcome) => {
    if (isTrial) trialInFlight = false;
    if (outcome === 'neutral') return;
    if (outcome === 'success') {
      failures = 0;
      moveTo('closed');
      return;
    }
    failures += 1;
    if (isTrial || (state === 'closed' && failures >= options.failureThreshold)) open();
  };

  return {
    get state() {
      if (state === 'open' && options.clock.now() - openedAt >= options.coolDownMs) moveTo('half-open');
      return state;
    },
    admit() {
      const current = this.state;
      if (current === 'open' || (current === 'half-open' && trialInFlight)) {
        throw createCircuitOpenError(
          options,
          Math.max(0, openedAt + options.coolDownMs - options.clock.now()),
        );
      }
      const isTrial = current === 'half-open';
      if (isTrial) trialInFlight = true;
      let reported = false;
      return (outcome) => {
        if (reported) return;
        reported = true;
        report(isTrial, outcome);
      };
    },
  };
}

/** Failures that say the endpoint is unwell; anything else (a 400, a bad tool call) says it answered. */
export function classifyOutcome(error: unknown): CallOutcome {
  if (!SpineError.is(error)) return 'failure';
  if (error.code === 'LLM_ABORTED' || error.code === 'LLM_CIRCUIT_OPEN') return 'neutral';
  return error.retryable ? 'failure' : 'success';
}

function createCircuitOpenError(options: CircuitBreakerOptions, retryAfterMs: number): SpineError {
  return new SpineError({
    code: 'LLM_CIRCUIT_OPEN',
    message: `the circuit for ${options.name} is open after repeated failures; next trial in ${Math.ceil(retryAfterMs / 1000)} s`,
    details: { name: options.name, retryAfterMs },
  });
}
