import { SpineError } from '../../core/spine-error.js';
import { parseRetryAfterMs, parseShouldRetry } from './parse-retry-after.js';

/**
 * Copies the HTTP status and the server's retry hints (`retry-after-ms`, `retry-after`, `x-should-retry`)
 * into the error's details, where the retry policy reads them.
 */
export function attachRetryHints(
  error: SpineError,
  response: { status: number; headers: Record<string, string> },
  now: number,
): SpineError {
  const details: Record<string, unknown> = {
    ...error.details,
    status: error.details.status ?? response.status,
  };
  const retryAfterMs = parseRetryAfterMs(response.headers, now);
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  const shouldRetry = parseShouldRetry(response.headers);
  if (shouldRetry !== undefined) details.shouldRetry = shouldRetry;
  const copy = new SpineError({
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    details,
    cause: error.cause,
  });
  if (error.stack) copy.stack = error.stack;
  return copy;
}
