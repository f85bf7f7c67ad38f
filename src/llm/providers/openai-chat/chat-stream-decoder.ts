import { SpineError } from '../../../core/spine-error.js';
import type { StreamEvent } from '../../../core/types.js';
import { classifyErrorBody } from '../../errors/classify-error-body.js';
import { hasUsage } from '../../normalize/map-usage.js';
import { ThinkSplitter } from '../../normalize/think-splitter.js';
import { SseDecoder, type SseMessage } from '../../stream/sse-decoder.js';
import { TextBuffer } from '../../stream/text-buffer.js';
import { ToolCallAccumulator } from '../../stream/tool-call-accumulator.js';
import { assembleChatResponse } from './assemble-chat-response.js';
import {
  isErrorObject,
  isRecord,
  readModel,
  readPrimaryChoice,
  readReasoningField,
  type WireRecord,
} from './chat-chunk.js';

export interface ChatStreamDecoderOptions {
  startedAt: number;
  now: () => number;
}

const maxQuotedData = 500;

/**
 * A streamed Chat Completions body → StreamEvents. Pure and synchronous: bytes in (any split), the events they
 * complete out. Each data line is parsed once; content goes through the `<think>` splitter, tool-call deltas
 * through the accumulator, and `end()` assembles the ModelResponse.
 */
export class ChatStreamDecoder {
  private readonly sse = new SseDecoder();
  private readonly splitter = new ThinkSplitter();
  private readonly toolCalls = new ToolCallAccumulator();
  private readonly fieldReasoning = new TextBuffer();
  private hasReasoningContent = false;
  private wireFinishReason: unknown = null;
  private wireUsage: unknown;
  private timings: unknown;
  private model: string | null = null;
  private raw: unknown = null;
  private failure: SpineError | undefined;
  private sawDone = false;
  private ended = false;
  private emittedContent = false;

  constructor(private readonly options: ChatStreamDecoderOptions) {}

  /** True once `data: [DONE]` was seen: the caller stops reading and cancels the body. */
  get finished(): boolean {
    return this.sawDone;
  }

  /** True once any text, reasoning or tool-call delta was produced: the call must not be retried. */
  get hasEmittedContent(): boolean {
    return this.emittedContent;
  }

  push(chunk: Uint8Array): StreamEvent[] {
    if (this.failure) throw this.failure;
    if (this.sawDone || this.ended) return [];
    return this.handleMessages(this.sse.push(chunk));
  }

  end(): StreamEvent[] {
    if (this.failure) throw this.failure;
    if (this.ended) return [];
    const events = this.sawDone ? [] : this.handleMessages(this.sse.flush());
    if (this.failure) throw this.failure;
    this.ended = true;
    if (!this.sawDone && this.wireFinishReason === null) {
      throw new SpineError({
        code: 'LLM_CONNECTION',
        message: 'stream ended before the runner finished (no finish_reason and no [DONE])',
        retryable: false,
        details: { receivedContent: this.emittedContent },
      });
    }
    if (this.raw === null) {
      // `[DONE]` and nothing before it: the runner produced no answer at all (RUNNER-QUIRKS §22, §57).
      throw new SpineError({
        code: 'LLM_BAD_RESPONSE',
        message: 'the stream ended without a single chunk',
        retryable: true,
      });
    }
    this.pushSplit(this.splitter.flush(), events);
    const response = assembleChatResponse({
      splitter: this.splitter,
      fieldReasoning: this.fieldReasoning.toString(),
      hasReasoningContent: this.hasReasoningContent,
      rawCalls: this.toolCalls.toRawCalls(),
      wireFinishReason: this.wireFinishReason,
      wireUsage: this.wireUsage,
      timings: this.timings,
      model: this.model,
      raw: this.raw,
      latencyMs: this.options.now() - this.options.startedAt,
    });
    for (const call of response.toolCalls) events.push({ type: 'tool-call', call });
    if (hasUsage(this.wireUsage, this.timings)) events.push({ type: 'usage', usage: response.usage });
    events.push({ type: 'done', response });
    return events;
  }

