/** The little of a stream the renderers need; `process.stdout` and `process.stderr` are ones. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width. */
  columns?: number;
}

const dimOn = '\u001b[2m';
const dimOff = '\u001b[22m';

/** A stream that remembers whether it is at the start of a line, so output never runs on into a prompt. */
export class TerminalOutput {
  readonly #stream: OutputStream;
  readonly #styled: boolean;
  #atLineStart = true;

  constructor(stream: OutputStream, env: NodeJS.ProcessEnv = process.env) {
    this.#stream = stream;
    // https://no-color.org: a non-empty NO_COLOR turns every escape code off, even on a terminal.
    this.#styled = Boolean(stream.isTTY) && !env.NO_COLOR;
  }

  get stream(): OutputStream {
    return this.#stream;
  }

  get atLineStart(): boolean {
    return this.#atLineStart;
  }

  write(text: string): void {
    if (text === '') return;
    this.#stream.write(text);
    this.#atLineStart = text.endsWith('\n');
  }

  /** Faint text on a terminal; plain text in a pipe or a file (no escape codes in logs) or under NO_COLOR. */
  writeDim(text: string): void {
    if (text === '') return;
    if (!this.#styled) {
      this.write(text);
      return;
    }
    // The line break stays outside the escape codes, so the line-start tracking still sees it.
    const body = text.replace(/\n+$/, '');
    this.write(`${body === '' ? '' : `${dimOn}${body}${dimOff}`}${text.slice(body.length)}`);
  }

  /** Ends the current line if something was written on it. */
  endLine(): void {
    if (!this.#atLineStart) this.write('\n');
  }

  /** A whole line of its own. */
  line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
  }

  /** A line of its own, cut to the terminal's width so a long tool result does not wrap (whole in pipes). */
  shortLine(text: string): void {
    const width = this.#stream.isTTY ? (this.#stream.columns ?? 0) : 0;
    this.line(width > 1 && text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text);
  }
}
