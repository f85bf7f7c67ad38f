import type { Clock } from '../core/deps.js';
import { SpineError } from '../core/spine-error.js';
import type { ToolResult } from '../core/types.js';
import type { ToolContext } from './define-tool.js';
import { toolFailure, toThrownToolResult, toToolResult } from './to-tool-result.js';

export interface RunToolOptions {
  toolName: string;
  execute: (context: ToolContext) => unknown;
  context: Omit<ToolContext, 'signal'>;
  /** The run's signal: passed on to the tool, which decides how to stop (a file write finishes first). */
  signal?: AbortSignal;
  timeoutMs: number;
  clock: Clock;
}

/** How long a cancelled tool may take to stop by itself (a write finishing its rename) before it is abandoned. */
export const abandonGraceMs = 250;

/**
 * Runs one tool to a ToolResult. The run's abort is forwarded to the tool, which decides how to stop (a file
 * write finishes first); a tool that has not returned `abandonGraceMs` later is abandoned with `E_ABORTED`,
 * so Ctrl+C ends the turn at once even with a tool that ignores its signal. The timeout stops waiting the same
 * way, with `E_TIMEOUT`. A late answer of an abandoned tool is dropped.
 */
export async function runToolWithTimeout(options: RunToolOptions): Promise<ToolResult> {
  const timeoutController = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, timeoutController.signal])
    : timeoutController.signal;
  const running = Promise.resolve()
    .then(() => options.execute({ ...options.context, signal }))
    .then(toToolResult, toThrownToolResult);
  const timers = new AbortController();
  const stops: Array<Promise<ToolResult | undefined>> = [running];
  if (Number.isFinite(options.timeoutMs) && options.timeoutMs > 0) {
    stops.push(
      options.clock.sleep(options.timeoutMs, timers.signal).then(
        () => {
          const message = `tool "${options.toolName}" did not finish within ${options.timeoutMs} ms`;
          timeoutController.abort(new SpineError({ code: 'E_TIMEOUT', message }));
          return toolFailure('E_TIMEOUT', message, { timeoutMs: options.timeoutMs });
        },
        () => undefined,
      ),
    );
  }
  if (options.signal !== undefined) stops.push(abandonAfterAbort(options, timers.signal));
  try {
    // A stop that was itself cancelled gives undefined; the tool's own result always arrives eventually.
    const first = await Promise.race(stops);
    return first ?? (await running);
  } finally {
    timers.abort();
  }
}

async function abandonAfterAbort(
  options: RunToolOptions,
  stop: AbortSignal,
): Promise<ToolResult | undefined> {
  const runSignal = options.signal as AbortSignal;
  if (!runSignal.aborted) {
    const aborted = await new Promise<boolean>((resolve) => {
      const onAbort = () => {
        stop.removeEventListener('abort', onStop);
        resolve(true);
      };
      const onStop = () => {
        runSignal.removeEventListener('abort', onAbort);
        resolve(false);
      };
      runSignal.addEventListener('abort', onAbort, { once: true });
      stop.addEventListener('abort', onStop, { once: true });
    });
    if (!aborted) return undefined;
  }
  const waited = await options.clock.sleep(abandonGraceMs, stop).then(
    () => true,
    () => false,
  );
  if (!waited) return undefined;
  return toolFailure(
    'E_ABORTED',
    `tool "${options.toolName}" was abandoned: the run was cancelled and it did not stop within ${abandonGraceMs} ms`,
    { abandoned: true },
  );
}
