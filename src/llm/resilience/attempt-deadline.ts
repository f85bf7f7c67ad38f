import type { Clock } from '../../core/deps.js';
import { SpineError } from '../../core/spine-error.js';

export type TimeoutPhase = 'first-byte' | 'idle' | 'total';

/** The end of a whole model call, retries and their waits included. */
export interface CallDeadline {
  /** Clock time by which the call must be done. */
  at: number;
  /** The configured total, for the message. */
  timeoutMs: number;
}

export interface AttemptDeadlineOptions {
  clock: Clock;
  /** The whole call's end; undefined when the call has no total limit. */
  callDeadline?: CallDeadline;
  /** Longest wait for the response headers of this attempt; 0 disables. */
  firstByteTimeoutMs: number;
  /** Longest silence between body chunks once headers arrived; 0 disables. */
  idleTimeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

const swallow = () => {};

/**
 * The clocks and the cancel switch of one HTTP attempt. `signal` aborts when the caller aborts or a timeout
 * fires; `failure` then says which, so a transport error caused by the abort is reported as what it was.
 * Three clocks: the wait for headers (first byte), the silence between chunks (idle), and the end of the whole
 * call, shared by its attempts (total). `dispose()` cancels every timer and the listener on the caller's signal.
 */
export class AttemptDeadline {
  private readonly controller = new AbortController();
  private readonly timers = new AbortController();
  private readonly firstByteTimer = new AbortController();
  private readonly options: AttemptDeadlineOptions;
  private headersReceived = false;
  private lastActivity = 0;
  private failureError: SpineError | undefined;

  constructor(options: AttemptDeadlineOptions) {
    this.options = options;
    const userSignal = options.signal;
    if (userSignal?.aborted) this.fail(createAbortedError(userSignal.reason));
    else userSignal?.addEventListener('abort', this.onUserAbort);
    if (this.failureError) return;
    const { callDeadline, clock, firstByteTimeoutMs } = options;
    if (callDeadline !== undefined) {
      const remaining = callDeadline.at - clock.now();
      if (remaining <= 0) this.onTotalTimeout();
      else clock.sleep(remaining, this.timers.signal).then(this.onTotalTimeout, swallow);
    }
    if (firstByteTimeoutMs > 0 && !this.failureError) {
      const signal = AbortSignal.any([this.timers.signal, this.firstByteTimer.signal]);
      clock.sleep(firstByteTimeoutMs, signal).then(this.onFirstByteTimeout, swallow);
    }
  }

  /** Aborted on caller abort or timeout; give it to the transport. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The abort or timeout that ended the attempt, if one did. */
  get failure(): SpineError | undefined {
    return this.failureError;
  }

  /** The status line arrived: the first-byte clock stops and the idle clock starts. */
  markHeadersReceived(): void {
    this.headersReceived = true;
    this.firstByteTimer.abort();
    this.lastActivity = this.options.clock.now();
    if (this.options.idleTimeoutMs > 0) void this.watchIdle(this.options.idleTimeoutMs);
  }

  /** Any body bytes (comments and keep-alives too) prove the server is alive. */
  touch(): void {
    this.lastActivity = this.options.clock.now();
  }

  dispose(): void {
    this.timers.abort();
    this.options.signal?.removeEventListener('abort', this.onUserAbort);
  }

  private readonly onUserAbort = (): void => {
    this.fail(createAbortedError(this.options.signal?.reason));
  };

  private readonly onFirstByteTimeout = (): void => {
    if (!this.headersReceived) this.fail(createTimeoutError('first-byte', this.options.firstByteTimeoutMs));
  };

  private readonly onTotalTimeout = (): void => {
    const total = this.options.callDeadline?.timeoutMs ?? 0;
    this.fail(createTimeoutError('total', total, { headersReceived: this.headersReceived }));
  };

  private async watchIdle(idleTimeoutMs: number): Promise<void> {
    let wait = idleTimeoutMs;
    while (!this.failureError) {
      try {
        await this.options.clock.sleep(wait, this.timers.signal);
      } catch {
        return;
      }
      const silentFor = this.options.clock.now() - this.lastActivity;
      if (silentFor >= idleTimeoutMs) return this.fail(createTimeoutError('idle', idleTimeoutMs));
      wait = idleTimeoutMs - silentFor;
    }
  }

  private fail(error: SpineError): void {
    if (this.failureError) return;
    this.failureError = error;
    this.dispose();
    this.controller.abort(error);
  }
}

const timeoutMessages: Record<TimeoutPhase, (ms: number) => string> = {
  'first-byte': (ms) =>
    `first-byte timeout: no response headers within ${ms} ms (raise it with --first-byte-timeout / firstByteTimeoutMs)`,
  idle: (ms) =>
    `idle timeout: no data from the server for ${ms} ms (raise it with --idle-timeout / idleTimeoutMs)`,
  total: (ms) =>
    `total timeout: the call did not complete within ${ms} ms, retries included (raise it with --timeout / timeoutMs)`,
};

/**
 * No timeout is retried: after a first-byte timeout the server holds the request (a local runner is still
 * loading or working on it, and a second request would only queue behind the first), after an idle one it was
 * working, and after the total one there is no time left (docs/decisions.md, "Timeouts").
 */
export function createTimeoutError(
  phase: TimeoutPhase,
  timeoutMs: number,
  extra: Record<string, unknown> = {},
): SpineError {
  return new SpineError({
    code: 'LLM_TIMEOUT',
    message: timeoutMessages[phase](timeoutMs),
    retryable: false,
    details: { phase, timeoutMs, ...extra },
  });
}

export function createAbortedError(reason: unknown): SpineError {
  return new SpineError({ code: 'LLM_ABORTED', message: 'the model call was aborted', cause: reason });
}
