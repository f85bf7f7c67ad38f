import { Writable } from 'node:stream';

/**
 * The terminal as readline sees it, with a mute switch. While the model streams, keys typed ahead must not
 * be echoed into the answer; readline still collects them (and Ctrl+C), and shows them again at the prompt.
 */
export class MutableOutput extends Writable {
  readonly #target: NodeJS.WriteStream;
  muted = false;

  constructor(target: NodeJS.WriteStream) {
    super();
    this.#target = target;
    target.on('resize', () => this.emit('resize'));
  }

  get isTTY(): boolean {
    return this.#target.isTTY;
  }

  get columns(): number {
    return this.#target.columns;
  }

  get rows(): number {
    return this.#target.rows;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    // Written and acknowledged at once, so readline's output stays in order with direct writes to stdout.
    if (!this.muted) this.#target.write(chunk);
    callback();
  }
}
