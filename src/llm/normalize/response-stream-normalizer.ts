import type { ModelRequest, ModelResponse, StreamEvent } from '../../core/types.js';
import type { ToolCallFormat } from '../tool-calls/text-tool-calls/tool-call-formats.js';
import { HoldBackFilter } from './hold-back-filter.js';
import { normalizeModelResponse } from './normalize-model-response.js';
import { TextAccumulator } from './text-accumulator.js';

/**
 * Applies `normalizeModelResponse` to a decoded event stream, keeping the events in agreement with the
 * final response. When tools were offered, text goes through a HoldBackFilter (DECISIONS.md §5), so the
 * markup of a call written as text never reaches a `text-delta`; trailing blanks wait for the text after
 * them, since extraction trims the text around a call. The decoder's own `tool-call` events are replaced by
 * the normalized calls, emitted (then the deferred `usage`) just before `done`. Synchronous; one per attempt.
 */
export class ResponseStreamNormalizer {
  readonly #request: ModelRequest;
  readonly #toolCallFormat: ToolCallFormat | undefined;
  readonly #filter: HoldBackFilter | undefined;
  readonly #emitted = new TextAccumulator();
  #pendingBlank = '';
  #deferred: StreamEvent[] = [];

  constructor(request: ModelRequest, options: { toolCallFormat?: ToolCallFormat } = {}) {
    this.#request = request;
    this.#toolCallFormat = options.toolCallFormat;
    const toolNames = (request.tools ?? []).map((tool) => tool.function.name);
    this.#filter = toolNames.length > 0 ? new HoldBackFilter({ toolNames }) : undefined;
  }

  /** The events of one decoder batch → the events to yield now (maybe none). */
  push(events: readonly StreamEvent[]): StreamEvent[] {
    const output: StreamEvent[] = [];
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      if (event.type === 'text-delta') this.#emitText(event.text, output);
      else if (event.type === 'usage') this.#deferred.push(event);
      else if (event.type === 'done') this.#finish(event.response, output);
      else if (event.type !== 'tool-call') output.push(event);
    }
    return output;
  }

  #emitText(text: string, output: StreamEvent[]): void {
    if (this.#filter === undefined) {
      this.#emit(text, output);
      return;
    }
    const released = this.#pendingBlank + this.#filter.push(text);
    if (endsInVisibleAscii(released)) {
      this.#pendingBlank = '';
      this.#emit(released, output);
      return;
    }
    const end = released.trimEnd().length;
    this.#pendingBlank = released.slice(end);
    this.#emit(released.slice(0, end), output);
  }

  #emit(text: string, output: StreamEvent[]): void {
    if (text === '') return;
    this.#emitted.append(text);
    output.push({ type: 'text-delta', text });
  }

  // Whatever the filter still holds is in the decoder's content; normalization decides what of it is text.
  #finish(decoded: ModelResponse, output: StreamEvent[]): void {
    this.#filter?.flush();
    const response = normalizeModelResponse(decoded, this.#request, {
      emittedText: this.#emitted.toString(),
      ...(this.#toolCallFormat !== undefined ? { toolCallFormat: this.#toolCallFormat } : {}),
    });
    this.#emit(response.content.slice(this.#emitted.length), output);
    for (const call of response.toolCalls) output.push({ type: 'tool-call', call });
    output.push(...this.#deferred, { type: 'done', response });
    this.#deferred = [];
  }
}

/** True when the text's last character is printable ASCII: nothing to trim (`trimEnd` needs not run per delta). */
function endsInVisibleAscii(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last > 32 && last < 127;
}
