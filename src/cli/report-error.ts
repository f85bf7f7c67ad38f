import { SpineError } from '../core/spine-error.js';

/** Any failure as `{ code, message }`: SpineErrors keep their code, anything else is a usage error. */
export function toErrorBody(error: unknown): {
  code: string;
  message: string;
  details?: Record<string, unknown>;
} {
  if (SpineError.is(error)) return error.toJSON();
  return { code: 'CONFIG_INVALID', message: error instanceof Error ? error.message : String(error) };
}

/** The exit status of a usage or configuration error: nothing was sent. */
export const configErrorExitCode = 2;

/** Prints a failure the CLI way: `CODE: message` on stderr (never a stack), and the JSON object on stdout with --json. */
export function reportError(error: unknown, json: boolean): void {
  const body = toErrorBody(error);
  process.stderr.write(`${body.code}: ${body.message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error: body })}\n`);
  // DECISIONS: a usage or configuration error (nothing was sent) is 2, any other failure 1.
  process.exitCode = body.code === 'CONFIG_INVALID' ? configErrorExitCode : 1;
}
