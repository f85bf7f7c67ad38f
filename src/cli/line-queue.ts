/**
 * Input lines waiting for the chat loop. Lines typed (or piped) while a turn runs are kept in order and
 * answered one by one; `next()` resolves undefined once the input has ended and every line was taken.
 */
export class LineQueue<Line = string> {
  readonly #lines: Line[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(line: Line): void {
    this.#lines.push(line);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  /** The line `next()` would give now, if one is waiting. */
  peek(): Line | undefined {
    return this.#lines[0];
  }

  next(): Promise<Line | undefined> {
    if (this.#lines.length > 0 || this.#ended) return Promise.resolve(this.#lines.shift());
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve(this.#lines.shift());
      };
    });
  }
}
