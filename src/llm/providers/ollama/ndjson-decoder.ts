import { SpineError } from '../../../core/spine-error.js';

const maxSnippetLength = 200;

/**
 * Bytes → one parsed JSON value per line (Ollama's `application/x-ndjson`), safe across any split: a line
 * cut between reads, or many lines in one read (RUNNER-QUIRKS §23). Blank lines and CR before LF are
 * ignored. A line that is not JSON is a LLM_BAD_RESPONSE error, never skipped.
 */
export class NdjsonDecoder {
  private readonly textDecoder = new TextDecoder('utf-8');
  private buffer = '';

  push(chunk: Uint8Array): unknown[] {
    this.buffer += this.textDecoder.decode(chunk, { stream: true });
    const end = this.buffer.lastIndexOf('\n');
    if (end === -1) return [];
    const complete = this.buffer.slice(0, end);
    this.buffer = this.buffer.slice(end + 1);
    return parseLines(complete);
  }

  /** End of body: the last line, which may lack its newline. */
  flush(): unknown[] {
    const rest = this.buffer + this.textDecoder.decode();
    this.buffer = '';
    return parseLines(rest);
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
