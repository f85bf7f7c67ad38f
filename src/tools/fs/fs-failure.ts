import type { ToolErrorCode } from '../../core/error-codes.js';
import { SpineError } from '../../core/spine-error.js';

/** Why a path was refused; stable words the model and the audit log can read. */
export type SandboxReason =
  | 'not-a-string'
  | 'empty-path'
  | 'path-too-long'
  | 'nul-byte'
  | 'control-character'
  | 'backslash'
  | 'percent-encoded'
  | 'absolute-path'
  | 'no-mount'
  | 'unknown-mount'
  | 'dot-dot'
  | 'outside-mount'
  | 'symlink-changed'
  | 'mount-root-changed'
  | 'special-file'
  | 'hard-link'
  | 'read-only-mount'
  | 'protected-path'
  | 'hidden-path';

/** A SpineError with a tool code, as every fs tool throws it. */
export function fsError(
  code: ToolErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): SpineError {
  return new SpineError({ code, message, details });
}

/** A refusal: the path leaves the sandbox or is not allowed. Nothing was touched when this is thrown. */
export function sandboxViolation(
  path: string,
  reason: SandboxReason,
  message: string,
  details: Record<string, unknown> = {},
): SpineError {
  return fsError('E_SANDBOX_VIOLATION', `${message} (path ${JSON.stringify(path)})`, {
    path,
    reason,
    ...details,
  });
}

export function isErrnoCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && codes.includes(code);
}
