import { SpineError } from '../../../core/spine-error.js';
import type { StreamEvent } from '../../../core/types.js';
import { SseDecoder, type SseMessage } from '../../stream/sse-decoder.js';
import { TextBuffer } from '../../stream/text-buffer.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';
import type { DecoderContext, StreamDecoder } from '../provider-adapter.js';
import { assembleResponsesResponse } from './assemble-responses-response.js';
import { type ResponsesOutput, readResponsesOutput } from './read-responses-output.js';
import { ResponsesCallTracker } from './responses-call-tracker.js';
import { toResponsesFailure } from './to-responses-failure.js';

/**
 * Responses API stream (named SSE events, no `[DONE]`; RUNNER-QUIRKS §65) → normalized events. Dispatches on
 * each event's `type`: text and refusal deltas → `text-delta`, reasoning text and summary deltas →
 * `reasoning-delta`, function-call items and argument deltas → `tool-call-delta` (whole calls come at the
 * end, once the finish is known). `response.completed` / `response.incomplete` end the answer with usage;
 * `response.failed` and `error` events throw; a body that ends before a terminal event was cut off.
 */
export class ResponsesStreamDecoder implements StreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly calls = new ResponsesCallTracker();
  private readonly text = new TextBuffer();
  private readonly reasoning = new TextBuffer();
  private final: Record<string, unknown> | undefined;
  private emitted = false;
  private failure: SpineError | undefined;

  constructor(private readonly context: DecoderContext) {}

  get finished(): boolean {
    return this.final !== undefined;
  }

  get hasEmittedContent(): boolean {
    return this.emitted;
  }

  push(chunk: Uint8Array): StreamEvent[] {
    if (this.failure) throw this.failure;
    if (this.final) return [];
    return this.handleAll(this.sse.push(chunk));
  }

  end(): StreamEvent[] {
    if (this.failure) throw this.failure;
    const events = this.final ? [] : this.handleAll(this.sse.flush());
    if (this.failure) throw this.failure;
    const final = this.final;
    if (!final) {
      throw new SpineError({
        code: 'LLM_CONNECTION',
        message: 'the Responses stream ended before a terminal event (response.completed)',
        retryable: false,
        details: { receivedContent: this.emitted },
      });
    }
    const output = this.collectOutput(final, events);
    const response = assembleResponsesResponse({
      ...output,
      response: final,
      latencyMs: this.context.now() - this.context.startedAt,
      maxOutputTokens: this.context.request.maxTokens,
    });
    for (const call of response.toolCalls) events.push({ type: 'tool-call', call });
    if (isRecord(final.usage)) events.push({ type: 'usage', usage: response.usage });
    events.push({ type: 'done', response });
    return events;
  }

  // An error part-way through a read still delivers the events before it; the error is thrown next call.
  private handleAll(messages: readonly SseMessage[]): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const message of messages) {
      try {
        this.handle(message, events);
      } catch (error) {
        this.failure = toSpineError(error);
        if (events.length === 0) throw this.failure;
        break;
      }
    }
    return events;
  }

  private handle(message: SseMessage, events: StreamEvent[]): void {
    if (this.final) return;
    const data = parseData(message);
    if (data === undefined) return;
    // llama.cpp's `error:` line comes as an `error` event whose data has the error's own `type`.
    const type =
      message.event === 'error' ? 'error' : typeof data.type === 'string' ? data.type : message.event;
    if (type === 'response.failed') throw toResponsesFailure(isRecord(data.response) ? data.response : data);
    if (type === 'error') throw toResponsesFailure(data);
    if (type === 'response.completed' || type === 'response.incomplete') {
      this.final = isRecord(data.response) ? data.response : {};
      return;
    }
    if (type !== undefined) this.handleOutputEvent(type, data, events);
  }

  private handleOutputEvent(type: string, data: Record<string, unknown>, events: StreamEvent[]): void {
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.addText(data.delta, events);
        break;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        this.addReasoning(data.delta, events);
        break;
      case 'response.reasoning_summary_part.added':
        // Summary parts are paragraphs: keep them apart, as a non-streamed body's parts are.
        if (typeof data.summary_index === 'number' && data.summary_index > 0)
          this.addReasoning('\n\n', events);
        break;
      case 'response.output_item.added':
        if (isRecord(data.item) && data.item.type === 'function_call') this.openCall(data.item, data, events);
        break;
      case 'response.function_call_arguments.delta':
        if (this.calls.append(data, events)) this.emitted = true;
        break;
      case 'response.function_call_arguments.done':
        this.calls.complete(data, data.item_id, data.output_index);
        break;
      case 'response.output_item.done':
        if (isRecord(data.item) && data.item.type === 'function_call')
          this.calls.complete(data.item, data.item.id, data.output_index);
        break;
    }
  }

  private openCall(
    item: Record<string, unknown>,
    data: Record<string, unknown>,
    events: StreamEvent[],
  ): void {
    this.emitted = true;
    this.calls.open(item, data.output_index, events);
  }

  private addText(delta: unknown, events: StreamEvent[]): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.text.append(delta);
    this.emitted = true;
    events.push({ type: 'text-delta', text: delta });
  }

  private addReasoning(delta: unknown, events: StreamEvent[]): void {
    if (typeof delta !== 'string' || delta === '') return;
    this.reasoning.append(delta);
    this.emitted = true;
    events.push({ type: 'reasoning-delta', text: delta });
  }

  /**
   * What the deltas carried; a runner that sent no deltas at all (only the terminal event) is read from the
   * final response's `output`, and its text is still delivered as events.
   */
  private collectOutput(final: Record<string, unknown>, events: StreamEvent[]): ResponsesOutput {
    if (this.text.length > 0 || this.reasoning.length > 0 || this.calls.size > 0) {
      return {
        text: this.text.toString(),
        reasoning: this.reasoning.toString(),
        calls: this.calls.toRawCalls(),
      };
    }
    const output = readResponsesOutput(final.output);
    if (output.reasoning !== '') this.addReasoning(output.reasoning, events);
    if (output.text !== '') this.addText(output.text, events);
    return output;
  }
}

/** The event's JSON; undefined for what carries nothing to act on (`[DONE]` from a proxy, a blank data). */
function parseData(message: SseMessage): Record<string, unknown> | undefined {
  const text = message.data.trim();
  if (text === '' || text === '[DONE]') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // llama.cpp's non-standard `error:` line arrives as an `error` event whose data may be plain text.
    if (message.event === 'error') throw toResponsesFailure({ error: { message: text } });
    throw new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `the runner sent an event that is not JSON: ${text.slice(0, 200)}`,
      retryable: false,
      cause: error,
    });
  }
  if (!isRecord(value)) return undefined;
  return value;
}

function toSpineError(error: unknown): SpineError {
  if (SpineError.is(error)) return error;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message: 'the stream could not be decoded',
    cause: error,
  });
}
