import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpineError } from '../../src/core/spine-error.js';
import type { ModelResponse } from '../../src/core/types.js';
import { classifyHttpError } from '../../src/llm/errors/classify-http-error.js';
import { decodeChatCompletion } from '../../src/llm/providers/openai-chat/decode-chat-completion.js';
import { decodeStream, joinDeltas, readLlamaFixture, responseOf } from './decode-kit.js';

// Conformance: bodies recorded from a real llama-server (test/data/llama-server/README.md) decode to the
// normalized answers below. Streams are also replayed cut at random byte offsets.

function decodeBody(name: string): ModelResponse {
  const fixture = readLlamaFixture(name);
  expect(fixture.status).toBe(200);
  return decodeChatCompletion(fixture.text, { latencyMs: 7 });
}

function decodeStreamed(name: string): {
  response: ModelResponse;
  text: string;
  reasoning: string;
  types: string[];
} {
  const fixture = readLlamaFixture(name);
  expect(fixture.status).toBe(200);
  const result = decodeStream(fixture.body);
  const response = responseOf(result);
  return {
    response,
    text: joinDeltas(result.events, 'text-delta'),
    reasoning: joinDeltas(result.events, 'reasoning-delta'),
    types: result.events.map((event) => event.type),
  };
}

const streamedFixtures = [
  'chat-stream',
  'chat-stream-usage',
  'chat-stream-tools-required',
  'chat-stream-tools-parallel-required',
  'chat-stream-tools-truncated-length',
  'reasoning-chat-stream',
];

describe('llama-server non-streamed bodies', () => {
  it('chat-plain: text, stop, usage with cached tokens', () => {
    const response = decodeBody('chat-plain');
    expect(response.content).toBe(
      'hak cowardKing was Truth News Active Sar mandatedStockWorking CMS Andre seats wisely Krist lost announces Hes sul Used',
    );
    expect(response.finishReason).toBe('stop');
    expect(response.toolCalls).toEqual([]);
    expect(response.reasoning).toBeNull();
    expect(response.model).toBe('tiny.gguf');
    expect(response.usage).toEqual({
      promptTokens: 22,
      completionTokens: 22,
      totalTokens: 44,
      cachedTokens: 21,
      latencyMs: 7,
    });
    expect(response.message).toEqual({ role: 'assistant', content: response.content });
    expect(response.repairs).toEqual([]);
  });

  it('chat-tools-required: one parsed call, content null in the history message', () => {
    const response = decodeBody('chat-tools-required');
    expect(response.finishReason).toBe('tool_calls');
    expect(response.content).toBe('');
    expect(response.toolCalls).toEqual([
      {
        id: 'tTiGzql46mNoGYNQoXaUC2EBjULL5hPZ',
        name: 'get_weather',
        arguments: { city: 'Paris', unit: 'celsius' },
        rawArguments: '{"city":"Paris","unit":"celsius"}',
      },
    ]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'tTiGzql46mNoGYNQoXaUC2EBjULL5hPZ',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        },
      ],
    });
  });

  it('chat-tools-parallel-required: two calls in order, odd whitespace in the arguments kept raw', () => {
    const response = decodeBody('chat-tools-parallel-required');
    expect(response.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['get_time', { timezone: ';FIX condesc' }],
      ['get_weather', { city: 'Lima', unit: 'celsius' }],
    ]);
    expect(response.toolCalls[0]?.rawArguments).toBe('{\n\n "timezone" :";FIX condesc"}');
    expect(response.usage.cachedTokens).toBe(153);
  });

  it('chat-tools-truncated-length: the cut-off call is incomplete, never runnable', () => {
    const response = decodeBody('chat-tools-truncated-length');
    expect(response.finishReason).toBe('length');
    expect(response.toolCalls).toEqual([]);
    expect(response.incompleteToolCalls).toEqual([
      { id: 'dvQuypWkyLBJ5cCDpklJ05PADDdEVaij', name: 'get_weather', rawArguments: '{"' },
    ]);
    expect(response.message).toEqual({ role: 'assistant', content: '' });
  });

  it('chat-tool-result-followup: a text reply', () => {
    const response = decodeBody('chat-tool-result-followup');
    expect(response.content).toBe('guard patriotabe paw bureaucrats slee');
    expect(response.finishReason).toBe('stop');
    expect(response.usage.promptTokens).toBe(279);
  });

  it('reasoning-chat: reasoning_content becomes reasoning and is kept on the message', () => {
    const response = decodeBody('reasoning-chat');
    expect(response.reasoning).toBe(' starship trickedive episodeical killed baker');
    expect(response.content.startsWith(' Artemis fabrication')).toBe(true);
    expect(response.content).not.toContain('starship');
    expect(response.finishReason).toBe('length');
    expect(response.message.reasoning_content).toBe(response.reasoning);
  });
});

