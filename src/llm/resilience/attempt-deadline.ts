import type { Clock } from '../../core/deps.js';
import { SpineError } from '../../core/spine-error.js';

export type TimeoutPhase = 'first-byte' | 'idle' | 'total';

export interface AttemptDeadlineOptions {
  clock: Clock;
  /** Whole attempt, from sending to the last body byte; 0 disables. */
  timeoutMs: number;
  /** Longest silence between body chunks once headers arrived; 0 disables. */
  idleTimeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

const swallow = () => {};

/**
 * The clocks and the cancel switch of one HTTP attempt. `signal` aborts when the caller aborts or a timeout
 * fires; `failure` then says which, so a transport error caused by the abort is reported as what it was.
 * `dispose()` cancels every timer and removes the listener on the caller's signal.
 */
export class AttemptDeadline {
  private readonly controller = new AbortController();
  private readonly timers = new AbortController();
  private readonly options: AttemptDeadlineOptions;
  private headersReceived = false;
  private lastActivity = 0;
  private failureError: SpineError | undefined;

  constructor(options: AttemptDeadlineOptions) {
    this.options = options;
    const userSignal = options.signal;
    if (userSignal?.aborted) this.fail(createAbortedError(userSignal.reason));
    else userSignal?.addEventListener('abort', this.onUserAbort);
    if (options.timeoutMs > 0 && !this.failureError) {
      options.clock.sleep(options.timeoutMs, this.timers.signal).then(this.onTotalTimeout, swallow);
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

  /** The status line arrived: the first-byte phase is over and the idle clock starts. */
  markHeadersReceived(): void {
    this.headersReceived = true;
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

  private readonly onTotalTimeout = (): void => {
    const phase: TimeoutPhase = this.headersReceived ? 'total' : 'first-byte';
    this.fail(createTimeoutError(phase, this.options.timeoutMs));
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
  'first-byte': (ms) => `first-byte timeout: no response headers within ${ms} ms`,
  idle: (ms) => `idle timeout: no data from the server for ${ms} ms`,
  total: (ms) => `total timeout: the response did not complete within ${ms} ms`,
};

/** Only a timeout before the first byte is retried: after it, the server was working and may still be. */
export function createTimeoutError(phase: TimeoutPhase, timeoutMs: number): SpineError {
  return new SpineError({
    code: 'LLM_TIMEOUT',
    message: timeoutMessages[phase](timeoutMs),
    retryable: phase === 'first-byte',
    details: { phase, timeoutMs },
  });
}

export function createAbortedError(reason: unknown): SpineError {
  return new SpineError({ code: 'LLM_ABORTED', message: 'the model call was aborted', cause: reason });
}
