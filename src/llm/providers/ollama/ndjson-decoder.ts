import { SpineError } from '../../../core/spine-error.js';

const maxSnippetLength = 200;

/**
 * Bytes → one parsed JSON value per line (Ollama's `application/x-ndjson`), safe across any split: a line
 * cut between reads, or many lines in one read (RUNNER-QUIRKS §23). Blank lines and CR before LF are
 * ignored. A line that is not JSON is a LLM_BAD_RESPONSE error, never skipped.
 */
export class NdjsonDecoder {
  private readonly textDecoder = new TextDecoder('utf-8');
  /** Text of the line not yet ended, in the pieces it arrived in: each read is searched once, not re-joined. */
  private pending: string[] = [];

  push(chunk: Uint8Array): unknown[] {
    const text = this.textDecoder.decode(chunk, { stream: true });
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      if (text !== '') this.pending.push(text);
      return [];
    }
    this.pending.push(text.slice(0, end));
    const complete = this.pending.join('');
    this.pending = end + 1 < text.length ? [text.slice(end + 1)] : [];
    return parseLines(complete);
  }

  /**
   * End of body: the last line, which may lack its newline. When that line is not whole JSON the body was cut
   * in the middle of it: a dropped connection, not a malformed answer.
   */
  flush(): unknown[] {
    const rest = this.pending.join('') + this.textDecoder.decode();
    this.pending = [];
    const lines = rest.split('\n');
    const last = lines.pop() ?? '';
    const values = parseLines(lines.join('\n'));
    const trimmed = last.trim();
    if (trimmed === '') return values;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new SpineError({
        code: 'LLM_CONNECTION',
        message: `the connection closed in the middle of a line (${trimmed.length} characters of it arrived)`,
        details: { partialLine: trimmed.slice(0, maxSnippetLength) },
      });
    }
    values.push(value);
    return values;
  }
}

function parseLines(text: string): unknown[] {
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') values.push(parseLine(trimmed));
  }
  return values;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    const snippet = line.length > maxSnippetLength ? `${line.slice(0, maxSnippetLength)}…` : line;
    throw new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `the runner sent a line that is not JSON: ${snippet}`,
      retryable: false,
      details: { line: snippet },
      cause: error,
    });
  }
}
