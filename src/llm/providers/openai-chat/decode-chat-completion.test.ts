import { describe, expect, it } from 'vitest';
import { decodeChatCompletion } from './decode-chat-completion.js';

const body = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'x',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    ...extra,
  });

describe('decodeChatCompletion', () => {
  it('decodes text, usage and latency', () => {
    const response = decodeChatCompletion(
      body({ content: 'hi' }, { usage: { prompt_tokens: 1, completion_tokens: 2 } }),
      { latencyMs: 12 },
    );
    expect(response).toMatchObject({
      content: 'hi',
      finishReason: 'stop',
      model: 'm',
      usage: { totalTokens: 3, latencyMs: 12 },
    });
    expect(response.message).toEqual({ role: 'assistant', content: 'hi' });
  });

  it('tolerates leading blank lines (DeepSeek keep-alive)', () => {
    expect(decodeChatCompletion(`\n\n\r\n  ${body({ content: 'ok' })}`, { latencyMs: 0 }).content).toBe('ok');
  });

  it('reads content null as "" and tool calls with a stop finish as tool_calls', () => {
    const response = decodeChatCompletion(
      body({
        content: null,
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"q":1}' } }],
      }),
      { latencyMs: 0 },
    );
    expect(response).toMatchObject({ content: '', finishReason: 'tool_calls', message: { content: null } });
    expect(response.toolCalls).toEqual([
      { id: 'a', name: 'f', arguments: { q: 1 }, rawArguments: '{"q":1}' },
    ]);
  });

  it('accepts object arguments and generates missing ids', () => {
    const response = decodeChatCompletion(
      body({ content: '', tool_calls: [{ function: { name: 'f', arguments: { q: 1 } } }] }),
      {
        latencyMs: 0,
      },
    );
    expect(response.toolCalls[0]).toMatchObject({ name: 'f', arguments: { q: 1 }, rawArguments: '{"q":1}' });
    expect(response.toolCalls[0]?.id).toMatch(/^call_/);
    expect(response.repairs[0]?.kind).toBe('generated-id');
  });

  it('splits <think> from content and reads reasoning fields', () => {
    expect(decodeChatCompletion(body({ content: '<think>a</think>\nb' }), { latencyMs: 0 })).toMatchObject({
      content: 'b',
      reasoning: 'a',
      message: { content: 'b' },
    });
    expect(decodeChatCompletion(body({ content: 'b', reasoning: 'r' }), { latencyMs: 0 }).reasoning).toBe(
      'r',
    );
  });

  it('throws the classified error for a 200 error body', () => {
    expect(() => decodeChatCompletion('{"error":{"message":"quota","code":429}}', { latencyMs: 0 })).toThrow(
      expect.objectContaining({ code: 'LLM_RATE_LIMITED', message: 'quota' }),
    );
  });

  it.each([
    ['not JSON', '{"choices":['],
    ['empty', '  '],
    ['an array', '[]'],
    ['no choices', '{"id":"x"}'],
    ['empty choices', '{"choices":[]}'],
    ['a choice without message', '{"choices":[{"index":0,"delta":{}}]}'],
  ])('%s → LLM_BAD_RESPONSE, retryable', (_name, text) => {
    expect(() => decodeChatCompletion(text, { latencyMs: 0 })).toThrow(
      expect.objectContaining({ code: 'LLM_BAD_RESPONSE', retryable: true }),
    );
  });
});
