/** Deltas joined into one flat string at a time: enough to keep the survivors few, small enough to die young. */
const deltasPerPart = 1024;

/**
 * Collects a stream's text deltas for reading once at the end. `text += delta` would keep one cons string per
 * delta alive until the end (200,000 of them for a 200 KB answer streamed a byte at a time), which the garbage
 * collector copies again and again: that was most of the CPU of such a stream. Joining every thousand deltas
 * into one flat part keeps a handful.
 */
export class TextAccumulator {
  #parts: string[] = [];
  #recent: string[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  append(text: string): void {
    this.#recent.push(text);
    this.#length += text.length;
    if (this.#recent.length === deltasPerPart) {
      this.#parts.push(this.#recent.join(''));
      this.#recent = [];
    }
  }

  toString(): string {
    return this.#parts.join('') + this.#recent.join('');
  }
}
