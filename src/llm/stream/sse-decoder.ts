import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser';
import { SpineError } from '../../core/spine-error.js';

/** One dispatched server-sent event. `event` is undefined for the default (`message`) type. */
export interface SseMessage {
  event?: string | undefined;
  data: string;
}

/**
 * Bytes → server-sent events, safe across any split (inside a UTF-8 character, between CR and LF).
 *
 * Built on eventsource-parser 3: it is spec-complete (CR, LF and CRLF line ends including a CR|LF split across
 * feeds, comments, `event:`/`id:`/`retry:`, a BOM), never dispatches an event without a `data` line, and its
 * no-CR fast path slices each data line once, which is as cheap as a hand loop. It also reports unknown
 * fields through `onError`, which is how llama.cpp's non-standard `error: {...}` line (RUNNER-QUIRKS §22) is
 * seen: it comes out as an `error` event carrying the line's value as data. One streaming TextDecoder turns
 * bytes into text (invalid bytes become U+FFFD; decoding never throws).
 */
export class SseDecoder {
  private readonly textDecoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private pending: SseMessage[] = [];
  /** The last few characters fed: whether the body stopped on an event boundary. */
  private tail = '';

  constructor() {
    this.parser = createParser({
      onEvent: (message) => this.pending.push(message),
      onError: (error: ParseError) => {
        if (error.type === 'unknown-field' && error.field === 'error')
          this.pending.push({ event: 'error', data: error.value ?? '' });
      },
    });
  }

  /** Feeds raw bytes; returns the events completed by them. */
  push(chunk: Uint8Array): readonly SseMessage[] {
    const text = this.textDecoder.decode(chunk, { stream: true });
    if (text !== '') {
      this.parser.feed(text);
      this.tail = text.length >= 4 ? text.slice(-4) : (this.tail + text).slice(-4);
    }
    return this.takePending();
  }

  /**
   * End of body: decodes any trailing bytes and dispatches a last event left without its blank line
   * (llama-server ends with `data: [DONE]` and no blank line, RUNNER-QUIRKS §20). A last event that is neither
   * `[DONE]` nor whole JSON was cut by a dropped connection: that is `LLM_CONNECTION`, not a malformed answer.
   */
  flush(): readonly SseMessage[] {
    const text = this.textDecoder.decode();
    const tail = (this.tail + text).slice(-4);
    const onBoundary = tail === '' || /(?:\n\n|\r\r|\r\n\r\n)$/.test(tail);
    // Two line ends close an unterminated line (a trailing CR becomes CRLF) and then dispatch the event.
    this.parser.feed(`${text}\n\n`);
    const messages = this.takePending();
    const last = messages.at(-1);
    if (!onBoundary && last !== undefined && last.data !== '[DONE]' && !isWholeJson(last.data)) {
      throw new SpineError({
        code: 'LLM_CONNECTION',
        message: `the connection closed in the middle of an event (${last.data.length} characters of it arrived)`,
        details: { partialEvent: last.data.slice(0, 200) },
      });
    }
    return messages;
  }

  private takePending(): readonly SseMessage[] {
    if (this.pending.length === 0) return noMessages;
    const messages = this.pending;
    this.pending = [];
    return messages;
  }
}

function isWholeJson(data: string): boolean {
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

const noMessages: readonly SseMessage[] = Object.freeze([]);
