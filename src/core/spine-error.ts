import type { ErrorCode } from './error-codes.js';
import { redactSecrets, redactSecretsDeep } from './secrets.js';

const brand = Symbol.for('spine.error');

export interface SpineErrorOptions {
  code: ErrorCode;
  message: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error type Spine throws. `code` is stable; `retryable` is decided where the error is made
 * and only read by the retry layer.
 */
export class SpineError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown>;
  readonly [brand] = true;

  constructor(options: SpineErrorOptions) {
    // Redacted here, once, so that no error Spine makes can carry a credential a runner echoed back.
    super(redactSecrets(options.message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SpineError';
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.details = redactSecretsDeep(options.details ?? {});
  }

  /** True for a SpineError from any copy of the package (brand check, not instanceof). */
  static is(value: unknown): value is SpineError {
    return typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
  }

  /** A plain object for JSON output: `{ code, message, details? }`. */
  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return Object.keys(this.details).length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}
