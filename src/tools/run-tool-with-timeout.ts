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

/**
 * Runs one tool to a ToolResult. The run's own abort is only forwarded (the caller waits for the tool to
 * return); the timeout is the one thing that stops waiting: the tool's signal is aborted and `E_TIMEOUT`
 * returned at once, the tool's late answer dropped.
 */
export async function runToolWithTimeout(options: RunToolOptions): Promise<ToolResult> {
  const timeoutController = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, timeoutController.signal])
    : timeoutController.signal;
  const running = Promise.resolve()
    .then(() => options.execute({ ...options.context, signal }))
    .then(toToolResult, toThrownToolResult);
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) return running;
  const timerController = new AbortController();
  const timedOut = options.clock.sleep(options.timeoutMs, timerController.signal).then(
    () => true,
    () => false,
  );
  const winner = await Promise.race([running.then((result) => ({ result })), timedOut.then(() => undefined)]);
  timerController.abort();
  if (winner !== undefined) return winner.result;
  const message = `tool "${options.toolName}" did not finish within ${options.timeoutMs} ms`;
  timeoutController.abort(new SpineError({ code: 'E_TIMEOUT', message }));
  return toolFailure('E_TIMEOUT', message, { timeoutMs: options.timeoutMs });
}