describe('llama-server streams', () => {
  it('chat-stream: deltas, stop, usage read from timings when there is no usage chunk', () => {
    const { response, text, types } = decodeStreamed('chat-stream');
    expect(text).toBe(' Kab flankedcodednut');
    expect(response.content).toBe(text);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({
      promptTokens: 24,
      completionTokens: 5,
      totalTokens: 29,
      cachedTokens: 15,
      latencyMs: 250,
    });
    expect(types.slice(-2)).toEqual(['usage', 'done']);
  });

  it('chat-stream-usage: length, usage from the choices:[] chunk', () => {
    const { response, text } = decodeStreamed('chat-stream-usage');
    expect(response.finishReason).toBe('length');
    expect(response.content).toBe(text);
    expect(text.startsWith('agallnumber coalition')).toBe(true);
    expect(response.usage).toEqual({
      promptTokens: 24,
      completionTokens: 24,
      totalTokens: 48,
      cachedTokens: 23,
      latencyMs: 250,
    });
  });

  it('chat-stream-tools-required: 18 argument deltas joined into one call', () => {
    const { response, types } = decodeStreamed('chat-stream-tools-required');
    expect(types.filter((type) => type === 'tool-call-delta')).toHaveLength(18);
    expect(types.slice(-3)).toEqual(['tool-call', 'usage', 'done']);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      {
        id: 'W8UgXr9PstETB9xpAeLWZjytkmZZduUR',
        name: 'get_weather',
        arguments: { city: 'Paris', unit: 'celsius' },
        rawArguments: '{"city":"Paris","unit":"celsius"}',
      },
    ]);
    expect(response.message.content).toBeNull();
    expect(response.usage.totalTokens).toBe(260);
  });

  it('chat-stream-tools-parallel-required: the second call at index 1 with its own id', () => {
    const { response } = decodeStreamed('chat-stream-tools-parallel-required');
    expect(response.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['xSPrQdcDUP4kdn9ERjtpYJeQYtAiPF4p', 'get_time', { timezone: ';FIX condesc' }],
      ['qrsNf79SLu4lwhScyNGT22f2DNkvJ2Ez', 'get_weather', { city: 'Lima', unit: 'celsius' }],
    ]);
    expect(response.message.tool_calls).toHaveLength(2);
  });

  it('chat-stream-tools-truncated-length: incomplete call, finish length, no tool-call event', () => {
    const { response, types } = decodeStreamed('chat-stream-tools-truncated-length');
    expect(types).not.toContain('tool-call');
    expect(response.finishReason).toBe('length');
    expect(response.incompleteToolCalls).toEqual([
      { id: 'ObwOjXRyqmrxxT5L77e1Dp365EWsUJ2Y', name: 'get_weather', rawArguments: '{"' },
    ]);
    expect(response.message.tool_calls).toBeUndefined();
  });

  it('reasoning-chat-stream: reasoning deltas first, then text; same answer as the non-streamed call', () => {
    const { response, text, reasoning, types } = decodeStreamed('reasoning-chat-stream');
    expect(types.indexOf('text-delta')).toBeGreaterThan(types.lastIndexOf('reasoning-delta'));
    expect(reasoning).toBe(' starship trickedive episodeical killed baker');
    expect(response.reasoning).toBe(reasoning);
    expect(response.content).toBe(text);
    expect(response.content).toBe(decodeBody('reasoning-chat').content);
    expect(response.message.reasoning_content).toBe(reasoning);
  });

  it('error-stream-invalid-utf8-output: the deltas before the error arrive, then LLM_SERVER_ERROR', () => {
    const fixture = readLlamaFixture('error-stream-invalid-utf8-output');
    const result = decodeStream(fixture.body);
    expect(joinDeltas(result.events, 'text-delta')).toBe(' Animal Ajax pumpseta Regulation bullpenocking');
    expect(result.events.some((event) => event.type === 'done')).toBe(false);
    expect(result.error?.code).toBe('LLM_SERVER_ERROR');
    expect(result.error?.message).toBe(
      'The model produced output that does not match the expected peg-native format',
    );
    expect(result.error?.details).toMatchObject({ type: 'server_error', providerCode: 500 });
  });

  it.each(streamedFixtures)('%s: any byte split gives the same events and response', (name) => {
    const body = readLlamaFixture(name).body;
    const whole = decodeStream(body);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 40 }), (cuts) => {
        const split = decodeStream(
          body,
          cuts.sort((a, b) => a - b),
        );
        expect(split.error).toBeUndefined();
        expect(split.events).toEqual(whole.events);
      }),
      { numRuns: 60 },
    );
  });

  it('error-stream-invalid-utf8-output: any byte split gives the same deltas and the same error', () => {
    const body = readLlamaFixture('error-stream-invalid-utf8-output').body;
    const whole = decodeStream(body);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 20 }), (cuts) => {
        const split = decodeStream(
          body,
          cuts.sort((a, b) => a - b),
        );
        expect(split.events).toEqual(whole.events);
        expect(split.error?.code).toBe('LLM_SERVER_ERROR');
      }),
      { numRuns: 40 },
    );
  });
});

describe('llama-server HTTP errors', () => {
  it('error-context-overflow: 400 exceed_context_size_error → LLM_CONTEXT_OVERFLOW with the sizes', () => {
    const fixture = readLlamaFixture('error-context-overflow');
    const error = classifyHttpError(fixture.status, fixture.text);
    expect(error.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'request (8192 tokens) exceeds the available context size (1024 tokens), try increasing it',
    );
    expect(error.details).toMatchObject({
      status: 400,
      type: 'exceed_context_size_error',
      promptTokens: 8192,
      contextTokens: 1024,
    });
  });

  it('error-not-found: 404 → LLM_HTTP_ERROR "File Not Found", not retryable', () => {
    const fixture = readLlamaFixture('error-not-found');
    const error = classifyHttpError(fixture.status, fixture.text);
    expect(fixture.status).toBe(404);
    expect(error.code).toBe('LLM_HTTP_ERROR');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('File Not Found');
    expect(error.details).toMatchObject({ status: 404, type: 'not_found_error', providerCode: 404 });
  });

  it('error-malformed-json: 500 server_error → LLM_SERVER_ERROR, retryable, with the parser message', () => {
    const fixture = readLlamaFixture('error-malformed-json');
    const error = classifyHttpError(fixture.status, fixture.text);
    expect(fixture.status).toBe(500);
    expect(error).toBeInstanceOf(SpineError);
    expect(error.code).toBe('LLM_SERVER_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^\[json\.exception\.parse_error\.101\] parse error at line 1, column 84/);
  });
});
