import type { OutputStream } from './terminal-output.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const clearLine = '\r\u001b[K';

/**
 * A sign of life while nothing has arrived yet (a model loading, a long prompt being read): a spinner and the
 * seconds waited, on one line of a terminal, erased before anything else is printed. Nothing at all when the
 * stream is a pipe or a file, so logs and `--json` output never see it.
 */
export class WaitIndicator {
  readonly #stream: OutputStream;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #label = '';
  #startedAt = 0;
  #frame = 0;

  constructor(stream: OutputStream, options: { intervalMs?: number; now?: () => number } = {}) {
    this.#stream = stream;
    this.#intervalMs = options.intervalMs ?? 100;
    this.#now = options.now ?? Date.now;
  }

  get active(): boolean {
    return this.#timer !== undefined;
  }

  start(label: string): void {
    if (!this.#stream.isTTY) return;
    this.stop();
    this.#label = label;
    this.#startedAt = this.#now();
    this.#frame = 0;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), this.#intervalMs);
    // A spinner never keeps the process alive on its own.
    this.#timer.unref();
  }

  /** Changes what the running spinner says, keeping its clock. */
  relabel(label: string): void {
    this.#label = label;
  }

  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stream.write(clearLine);
  }

  #draw(): void {
    const seconds = Math.floor((this.#now() - this.#startedAt) / 1000);
    const frame = frames[this.#frame++ % frames.length];
    this.#stream.write(`${clearLine}${frame} ${this.#label}${seconds > 0 ? ` ${seconds}s` : ''}`);
  }
}
