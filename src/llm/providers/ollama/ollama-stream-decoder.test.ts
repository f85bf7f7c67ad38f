import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpineError } from '../../../core/spine-error.js';
import type { ModelResponse, StreamEvent } from '../../../core/types.js';
import type { DecoderContext } from '../provider-adapter.js';
import { decodeOllamaResponse } from './ollama-adapter.js';
import { OllamaStreamDecoder } from './ollama-stream-decoder.js';

const context: DecoderContext = { startedAt: 100, now: () => 142, request: { messages: [] } };

function loadWire(name: string): Uint8Array {
  return readFileSync(new URL(`../../../../test/data/ollama/${name}`, import.meta.url));
}

/** Feeds the bytes cut at the given offsets, then ends the body. */
function decode(bytes: Uint8Array, cuts: number[] = []): StreamEvent[] {
  const decoder = new OllamaStreamDecoder(context);
  const events: StreamEvent[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    events.push(...decoder.push(bytes.subarray(start, cut)));
    start = cut;
  }
  events.push(...decoder.push(bytes.subarray(start)));
  return [...events, ...decoder.end()];
}

function responseOf(events: StreamEvent[]): ModelResponse {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error('no done event');
  return last.response;
}

function catchError(run: () => unknown): SpineError {
  try {
    run();
  } catch (error) {
    if (SpineError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SpineError');
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('OllamaStreamDecoder', () => {
  it('streams text and reads usage and nanosecond durations from the done:true object', () => {
    const events = decode(loadWire('chat-stream.ndjson'));
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'The' },
      { type: 'text-delta', text: ' sky is' },
      { type: 'text-delta', text: ' blue — ünïcödé 🌤' },
    ]);
    const response = responseOf(events);
    expect(response).toMatchObject({
      content: 'The sky is blue — ünïcödé 🌤',
      reasoning: null,
      finishReason: 'stop',
      model: 'llama3.2',
      toolCalls: [],
      repairs: [],
      message: { role: 'assistant', content: 'The sky is blue — ünïcödé 🌤' },
    });
    expect(response.usage).toEqual({
      promptTokens: 26,
      completionTokens: 282,
      totalTokens: 308,
      latencyMs: 42,
      timings: { totalMs: 4883.583458, loadMs: 1.334875, promptEvalMs: 342.546, evalMs: 4535.599 },
    });
    expect(events.at(-2)).toEqual({ type: 'usage', usage: response.usage });
  });

  it('gives message.thinking as reasoning and maps done_reason length', () => {
    const events = decode(loadWire('chat-stream-thinking.ndjson'));
    expect(events.slice(0, 2)).toEqual([
      { type: 'reasoning-delta', text: 'The user' },
      { type: 'reasoning-delta', text: ' asks for a count.' },
    ]);
    expect(responseOf(events)).toMatchObject({
      content: 'There are three.',
      reasoning: 'The user asks for a count.',
      finishReason: 'length',
      usage: { promptTokens: 12, completionTokens: 8, timings: { totalMs: 1000, evalMs: 500 } },
    });
  });

  it('turns object arguments without ids into calls with stable generated ids', () => {
    const bytes = loadWire('chat-stream-tool-calls.ndjson');
    const events = decode(bytes);
    const response = responseOf(events);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls.map((call) => [call.name, call.arguments, call.rawArguments])).toEqual([
      ['get_weather', { city: 'Oslo', unit: 'celsius' }, '{"city":"Oslo","unit":"celsius"}'],
      ['get_weather', { city: 'Lima', unit: 'celsius' }, '{"city":"Lima","unit":"celsius"}'],
    ]);
    const [first, second] = response.toolCalls;
    expect(first?.id).toMatch(/^call_[0-9a-f]+$/);
    expect(first?.id).not.toBe(second?.id);
    expect(response.repairs.map((repair) => [repair.kind, repair.toolCallId])).toEqual([
      ['generated-id', first?.id],
      ['generated-id', second?.id],
    ]);
    // DECISIONS §3: the same response normalized again gets the same ids.
    expect(responseOf(decode(bytes)).toolCalls.map((call) => call.id)).toEqual([first?.id, second?.id]);
    expect(events.filter((event) => event.type === 'tool-call').map((event) => event.call)).toEqual(
      response.toolCalls,
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: response.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.rawArguments },
      })),
    });
    expect(response.reasoning).toBe('Two cities, two calls.');
  });

  it('keeps an id Ollama did send, and reads a flat call', () => {
    const wire = [
      '{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x1","function":{"name":"f","arguments":{}}},{"name":"g","arguments":"{\\"a\\":1}"}]},"done":false}',
      '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}',
    ].join('\n');
    const response = responseOf(decode(encode(wire)));
    expect(
      response.toolCalls.map((call) => [call.id.startsWith('call_'), call.name, call.arguments]),
    ).toEqual([
      [true, 'f', {}],
      [true, 'g', { a: 1 }],
    ]);
    expect(response.toolCalls[0]?.id).toBe('call_x1');
    expect(response.repairs.map((repair) => repair.kind)).toEqual(['generated-id', 'nested-flat-call']);
  });

  it('splits <think> tags written into content, even when the tags are cut across lines', () => {
    const events = decode(loadWire('chat-stream-think-tags.ndjson'));
    const response = responseOf(events);
    expect(response.content).toBe('It is 18 °C.');
    expect(response.reasoning).toBe('\nCheck the units.');
    expect(events.some((event) => event.type === 'text-delta' && event.text.includes('think'))).toBe(false);
  });

  it('gives the same events for any split of the bytes', () => {
    for (const name of [
      'chat-stream.ndjson',
      'chat-stream-thinking.ndjson',
      'chat-stream-tool-calls.ndjson',
      'chat-stream-think-tags.ndjson',
    ]) {
      const bytes = loadWire(name);
      const whole = decode(bytes);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
          expect(decode(bytes, cuts)).toEqual(whole);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('accepts CRLF line ends and a last line without a newline', () => {
    const text = readFileSync(
      new URL('../../../../test/data/ollama/chat-stream.ndjson', import.meta.url),
      'utf8',
    );
    const crlf = text.trimEnd().replaceAll('\n', '\r\n');
    expect(responseOf(decode(encode(crlf))).content).toBe(responseOf(decode(encode(text))).content);
  });

  it('stops at done:true and ignores anything after it', () => {
    const decoder = new OllamaStreamDecoder(context);
    decoder.push(
      encode('{"message":{"content":"a"},"done":false}\n{"message":{"content":""},"done":true}\n'),
    );
    expect(decoder.finished).toBe(true);
    expect(decoder.hasEmittedContent).toBe(true);
    decoder.push(encode('not json\n'));
    expect(responseOf(decoder.end()).content).toBe('a');
  });

  it('throws an error line sent at HTTP 200, after delivering the text before it', () => {
    const decoder = new OllamaStreamDecoder(context);
    const events = decoder.push(
      encode(
        '{"message":{"content":"par"},"done":false}\n{"error":"an error was encountered while running the model: unexpected EOF"}\n',
      ),
    );
    expect(events).toEqual([{ type: 'text-delta', text: 'par' }]);
    const error = catchError(() => decoder.end());
    expect(error.message).toBe('an error was encountered while running the model: unexpected EOF');
    expect(error.code).toBe('LLM_SERVER_ERROR');
    expect(catchError(() => decoder.push(encode('{"done":true}\n')))).toBe(error);
  });

  it('sends no usage event when the final object has no counts (a load answer)', () => {
    const events = decode(
      encode('{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"load"}'),
    );
    expect(events.map((event) => event.type)).toEqual(['done']);
    expect(responseOf(events)).toMatchObject({ finishReason: 'stop', usage: { promptTokens: null } });
  });

  it('classifies a context overflow sent in the stream', () => {
    const error = catchError(() => decode(encode('{"error":"input length exceeds the context length"}\n')));
    expect(error.code).toBe('LLM_CONTEXT_OVERFLOW');
  });

  it('fails a stream that ends without done:true as a cut connection', () => {
    const error = catchError(() => decode(encode('{"message":{"content":"half"},"done":false}\n')));
    expect(error.code).toBe('LLM_CONNECTION');
    expect(error.details.receivedContent).toBe(true);
    expect(catchError(() => decode(encode(''))).code).toBe('LLM_CONNECTION');
  });

  it('fails a line that is not JSON, or not an object', () => {
    expect(catchError(() => decode(encode('{"message":{"content":"a"},"done":fa\n'))).code).toBe(
      'LLM_BAD_RESPONSE',
    );
    expect(catchError(() => decode(encode('[1,2]\n'))).code).toBe('LLM_BAD_RESPONSE');
  });

  it('never throws anything but a SpineError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decode(bytes);
        } catch (error) {
          expect(SpineError.is(error)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('decodeOllamaResponse', () => {
  it('reads a non-streamed answer with tool calls (the documented example)', () => {
    const body = readFileSync(
      new URL('../../../../test/data/ollama/chat-tools.json', import.meta.url),
      'utf8',
    );
    const response = decodeOllamaResponse(body, context);
    expect(response).toMatchObject({
      content: '',
      finishReason: 'tool_calls',
      model: 'llama3.2',
      usage: { promptTokens: 122, completionTokens: 33, totalTokens: 155, latencyMs: 42 },
    });
    expect(response.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_/),
        name: 'get_current_weather',
        arguments: { format: 'celsius', location: 'Paris, FR' },
        rawArguments: '{"format":"celsius","location":"Paris, FR"}',
      },
    ]);
    expect(decodeOllamaResponse(body, context).toolCalls[0]?.id).toBe(response.toolCalls[0]?.id);
  });

  it('gives the same response as the stream of the same answer', () => {
    const streamed = responseOf(decode(loadWire('chat-stream-tool-calls.ndjson')));
    const body = JSON.stringify({
      model: 'qwen3',
      message: {
        role: 'assistant',
        content: '',
        thinking: 'Two cities, two calls.',
        tool_calls: [
          { function: { index: 0, name: 'get_weather', arguments: { city: 'Oslo', unit: 'celsius' } } },
          { function: { index: 1, name: 'get_weather', arguments: { city: 'Lima', unit: 'celsius' } } },
        ],
      },
      done: true,
      done_reason: 'stop',
      total_duration: 885095291,
      load_duration: 3753500,
      prompt_eval_count: 122,
      prompt_eval_duration: 328493000,
      eval_count: 33,
      eval_duration: 552222000,
    });
    const whole = decodeOllamaResponse(body, context);
    expect({ ...whole, raw: null }).toEqual({ ...streamed, raw: null });
  });

  it('fails a body that is not an Ollama answer as retryable LLM_BAD_RESPONSE', () => {
    for (const body of ['<html>bad gateway</html>', '{"model":"m","done":false}', '']) {
      expect(catchError(() => decodeOllamaResponse(body, context))).toMatchObject({
        code: 'LLM_BAD_RESPONSE',
        retryable: true,
      });
    }
  });

  it('throws the error of a 200 error body, with the pull hint for a missing model', () => {
    const error = catchError(() =>
      decodeOllamaResponse('{"error":"model \\"qwen9\\" not found, try pulling it first"}', context),
    );
    expect(error.message).toBe(
      'model "qwen9" is not available on this Ollama server: run `ollama pull qwen9`',
    );
    expect(error.retryable).toBe(false);
  });
});
