import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../../../core/types.js';
import { buildChatRequest } from './build-chat-request.js';
import { resolveAzureChatUrl, resolveChatUrl } from './resolve-chat-url.js';

describe('resolveChatUrl', () => {
  it('appends /chat/completions with or without a trailing slash, and keeps a full endpoint', () => {
    expect(resolveChatUrl('http://h:1/v1')).toBe('http://h:1/v1/chat/completions');
    expect(resolveChatUrl('http://h:1/v1//')).toBe('http://h:1/v1/chat/completions');
    expect(resolveChatUrl('http://h:1/v1/chat/completions/')).toBe('http://h:1/v1/chat/completions');
  });
});

describe('resolveAzureChatUrl', () => {
  it('builds the classic deployment URL with api-version', () => {
    expect(resolveAzureChatUrl('https://r.openai.azure.com/', 'gpt 4o', '2024-10-21')).toBe(
      'https://r.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21',
    );
    expect(resolveAzureChatUrl('https://r.openai.azure.com/openai', 'd', 'v')).toBe(
      'https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=v',
    );
  });
  it('uses the v1 form for a base URL ending in /openai/v1', () => {
    expect(resolveAzureChatUrl('https://r.openai.azure.com/openai/v1/', 'd', 'v')).toBe(
      'https://r.openai.azure.com/openai/v1/chat/completions',
    );
  });
  it('keeps a full endpoint URL, adding the version when missing', () => {
    const full = 'https://r.openai.azure.com/openai/deployments/d/chat/completions';
    expect(resolveAzureChatUrl(full, 'x', 'v')).toBe(`${full}?api-version=v`);
    expect(resolveAzureChatUrl(`${full}?api-version=w`, 'x', 'v')).toBe(`${full}?api-version=w`);
  });
});

describe('buildChatRequest: messages', () => {
  const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '' } };
  const sentMessages = (provider: string, messages: ChatMessage[]) =>
    JSON.parse(buildChatRequest({ provider, baseUrl: 'http://h/v1', model: 'm' }, { messages }, false).body)
      .messages;

  it('sends null content with tool calls, "" without, and "{}" for empty arguments', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'assistant', content: null },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    const snapshot = structuredClone(messages);
    expect(sentMessages('openai', messages)).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ ...call, function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: '' },
    ]);
    expect(messages).toEqual(snapshot);
  });

  it('sends reasoning_content back only on DeepSeek tool-call messages', () => {
    const withCalls: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [call],
      reasoning_content: 'r',
    };
    const plain: ChatMessage = { role: 'assistant', content: 'a', reasoning_content: 'r' };
    const noReasoning: ChatMessage = { role: 'assistant', content: null, tool_calls: [call] };
    const filled = { ...call, function: { name: 'f', arguments: '{}' } };
    expect(sentMessages('deepseek', [withCalls, plain, noReasoning])).toEqual([
      { role: 'assistant', content: null, tool_calls: [filled], reasoning_content: 'r' },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: null, tool_calls: [filled], reasoning_content: '' },
    ]);
    expect(sentMessages('openai', [withCalls])[0]).not.toHaveProperty('reasoning_content');
  });
});

describe('buildChatRequest', () => {
  const endpoint = { provider: 'openai-compatible', baseUrl: 'http://h/v1', model: 'm' };
  const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }] };
  it('leaves out what was not asked for', () => {
    expect(JSON.parse(buildChatRequest(endpoint, { ...request, tools: [] }, false).body)).toEqual({
      model: 'm',
      messages: request.messages,
      stream: false,
    });
  });
  it('asks for stream usage only where the preset accepts it', () => {
    const body = (options: Partial<typeof endpoint> & { quirks?: { streamOptions: boolean } }) =>
      JSON.parse(buildChatRequest({ ...endpoint, ...options }, request, true).body);
    expect(body({ provider: 'vllm' }).stream_options).toEqual({ include_usage: true });
    expect(body({ quirks: { streamOptions: false } }).stream_options).toBeUndefined();
  });
  it('refuses a provider that is not a preset, naming the valid ones', () => {
    expect(() => buildChatRequest({ ...endpoint, provider: 'some-gateway' }, request, true)).toThrow(
      /unknown provider "some-gateway": must be one of openai, azure, deepseek/,
    );
  });
  it('takes the field names of the model the call names (an OpenAI reasoning model per call)', () => {
    const openai = { ...endpoint, provider: 'openai', model: 'gpt-4o' };
    const body = (model: string) =>
      JSON.parse(buildChatRequest(openai, { ...request, model, maxTokens: 9, temperature: 0.1 }, false).body);
    expect(body('gpt-4o')).toMatchObject({ max_tokens: 9, temperature: 0.1 });
    expect(body('o3')).toMatchObject({ max_completion_tokens: 9 });
    expect(body('o3')).not.toHaveProperty('temperature');
  });
  it('lets extraBody add fields but never replace messages or stream', () => {
    const body = JSON.parse(
      buildChatRequest(
        endpoint,
        { ...request, extraBody: { seed: 7, messages: [], stream: true, model: 'x' } },
        false,
      ).body,
    );
    expect(body).toEqual({ model: 'x', messages: request.messages, stream: false, seed: 7 });
  });
});
