import { describe, expect, it } from 'vitest';
import { SpineError } from '../../../core/spine-error.js';
import type { ChatMessage, ModelRequest, ToolSpec } from '../../../core/types.js';
import { buildOllamaRequest } from './build-ollama-request.js';
import { classifyOllamaHttpError } from './classify-ollama-error.js';
import { resolveOllamaChatUrl } from './resolve-ollama-chat-url.js';

const endpoint = { provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3' };
const weatherTool: ToolSpec = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

function bodyOf(request: ModelRequest, stream = false): Record<string, unknown> {
  return JSON.parse(buildOllamaRequest(endpoint, request, stream).body);
}

describe('resolveOllamaChatUrl', () => {
  it('appends /api/chat to the root, trimming /v1, /api and slashes, and keeps a full URL', () => {
    expect(resolveOllamaChatUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/api/chat');
    expect(resolveOllamaChatUrl('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434/api/chat');
    expect(resolveOllamaChatUrl('http://h:11434/v1/')).toBe('http://h:11434/api/chat');
    expect(resolveOllamaChatUrl('http://h:11434/api')).toBe('http://h:11434/api/chat');
    expect(resolveOllamaChatUrl('http://h/proxy/ollama/api/chat/')).toBe('http://h/proxy/ollama/api/chat');
  });
});

describe('buildOllamaRequest', () => {
  it('always says whether to stream (Ollama streams unless told not to)', () => {
    const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(bodyOf(request, false)).toEqual({
      model: 'qwen3',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
    expect(bodyOf(request, true).stream).toBe(true);
    const spec = buildOllamaRequest({ ...endpoint, baseUrl: 'http://h:11434/v1' }, request, true);
    expect(spec.url).toBe('http://h:11434/api/chat');
    expect(spec.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/x-ndjson',
    });
  });

  it('sends history with object arguments and named tool results', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo and Lima?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '' } },
          { id: 'c3', type: 'function', function: { name: 'get_weather', arguments: '[1,2]' } },
        ],
        reasoning_content: 'not sent back',
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"ok":true,"data":"4 °C"}' },
      { role: 'tool', tool_call_id: 'c2', content: '{"ok":true}', name: 'explicit_name' },
      { role: 'tool', tool_call_id: 'unknown', content: 'x' },
    ];
    const snapshot = structuredClone(messages);
    expect(bodyOf({ messages, tools: [weatherTool] }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo and Lima?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', function: { name: 'get_weather', arguments: { city: 'Oslo' } } },
          { id: 'c2', function: { name: 'get_weather', arguments: {} } },
          { id: 'c3', function: { name: 'get_weather', arguments: {} } },
        ],
      },
      { role: 'tool', content: '{"ok":true,"data":"4 °C"}', tool_call_id: 'c1', tool_name: 'get_weather' },
      { role: 'tool', content: '{"ok":true}', tool_call_id: 'c2', tool_name: 'explicit_name' },
      { role: 'tool', content: 'x', tool_call_id: 'unknown' },
    ]);
    expect(messages).toEqual(snapshot);
  });

  it('maps maxTokens, temperature and numCtx into options, and passes think and format through', () => {
    const body = bodyOf({
      messages: [],
      maxTokens: 64,
      temperature: 0.2,
      extraBody: {
        numCtx: 8192,
        think: 'low',
        format: 'json',
        seed: 7,
        options: { top_k: 20 },
        stream: true,
      },
    });
    expect(body).toEqual({
      model: 'qwen3',
      messages: [],
      stream: false,
      think: 'low',
      format: 'json',
      options: { num_predict: 64, temperature: 0.2, top_k: 20, seed: 7, num_ctx: 8192 },
    });
    expect(bodyOf({ messages: [], extraBody: { options: { num_ctx: 4096 } } }).options).toEqual({
      num_ctx: 4096,
    });
    expect(bodyOf({ messages: [], extraBody: { num_ctx: 2048 } }).options).toEqual({ num_ctx: 2048 });
  });

  it('sends tools as they are, and none when toolChoice is "none"', () => {
    expect(bodyOf({ messages: [], tools: [weatherTool], toolChoice: 'required' }).tools).toEqual([
      weatherTool,
    ]);
    expect(bodyOf({ messages: [], tools: [weatherTool], toolChoice: 'none' })).not.toHaveProperty('tools');
    expect(bodyOf({ messages: [], tools: [] })).not.toHaveProperty('tools');
    expect(bodyOf({ messages: [], tools: [weatherTool] })).not.toHaveProperty('tool_choice');
  });

  it('inlines data-URL images as base64 and refuses remote ones', () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const body = bodyOf({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }],
    });
    expect(body.messages).toEqual([{ role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] }]);
    const remote = { type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } };
    let failure: unknown;
    try {
      bodyOf({ messages: [{ role: 'user', content: [remote] }] });
    } catch (error) {
      failure = error;
    }
    expect(SpineError.is(failure) && failure.message).toMatch(/only inline/);
  });

  it('uses the request model over the endpoint one, and sends a bearer key for a proxy', () => {
    const spec = buildOllamaRequest({ ...endpoint, apiKey: 'k' }, { messages: [], model: 'llama3.2' }, false);
    expect(JSON.parse(spec.body).model).toBe('llama3.2');
    expect(spec.headers.authorization).toBe('Bearer k');
  });
});

describe('classifyOllamaHttpError', () => {
  it('says how to get a missing model', () => {
    const error = classifyOllamaHttpError(404, '{"error":"model \'llama3.3\' not found"}');
    expect(error.code).toBe('LLM_HTTP_ERROR');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'model "llama3.3" is not available on this Ollama server: run `ollama pull llama3.3`',
    );
    expect(error.details).toMatchObject({ status: 404, model: 'llama3.3', remedy: 'ollama pull llama3.3' });
  });

  it('classifies other {error:"…"} bodies by status', () => {
    const overloaded = classifyOllamaHttpError(
      503,
      '{"error":"server busy, please try again.  maximum pending requests exceeded"}',
    );
    expect([overloaded.code, overloaded.retryable]).toEqual(['LLM_SERVER_ERROR', true]);
    const bad = classifyOllamaHttpError(
      400,
      '{"error":"json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments"}',
    );
    expect(bad.code).toBe('LLM_HTTP_ERROR');
    expect(bad.message).toMatch(/cannot unmarshal string/);
  });
});
