import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chunkOf,
  decodeStream,
  decodeStreamText,
  joinDeltas,
  responseOf,
  sseOf,
  toBytes,
} from '../../../../test/llm/decode-kit.js';
import { SpineError } from '../../../core/spine-error.js';
import { ChatStreamDecoder } from './chat-stream-decoder.js';

const text = (value: string, finish: string | null = null) => chunkOf({ content: value }, finish);
const finish = (reason: string) => chunkOf({}, reason);
const toolDelta = (entry: Record<string, unknown>) => chunkOf({ tool_calls: [entry] });
const usageChunk = {
  id: 'chatcmpl-1',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};

describe('ChatStreamDecoder: framing and ending', () => {
  it('streams text and ends with usage and exactly one done', () => {
    const result = decodeStreamText(
      sseOf([
        chunkOf({ role: 'assistant', content: null }),
        text('Hel'),
        text('lo'),
        finish('stop'),
        usageChunk,
      ]),
    );
    expect(result.events.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'usage', 'done']);
    const response = responseOf(result);
    expect(response).toMatchObject({ content: 'Hello', finishReason: 'stop', model: 'm', reasoning: null });
    expect(response.usage).toEqual({ promptTokens: 5, completionTokens: 2, totalTokens: 7, latencyMs: 250 });
    expect(response.raw).toEqual(usageChunk);
  });

  it('accepts CRLF, comments, keep-alives and empty data lines', () => {
    const body = `: keep-alive\r\n\r\ndata:\r\n\r\ndata: : OPENROUTER PROCESSING\r\n\r\n${sseOf([text('a'), finish('stop')], { lineEnd: '\r\n' })}`;
    expect(responseOf(decodeStreamText(body)).content).toBe('a');
  });

  it('stops at exact [DONE] and ignores anything after it', () => {
    const body = `${sseOf([text('a'), finish('stop')])}data: ${JSON.stringify(text('late'))}\n\n`;
    const result = decodeStreamText(body);
    expect(joinDeltas(result.events, 'text-delta')).toBe('a');
    expect(responseOf(result).content).toBe('a');
    const decoder = new ChatStreamDecoder({ startedAt: 0, now: () => 0 });
    decoder.push(toBytes(sseOf([text('a')])));
    expect(decoder.finished).toBe(true);
    expect(decoder.push(toBytes(`data: ${JSON.stringify(text('b'))}\n\n`))).toEqual([]);
  });

  it('does not take "[DONE] please" as the sentinel', () => {
    expect(decodeStreamText('data: [DONE] please\n\n').error?.code).toBe('LLM_BAD_RESPONSE');
  });

  it('flushes [DONE] sent without its blank line (llama-server)', () => {
    const result = decodeStreamText(`data: ${JSON.stringify(text('a'))}\n\ndata: [DONE]`);
    expect(responseOf(result)).toMatchObject({ content: 'a', finishReason: 'unknown' });
  });

  it('accepts a clean end after a finish reason without [DONE]', () => {
    expect(
      responseOf(decodeStreamText(sseOf([text('a'), finish('length')], { done: false }))).finishReason,
    ).toBe('length');
  });

  it('treats a stream that ends with neither finish reason nor [DONE] as a dropped connection', () => {
    const result = decodeStreamText(sseOf([text('partial')], { done: false }));
    expect(joinDeltas(result.events, 'text-delta')).toBe('partial');
    expect(result.error).toMatchObject({ code: 'LLM_CONNECTION', retryable: false });
    expect(result.error?.message).toMatch(/stream ended before the runner finished/);
    expect(decodeStreamText('').error?.code).toBe('LLM_CONNECTION');
  });

  it('reports content only once some was produced', () => {
    const decoder = new ChatStreamDecoder({ startedAt: 0, now: () => 0 });
    decoder.push(toBytes(sseOf([chunkOf({ role: 'assistant', content: '' })], { done: false })));
    expect(decoder.hasEmittedContent).toBe(false);
    decoder.push(
      toBytes(
        sseOf([toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '' } })], { done: false }),
      ),
    );
    expect(decoder.hasEmittedContent).toBe(true);
  });
});

