import { SpineError } from '../../../core/spine-error.js';
import type { StreamEvent } from '../../../core/types.js';
import { ThinkSplitter } from '../../normalize/think-splitter.js';
import { TextBuffer } from '../../stream/text-buffer.js';
import type { RawWireToolCall } from '../../tool-calls/normalize-tool-calls.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';
import type { DecoderContext, StreamDecoder } from '../provider-adapter.js';
import { assembleOllamaResponse } from './assemble-ollama-response.js';
import { classifyOllamaErrorBody } from './classify-ollama-error.js';
import { NdjsonDecoder } from './ndjson-decoder.js';
import { hasOllamaUsage } from './read-ollama-usage.js';

/**
 * Ollama `/api/chat` NDJSON → normalized events (RUNNER-QUIRKS §9, §35-36, §61). Each line is a whole object:
 * `message.content` (split for `<think>` blocks, which some models still write with thinking off),
 * `message.thinking`, complete `message.tool_calls` with object arguments and often no ids, and a last
 * `done:true` object with the finish reason and usage. An `{"error":"…"}` line is an error even at HTTP 200;
 * a body that ends without `done:true` was cut off. The same decoder reads a non-streamed body, which is the
 * final object alone with the whole message in it.
 */
export class OllamaStreamDecoder implements StreamDecoder {
  private readonly lines = new NdjsonDecoder();
  private readonly splitter = new ThinkSplitter();
  private readonly rawCalls: RawWireToolCall[] = [];
  private readonly thinking = new TextBuffer();
  private model: string | null = null;
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
    return this.handleAll(() => this.lines.push(chunk));
  }

  end(): StreamEvent[] {
    if (this.failure) throw this.failure;
    const events = this.final ? [] : this.handleAll(() => this.lines.flush());
    if (this.failure) throw this.failure;
    const final = this.final;
    if (!final) {
      throw new SpineError({
        code: 'LLM_CONNECTION',
        message: 'the Ollama stream ended before its final done:true object',
        retryable: false,
        details: { receivedContent: this.emitted },
      });
    }
    const tail = this.splitter.flush();
    this.emitSplit(tail.reasoning, tail.text, events);
    const response = assembleOllamaResponse({
      splitter: this.splitter,
      thinking: this.thinking.toString(),
      rawCalls: this.rawCalls,
      final,
      model: this.model,
      latencyMs: this.context.now() - this.context.startedAt,
    });
    for (const call of response.toolCalls) events.push({ type: 'tool-call', call });
    if (hasOllamaUsage(final)) events.push({ type: 'usage', usage: response.usage });
    events.push({ type: 'done', response });
    return events;
  }

  // An error part-way through a read still delivers the events before it; the error is thrown next call.
  private handleAll(readLines: () => unknown[]): StreamEvent[] {
    const events: StreamEvent[] = [];
    try {
      for (const value of readLines()) this.handle(value, events);
    } catch (error) {
      this.failure = toSpineError(error);
      if (events.length === 0) throw this.failure;
    }
    return events;
  }

  private handle(value: unknown, events: StreamEvent[]): void {
    // Anything after done:true is not part of this answer.
    if (this.final) return;
    if (!isRecord(value)) {
      throw new SpineError({
        code: 'LLM_BAD_RESPONSE',
        message: 'the Ollama stream carried a line that is not a JSON object',
        retryable: false,
      });
    }
    if (value.error !== undefined && value.error !== null) throw classifyOllamaErrorBody(value);
    if (typeof value.model === 'string' && value.model !== '') this.model = value.model;
    if (isRecord(value.message)) this.readMessage(value.message, events);
    if (value.done === true) this.final = value;
  }

  private readMessage(message: Record<string, unknown>, events: StreamEvent[]): void {
    if (typeof message.thinking === 'string' && message.thinking !== '') {
      this.thinking.append(message.thinking);
      this.emitSplit(message.thinking, '', events);
    }
    if (typeof message.content === 'string' && message.content !== '') {
      const split = this.splitter.push(message.content);
      this.emitSplit(split.reasoning, split.text, events);
    }
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) this.rawCalls.push(readToolCall(call));
    }
  }

  private emitSplit(reasoning: string, text: string, events: StreamEvent[]): void {
    if (reasoning !== '') events.push({ type: 'reasoning-delta', text: reasoning });
    if (text !== '') events.push({ type: 'text-delta', text });
    if (reasoning !== '' || text !== '') this.emitted = true;
  }
}

/** `{id?, function: {index?, name, arguments: {…}}}`, or the flat `{name, arguments}` some proxies send. */
function readToolCall(wire: unknown): RawWireToolCall {
  const call = isRecord(wire) ? wire : {};
  const holder = isRecord(call.function) ? call.function : call;
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
  const name = typeof holder.name === 'string' ? holder.name : '';
  // Ollama never sends `type`; it is supplied here so that every call does not count as a repair.
  return { id, name, arguments: holder.arguments ?? holder.parameters, wire: { type: 'function', ...call } };
}

function toSpineError(error: unknown): SpineError {
  if (SpineError.is(error)) return error;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message: 'the stream could not be decoded',
    cause: error,
  });
}