  // An error part-way through a batch still delivers the events before it; the error is thrown next call.
  private handleMessages(messages: readonly SseMessage[]): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const message of messages) {
      if (this.sawDone) break;
      try {
        this.handleMessage(message, events);
      } catch (error) {
        this.failure = toSpineError(error);
        if (events.length === 0) throw this.failure;
        break;
      }
    }
    return events;
  }

  private handleMessage(message: SseMessage, events: StreamEvent[]): void {
    const { event, data } = message;
    if (event === 'error') throw classifyErrorBody(parseErrorData(data));
    // The Chat Completions stream uses unnamed events only; named ones belong to something else (pings).
    if (event !== undefined && event !== 'message') return;
    let text = data;
    if (data.charCodeAt(0) !== 123 /* { */) {
      text = data.trim();
      if (text === '[DONE]') {
        this.sawDone = true;
        return;
      }
      // Keep-alives: an empty data line, or a comment a gateway re-wrapped as data (RUNNER-QUIRKS §21).
      if (text === '' || text.startsWith(':')) return;
    }
    this.handleChunk(parseChunk(text), events);
  }

  private handleChunk(chunk: WireRecord, events: StreamEvent[]): void {
    if (isErrorObject(chunk)) throw classifyErrorBody(chunk);
    this.raw = chunk;
    this.model = readModel(chunk) ?? this.model;
    if (isRecord(chunk.usage)) this.wireUsage = chunk.usage;
    if (isRecord(chunk.timings)) this.timings = chunk.timings;
    const choice = readPrimaryChoice(chunk.choices);
    if (choice === undefined) return;
    if (choice.finish_reason !== undefined && choice.finish_reason !== null)
      this.wireFinishReason = choice.finish_reason;
    // Azure's asynchronous content filter sends choices with `content_filter_offsets` and no delta (§64).
    if (isRecord(choice.delta)) this.handleDelta(choice.delta, events);
  }

  private handleDelta(delta: WireRecord, events: StreamEvent[]): void {
    const reasoning = readReasoningField(delta);
    if (reasoning !== undefined) {
      this.fieldReasoning.append(reasoning.text);
      if (reasoning.field === 'reasoning_content') this.hasReasoningContent = true;
      events.push({ type: 'reasoning-delta', text: reasoning.text });
      this.emittedContent = true;
    }
    if (typeof delta.content === 'string' && delta.content !== '')
      this.pushSplit(this.splitter.push(delta.content), events);
    if (Array.isArray(delta.tool_calls)) this.addToolCalls(delta.tool_calls, events);
    // The legacy single `function_call` delta is one call at index 0.
    else if (isRecord(delta.function_call))
      this.addToolCalls([{ index: 0, function: delta.function_call }], events);
  }

  private addToolCalls(deltas: readonly unknown[], events: StreamEvent[]): void {
    const before = events.length;
    this.toolCalls.add(deltas, events);
    if (events.length > before) this.emittedContent = true;
  }

  private pushSplit(split: { text: string; reasoning: string }, events: StreamEvent[]): void {
    if (split.reasoning !== '') events.push({ type: 'reasoning-delta', text: split.reasoning });
    if (split.text !== '') events.push({ type: 'text-delta', text: split.text });
    if (split.reasoning !== '' || split.text !== '') this.emittedContent = true;
  }
}

function parseChunk(text: string): WireRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badData('a stream event is not JSON', text, error);
  }
  if (!isRecord(value)) throw badData('a stream event is not a JSON object', text);
  return value;
}

function parseErrorData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

function badData(message: string, data: string, cause?: unknown): SpineError {
  const quoted = data.length > maxQuotedData ? `${data.slice(0, maxQuotedData)}…` : data;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message,
    retryable: false,
    details: { data: quoted },
    cause,
  });
}

function toSpineError(error: unknown): SpineError {
  if (SpineError.is(error)) return error;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message: 'the stream could not be decoded',
    cause: error,
  });
}