describe('ChatStreamDecoder: errors inside the stream', () => {
  it('throws a classified error for a data error object, keeping the deltas before it', () => {
    const body = sseOf([text('a'), { error: { code: 500, message: 'boom', type: 'server_error' } }], {
      done: false,
    });
    const result = decodeStreamText(body);
    expect(joinDeltas(result.events, 'text-delta')).toBe('a');
    expect(result.error).toMatchObject({ code: 'LLM_SERVER_ERROR', message: 'boom' });
  });

  it("throws for llama.cpp's `error:` field line, context overflow by its wording", () => {
    const body =
      'error: {"code":400,"message":"the request exceeds the available context size, try increasing the context size or enable context shift","type":"invalid_request_error"}\n\ndata: [DONE]\n\n';
    const result = decodeStreamText(body);
    expect(result.events).toEqual([]);
    expect(result.error).toMatchObject({ code: 'LLM_CONTEXT_OVERFLOW', retryable: false });
  });

  it('throws for `event: error`, also when its data is not JSON', () => {
    expect(
      decodeStreamText('event: error\ndata: {"message":"quota","type":"rate_limit_error"}\n\n').error?.code,
    ).toBe('LLM_RATE_LIMITED');
    expect(decodeStreamText('event: error\ndata: upstream died\n\n').error).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'upstream died',
    });
  });

  it('throws for an OpenRouter-style chunk with top-level error and finish_reason error', () => {
    const chunk = {
      error: { code: 502, message: 'provider failed' },
      choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
    };
    expect(decodeStreamText(sseOf([chunk])).error).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'provider failed',
    });
  });

  it('throws LLM_BAD_RESPONSE for a data line that is not JSON or not an object', () => {
    expect(decodeStreamText('data: {"choices":[\n\n').error?.code).toBe('LLM_BAD_RESPONSE');
    expect(decodeStreamText('data: [1,2]\n\n').error?.code).toBe('LLM_BAD_RESPONSE');
  });

  it('keeps throwing after a failure', () => {
    const decoder = new ChatStreamDecoder({ startedAt: 0, now: () => 0 });
    expect(() => decoder.push(toBytes('data: nope\n\n'))).toThrow(SpineError);
    expect(() => decoder.push(toBytes(sseOf([text('a')])))).toThrow(SpineError);
    expect(() => decoder.end()).toThrow(SpineError);
  });

  it('never throws anything but a SpineError on arbitrary bytes', () => {
    const prefix = toBytes('data: {"choices":[{"index":0,"delta":{"content":"a');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, withPrefix) => {
        const body = withPrefix ? new Uint8Array([...prefix, ...bytes]) : bytes;
        try {
          const result = decodeStream(body, body.length > 2 ? [Math.floor(body.length / 2)] : []);
          if (!result.error) responseOf(result);
        } catch (error) {
          expect(SpineError.is(error)).toBe(true);
        }
      }),
    );
  });
});

describe('ChatStreamDecoder: chunks without choices or delta', () => {
  it("tolerates Azure's prompt_filter_results chunk and content_filter_offsets choices (§64)", () => {
    const body = sseOf([
      { id: '', model: '', created: 0, choices: [], prompt_filter_results: [{ prompt_index: 0 }] },
      text('ok'),
      { id: 'x', choices: [{ index: 0, content_filter_offsets: { start_offset: 0 } }] },
      { id: 'x', model: 'gpt-4o', choices: [{ index: 0, delta: {}, finish_reason: 'content_filter' }] },
    ]);
    const response = responseOf(decodeStreamText(body));
    expect(response).toMatchObject({ content: 'ok', finishReason: 'content_filter', model: 'gpt-4o' });
  });

  it('reads usage independently of choices, from a chunk with no choices key', () => {
    const response = responseOf(
      decodeStreamText(sseOf([text('a', 'stop'), { usage: { prompt_tokens: 1, completion_tokens: 1 } }])),
    );
    expect(response.usage.totalTokens).toBe(2);
  });

  it('ignores choices other than index 0', () => {
    const chunk = {
      choices: [
        { index: 1, delta: { content: 'other' } },
        { index: 0, delta: { content: 'mine' } },
      ],
    };
    expect(responseOf(decodeStreamText(sseOf([chunk, finish('stop')]))).content).toBe('mine');
  });

  it('gives content "" and no usage event when nothing came', () => {
    const result = decodeStreamText(sseOf([chunkOf({ role: 'assistant', content: null }), finish('stop')]));
    expect(result.events.map((event) => event.type)).toEqual(['done']);
    expect(responseOf(result)).toMatchObject({ content: '', message: { role: 'assistant', content: '' } });
  });
});

