/** Pieces gathered before they are joined into one chunk: bounds the per-piece overhead. */
const piecesPerChunk = 512;

/**
 * Text gathered from many small deltas over a long stream. `a += b` would keep every delta as a node of a
 * string tree (about 32 bytes each on V8) until the whole string is read, so a stream of a million one-token
 * deltas would cost tens of megabytes beyond its text; here the pieces are joined every few hundred.
 */
export class TextBuffer {
  #chunks: string[] = [];
  #pieces: string[] = [];
  #length = 0;

  append(text: string): void {
    if (text === '') return;
    this.#pieces.push(text);
    this.#length += text.length;
    if (this.#pieces.length >= piecesPerChunk) {
      this.#chunks.push(this.#pieces.join(''));
      this.#pieces = [];
    }
  }

  get length(): number {
    return this.#length;
  }

  toString(): string {
    const whole = this.#chunks.join('') + this.#pieces.join('');
    this.#chunks = whole === '' ? [] : [whole];
    this.#pieces = [];
    return whole;
  }
}
