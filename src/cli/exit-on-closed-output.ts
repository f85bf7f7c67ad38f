/** The exit status of a Unix tool killed by SIGPIPE (128 + 13), which is what `spine … | head` should look like. */
export const closedOutputExitCode = 141;

/**
 * A reader that went away (`spine … | head -1`) is the normal end of a pipeline, not a crash: Node reports it as
 * an EPIPE error on the stream, which without a listener is thrown with a stack trace. End quietly instead, as
 * any Unix tool does; other stream errors still surface.
 */
export function exitQuietlyOnClosedOutput(
  streams: NodeJS.WriteStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') process.exit(closedOutputExitCode);
      throw error;
    });
  }
}
