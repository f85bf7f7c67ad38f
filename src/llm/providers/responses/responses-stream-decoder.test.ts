import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpineError } from '../../../core/spine-error.js';
import { ResponsesStreamDecoder } from './responses-stream-decoder.js';
import { catchError, context, decodeStream, loadWire, responseOf, textOf } from './responses-test-kit.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('ResponsesStreamDecoder on llama-server recordings', () => {
  it('responses-stream: named events, text deltas keyed by item_id, usage from response.completed', () => {
    const events = decodeStream(loadWire('llama-server', 'responses-stream.http'));
    expect(textOf(events, 'text-delta')).toBe(' Kab flankedcodednut');
    expect(responseOf(events)).toMatchObject({
      content: ' Kab flankedcodednut',
      finishReason: 'stop',
      model: 'tiny.gguf',
      reasoning: null,
      usage: { promptTokens: 24, completionTokens: 5, totalTokens: 29, cachedTokens: 23, latencyMs: 42 },
      message: { role: 'assistant', content: ' Kab flankedcodednut' },
    });
  });

  it('responses-stream-tools-required: argument deltas without output_index join into one call', () => {
    const events = decodeStream(loadWire('llama-server', 'responses-stream-tools-required.http'));
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    expect(deltas[0]).toEqual({
      type: 'tool-call-delta',
      index: 0,
      id: 'call_hjB5WCAUCmK3smsxfFyWaAsR70rkJurA',
      name: 'get_weather',
      argumentsDelta: '',
    });
    expect(deltas.map((event) => event.argumentsDelta).join('')).toBe('{"city":"Paris","unit":"celsius"}');
    const call = {
      id: 'call_hjB5WCAUCmK3smsxfFyWaAsR70rkJurA',
      name: 'get_weather',
      arguments: { city: 'Paris', unit: 'celsius' },
      rawArguments: '{"city":"Paris","unit":"celsius"}',
    };
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([{ type: 'tool-call', call }]);
    const response = responseOf(events);
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      toolCalls: [call],
      repairs: [],
      content: '',
    });
    expect(response.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: call.id, type: 'function', function: { name: 'get_weather', arguments: call.rawArguments } },
      ],
    });
  });

  it('reasoning-responses-stream: reasoning_text deltas become reasoning, then the message text', () => {
    const events = decodeStream(loadWire('llama-server', 'reasoning-responses-stream.http'));
    const firstText = events.findIndex((event) => event.type === 'text-delta');
    expect(events.slice(0, firstText).every((event) => event.type === 'reasoning-delta')).toBe(true);
    expect(responseOf(events)).toMatchObject({
      reasoning: ' starship trickedive episodeical killed baker',
      content: expect.stringMatching(/^ Artemis fabrication/),
      usage: { promptTokens: 26, completionTokens: 40 },
    });
  });
});

