import { redactSecrets } from '../core/secrets.js';

/**
 * Blanks every registered credential (`core/secrets.ts`) out of what the CLI prints, on stdout and stderr alike:
 * an answer, a tool result, a `--json` document or an error may quote a key a runner echoed back. One place for
 * every command, so that no new print can forget it.
 */
export function redactOutputStreams(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? redactSecrets(chunk) : chunk, ...rest)) as typeof stream.write;
  }
}
