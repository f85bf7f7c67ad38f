import type { SpineError } from '../../core/spine-error.js';
import { computeExponentialBackoff, computeLinearBackoff } from './compute-backoff.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries: number;
  /** Exponential backoff base (default 500 ms). */
  baseDelayMs: number;
  /** Exponential backoff cap (default 8 s). */
  maxDelayMs: number;
  /** Linear backoff step for unparseable bodies (default 1 s). */
  badResponseDelayMs: number;
  /** A server-requested wait longer than this is ignored in favour of backoff (default 60 s). */
  maxRetryAfterMs: number;
}

export const defaultRetryOptions: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  badResponseDelayMs: 1_000,
  maxRetryAfterMs: 60_000,
};

export interface RetryDecision {
  delayMs: number;
  reason: string;
}

/** Errors no server hint can make worth repeating. */
const neverRetried = new Set(['LLM_ABORTED', 'LLM_AUTH_FAILED', 'LLM_CONTEXT_OVERFLOW']);

/**
 * Whether a failed attempt is tried again, and after how long. `retriesDone` counts the retries already made;
 * once content reached the caller nothing is retried, since a second answer cannot be un-shown.
 */
export function decideRetry(
  error: SpineError,
  context: { retriesDone: number; contentEmitted: boolean; options: RetryOptions; random: () => number },
): RetryDecision | undefined {
  const { retriesDone, options } = context;
  if (retriesDone >= options.maxRetries || context.contentEmitted || neverRetried.has(error.code))
    return undefined;
  const shouldRetry = error.details.shouldRetry;
  if (shouldRetry === false || (shouldRetry !== true && !error.retryable)) return undefined;
  return { delayMs: computeDelay(error, retriesDone, context), reason: describeReason(error) };
}

function computeDelay(
  error: SpineError,
  retriesDone: number,
  context: { options: RetryOptions; random: () => number },
): number {
  const requested = error.details.retryAfterMs;
  if (typeof requested === 'number' && requested <= context.options.maxRetryAfterMs)
    return Math.ceil(requested);
  if (error.code === 'LLM_BAD_RESPONSE')
    return computeLinearBackoff(retriesDone, context.options.badResponseDelayMs);
  return computeExponentialBackoff(retriesDone, context.options, context.random);
}

function describeReason(error: SpineError): string {
  const status = error.details.status;
  const prefix = typeof status === 'number' ? `HTTP ${status}: ` : '';
  const message = error.message.length > 200 ? `${error.message.slice(0, 200)}…` : error.message;
  return `${prefix}${message}`;
}