describe('ChatStreamDecoder: tool calls', () => {
  it('reports tool_calls when calls are present even if the runner says stop, with content null in history', () => {
    const body = sseOf([
      toolDelta({ index: 0, id: 'c1', type: 'function', function: { name: 'get', arguments: '{"a"' } }),
      toolDelta({ index: 0, function: { arguments: ':1}' } }),
      finish('stop'),
    ]);
    const result = decodeStreamText(body);
    const response = responseOf(result);
    expect(response.finishReason).toBe('tool_calls');
    expect(result.events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'c1', name: 'get', arguments: { a: 1 }, rawArguments: '{"a":1}' } },
    ]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get', arguments: '{"a":1}' } }],
    });
  });

  it('keeps text beside calls as a string in history and sends "{}" for empty arguments', () => {
    const body = sseOf([
      text('Let me check.'),
      toolDelta({ index: 0, id: 'c', function: { name: 'now', arguments: '' } }),
      finish('tool_calls'),
    ]);
    const response = responseOf(decodeStreamText(body));
    expect(response.toolCalls[0]).toMatchObject({ arguments: {}, rawArguments: '' });
    expect(response.message).toMatchObject({
      content: 'Let me check.',
      tool_calls: [{ function: { name: 'now', arguments: '{}' } }],
    });
  });

  it('a call cut off at length is incomplete and never a tool-call event', () => {
    const body = sseOf([
      toolDelta({ index: 0, id: 'c', function: { name: 'write', arguments: '{"content":"def f(' } }),
      finish('length'),
    ]);
    const result = decodeStreamText(body);
    const response = responseOf(result);
    expect(result.events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(response).toMatchObject({
      finishReason: 'length',
      toolCalls: [],
      incompleteToolCalls: [{ id: 'c', name: 'write', rawArguments: '{"content":"def f(' }],
    });
    expect(response.message.tool_calls).toBeUndefined();
  });

  it('truncation hidden as tool_calls (§16) is reported as length', () => {
    const body = sseOf([
      toolDelta({ index: 0, id: 'c', function: { name: 'write', arguments: '{"a":' } }),
      finish('tool_calls'),
    ]);
    expect(responseOf(decodeStreamText(body))).toMatchObject({ finishReason: 'length', toolCalls: [] });
  });

  it('generates the same ids for the same stream and records the repair', () => {
    const body = sseOf([
      toolDelta({ index: 0, function: { name: 'a', arguments: '{}' } }),
      toolDelta({ index: 1, function: { name: 'b', arguments: '{}' } }),
      finish('tool_calls'),
    ]);
    const first = responseOf(decodeStreamText(body));
    const second = responseOf(decodeStreamText(body, [17, 90]));
    expect(first.toolCalls.map((call) => call.id)).toEqual(second.toolCalls.map((call) => call.id));
    expect(first.repairs.map((repair) => repair.kind)).toEqual(['generated-id', 'generated-id']);
    expect(first.message.tool_calls?.map((call) => call.id)).toEqual(first.toolCalls.map((call) => call.id));
  });

  it('reads the legacy function_call delta as one call', () => {
    const body = sseOf([
      chunkOf({ function_call: { name: 'f', arguments: '{"x":' } }),
      chunkOf({ function_call: { arguments: '2}' } }),
      finish('function_call'),
    ]);
    const response = responseOf(decodeStreamText(body));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls[0]).toMatchObject({ name: 'f', arguments: { x: 2 } });
  });
});

describe('ChatStreamDecoder: reasoning', () => {
  it('streams reasoning_content as reasoning and keeps it on the history message', () => {
    const body = sseOf([
      chunkOf({ reasoning_content: 'think' }),
      chunkOf({ reasoning_content: 'ing', content: '' }),
      text('Hi'),
      finish('stop'),
    ]);
    const result = decodeStreamText(body);
    expect(result.events.map((event) => event.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'done',
    ]);
    expect(responseOf(result)).toMatchObject({
      reasoning: 'thinking',
      content: 'Hi',
      message: { reasoning_content: 'thinking' },
    });
  });

  it('reads the `reasoning` field (vLLM, LM Studio, Ollama /v1) without setting reasoning_content', () => {
    const response = responseOf(
      decodeStreamText(sseOf([chunkOf({ reasoning: 'r' }), text('t'), finish('stop')])),
    );
    expect(response.reasoning).toBe('r');
    expect(response.message.reasoning_content).toBeUndefined();
  });

  it('splits a <think> block at the start of content, tags cut across chunks', () => {
    const body = sseOf([
      text('<th'),
      text('ink>plan'),
      text('ning</th'),
      text('ink>\n\nAnswer'),
      finish('stop'),
    ]);
    const result = decodeStreamText(body);
    expect(joinDeltas(result.events, 'reasoning-delta')).toBe('planning');
    expect(joinDeltas(result.events, 'text-delta')).toBe('Answer');
    expect(responseOf(result)).toMatchObject({
      content: 'Answer',
      reasoning: 'planning',
      message: { content: 'Answer' },
    });
  });

  it('makes an unclosed block all reasoning and says so', () => {
    const response = responseOf(decodeStreamText(sseOf([text('<think>never done'), finish('length')])));
    expect(response).toMatchObject({ content: '', reasoning: 'never done' });
    expect(response.repairs.map((repair) => repair.kind)).toEqual(['unclosed-think']);
  });

  it('reads content that begins inside a template-opened block', () => {
    const response = responseOf(decodeStreamText(sseOf([text('hmm'), text('</think>Yes'), finish('stop')])));
    expect(response).toMatchObject({ content: 'Yes', reasoning: 'hmm' });
  });
});

describe('ChatStreamDecoder: byte splits', () => {
  it('gives the same events for a split at every byte, including inside multi-byte characters', () => {
    const body = toBytes(
      sseOf(
        [
          text('<think>é😀</think>ü'),
          toolDelta({ index: 0, id: 'c', function: { name: 'f', arguments: '{"k":"€"}' } }),
          finish('stop'),
          usageChunk,
        ],
        {
          lineEnd: '\r\n',
        },
      ),
    );
    const whole = decodeStream(body);
    expect(responseOf(whole)).toMatchObject({ content: 'ü', reasoning: 'é😀', finishReason: 'tool_calls' });
    for (let cut = 1; cut < body.length; cut++)
      expect(decodeStream(body, [cut]).events).toEqual(whole.events);
  });
});