describe('ResponsesStreamDecoder on OpenAI-shaped events', () => {
  it('tells interleaved parallel calls apart and keeps summary parts as paragraphs', () => {
    const events = decodeStream(loadWire('responses', 'openai-stream-parallel-calls.sse'));
    const response = responseOf(events);
    expect(response.toolCalls.map((call) => [call.id, call.arguments])).toEqual([
      ['call_oslo', { city: 'Oslo' }],
      ['call_lima', { city: 'Lima' }],
    ]);
    expect(response).toMatchObject({
      content: 'Checking both cities.',
      reasoning: '**Plan**\nTwo lookups.\n\nCall both at once.',
      finishReason: 'tool_calls',
      model: 'gpt-5-mini-2025-08-07',
      usage: {
        promptTokens: 81,
        completionTokens: 120,
        totalTokens: 201,
        cachedTokens: 64,
        reasoningTokens: 64,
      },
      message: { content: 'Checking both cities.' },
    });
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    expect(
      deltas
        .filter((event) => event.index === 1)
        .map((event) => event.argumentsDelta)
        .join(''),
    ).toBe('{"city":"Lima"}');
  });

  it('reports a call cut off by max_output_tokens as incomplete, with finish length', () => {
    const response = responseOf(decodeStream(loadWire('responses', 'openai-stream-incomplete-call.sse')));
    expect(response).toMatchObject({
      finishReason: 'length',
      toolCalls: [],
      incompleteToolCalls: [
        { id: 'call_cut', name: 'write_file', rawArguments: '{"path":"a.txt","content":"hel' },
      ],
      message: { role: 'assistant', content: '' },
    });
    expect(response.message).not.toHaveProperty('tool_calls');
  });

  it('never runs a call the runner marked incomplete, even if its arguments parse', () => {
    const wire = [
      'event: response.output_item.done',
      'data: {"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"incomplete","call_id":"c","name":"f","arguments":"{}"}}',
      '',
      'event: response.incomplete',
      'data: {"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}}',
      '',
    ].join('\n');
    const response = responseOf(decodeStream(encode(wire)));
    expect(response.toolCalls).toEqual([]);
    expect(response.incompleteToolCalls).toEqual([{ id: 'c', name: 'f', rawArguments: '{}' }]);
  });

  it('throws response.failed as a classified error, after the text before it', () => {
    const decoder = new ResponsesStreamDecoder(context);
    const bytes = loadWire('responses', 'openai-stream-failed.sse');
    expect(decoder.push(bytes)).toEqual([{ type: 'text-delta', text: 'Partial' }]);
    const error = catchError(() => decoder.end());
    expect(error).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'The model failed to generate a response.',
    });
  });

  it('throws an error event as a classified error', () => {
    const error = catchError(() => decodeStream(loadWire('responses', 'openai-stream-error-event.sse')));
    expect(error).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryable: true,
      message: 'Rate limit reached for requests',
    });
  });

  it("reads llama.cpp's non-standard error: line", () => {
    const wire =
      'event: response.created\ndata: {"type":"response.created","response":{}}\n\nerror: {"code":500,"message":"boom","type":"server_error"}\n\n';
    expect(catchError(() => decodeStream(encode(wire)))).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'boom',
    });
  });

  it('fails a stream that ends without a terminal event as a cut connection', () => {
    const bytes = loadWire('llama-server', 'responses-stream.http');
    const cut = bytes.subarray(0, bytes.indexOf('event: response.completed'));
    const error = catchError(() => decodeStream(cut));
    expect(error).toMatchObject({ code: 'LLM_CONNECTION', details: { receivedContent: true } });
  });

  it('reads the answer from response.completed when no deltas came, and ignores a trailing [DONE]', () => {
    const wire = [
      'event: response.completed',
      'data: {"type":"response.completed","response":{"status":"completed","model":"m","output":[{"type":"message","content":[{"type":"output_text","text":"Only at the end."}]}]}}',
      '',
      'data: [DONE]',
      '',
    ].join('\n');
    const events = decodeStream(encode(wire));
    // No usage on the wire: no usage event (the response still carries nulls and the latency).
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'done']);
    expect(responseOf(events).content).toBe('Only at the end.');
  });

  it('stops at the terminal event', () => {
    const decoder = new ResponsesStreamDecoder(context);
    decoder.push(loadWire('llama-server', 'responses-stream.http'));
    expect(decoder.finished).toBe(true);
    expect(decoder.hasEmittedContent).toBe(true);
    expect(decoder.push(encode('data: not json\n\n'))).toEqual([]);
  });

  it('gives the same events for any split of the bytes', () => {
    const wires = [
      loadWire('llama-server', 'responses-stream.http'),
      loadWire('llama-server', 'responses-stream-tools-required.http'),
      loadWire('llama-server', 'reasoning-responses-stream.http'),
      loadWire('responses', 'openai-stream-parallel-calls.sse'),
      loadWire('responses', 'openai-stream-incomplete-call.sse'),
    ];
    for (const bytes of wires) {
      const whole = decodeStream(bytes);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
          expect(decodeStream(bytes, cuts)).toEqual(whole);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('never throws anything but a SpineError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodeStream(bytes);
        } catch (error) {
          expect(SpineError.is(error)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
