import { SpineError } from '../../core/spine-error.js';
import { describeUrl } from '../errors/describe-url.js';
import { hintFor } from '../errors/explain-failure.js';

/**
 * Socket-level failures (ECONNREFUSED, ECONNRESET, undici's "other side closed", fetch's "fetch failed")
 * become one retryable LLM_CONNECTION error. The network code is kept in `details.cause` for diagnosis.
 */
export function toConnectionError(error: unknown, url: string): SpineError {
  if (SpineError.is(error)) return error;
  const code = findErrorCode(error);
  const message = describe(error);
  const shownUrl = describeUrl(url);
  if (code?.startsWith('Z_') || code?.startsWith('ERR_BROTLI') || code?.startsWith('ERR__ERROR_FORMAT')) {
    return new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `the compressed response from ${shownUrl} could not be decoded: ${message}`,
      retryable: true,
      details: { url: shownUrl, zlibCode: code },
      cause: error,
    });
  }
  const failure = new SpineError({
    code: 'LLM_CONNECTION',
    message: `connection to ${shownUrl} failed: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`,
    retryable: true,
    details: code ? { url: shownUrl, networkCode: code } : { url: shownUrl },
    cause: error,
  });
  const hint = hintFor(failure, url);
  if (hint === undefined) return failure;
  return new SpineError({
    code: failure.code,
    message: `${failure.message} (${hint})`,
    retryable: true,
    details: { ...failure.details, hint },
    cause: error,
  });
}

function findErrorCode(error: unknown): string | undefined {
  // fetch wraps the socket error in `cause`; undici's own errors carry `code` directly.
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (error.message === 'fetch failed' && cause instanceof Error) return cause.message;
  return error.message || error.name;
}
