import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest } from '../../../core/types.js';
import { buildChatRequest } from './build-chat-request.js';
import { resolveAzureChatUrl, resolveChatUrl } from './resolve-chat-url.js';
import { toWireMessages } from './to-wire-messages.js';

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

describe('toWireMessages', () => {
  const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '' } };
  it('sends null content with tool calls, "" without, and "{}" for empty arguments', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'assistant', content: null },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    const snapshot = structuredClone(messages);
    expect(toWireMessages(messages, false)).toEqual([
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
  it('returns the same array when nothing needs changing', () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'more' },
    ];
    expect(toWireMessages(messages, false)).toBe(messages);
  });
  it('sends reasoning_content back only on tool-call messages of presets that replay it', () => {
    const withCalls: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [call],
      reasoning_content: 'r',
    };
    const plain: ChatMessage = { role: 'assistant', content: 'a', reasoning_content: 'r' };
    expect(toWireMessages([withCalls, plain], true)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ ...call, function: { name: 'f', arguments: '{}' } }],
        reasoning_content: 'r',
      },
      { role: 'assistant', content: 'a' },
    ]);
    const noReasoning: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ ...call, function: { name: 'f', arguments: '{}' } }],
    };
    expect(toWireMessages([noReasoning], true)[0]).toMatchObject({ reasoning_content: '' });
    expect(toWireMessages([withCalls], false)[0]).not.toHaveProperty('reasoning_content');
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
  it('asks for stream usage only from providers that accept it', () => {
    const body = (provider: string) =>
      JSON.parse(buildChatRequest({ ...endpoint, provider }, request, true).body);
    expect(body('vllm').stream_options).toEqual({ include_usage: true });
    expect(body('some-gateway').stream_options).toBeUndefined();
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
