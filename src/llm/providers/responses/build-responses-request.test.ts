import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, ToolSpec } from '../../../core/types.js';
import { buildResponsesRequest } from './build-responses-request.js';
import { resolveResponsesUrl } from './resolve-responses-url.js';

const endpoint = { provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'gpt-x' };
const weatherTool: ToolSpec = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

function bodyOf(request: ModelRequest, stream = false): Record<string, unknown> {
  return JSON.parse(buildResponsesRequest(endpoint, request, stream).body);
}

describe('resolveResponsesUrl', () => {
  it('appends /responses, and keeps a full endpoint URL', () => {
    expect(resolveResponsesUrl('http://h:1/v1')).toBe('http://h:1/v1/responses');
    expect(resolveResponsesUrl('http://h:1/v1/')).toBe('http://h:1/v1/responses');
    expect(resolveResponsesUrl('http://h:1/v1/responses/')).toBe('http://h:1/v1/responses');
  });
});

describe('buildResponsesRequest', () => {
  it('sends system messages as instructions and the rest as input, stateless', () => {
    const spec = buildResponsesRequest(
      { ...endpoint, apiKey: 'sk' },
      {
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'system', content: 'Answer in English.' },
          { role: 'user', content: 'Say hello.' },
        ],
        maxTokens: 16,
        temperature: 0.3,
      },
      true,
    );
    expect(spec.url).toBe('http://127.0.0.1:8080/v1/responses');
    expect(spec.headers).toMatchObject({ authorization: 'Bearer sk', accept: 'text/event-stream' });
    expect(JSON.parse(spec.body)).toEqual({
      model: 'gpt-x',
      instructions: 'You are terse.\n\nAnswer in English.',
      input: [{ type: 'message', role: 'user', content: 'Say hello.' }],
      max_output_tokens: 16,
      temperature: 0.3,
      store: false,
      stream: true,
    });
  });

  it('turns tool calls and results into function_call and function_call_output items', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          {
            id: 'call_abc123',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_def', type: 'function', function: { name: 'get_time', arguments: '' } },
        ],
        reasoning_content: 'never sent',
      },
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature":18}' },
      { role: 'tool', tool_call_id: 'call_def', content: '"12:00"', name: 'get_time' },
      { role: 'assistant', content: 'It is 18 °C at noon.' },
      { role: 'user', content: 'Thanks' },
    ];
    const snapshot = structuredClone(messages);
    expect(bodyOf({ messages }).input).toEqual([
      { type: 'message', role: 'user', content: 'What is the weather in Paris?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', call_id: 'call_abc123', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_def', name: 'get_time', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_abc123', output: '{"temperature":18}' },
      { type: 'function_call_output', call_id: 'call_def', output: '"12:00"' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'It is 18 °C at noon.' }],
      },
      { type: 'message', role: 'user', content: 'Thanks' },
    ]);
    expect(messages).toEqual(snapshot);
  });

  it('matches the recorded llama-server tool request', () => {
    const body = bodyOf({
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
      toolChoice: 'required',
      maxTokens: 128,
      extraBody: { seed: 2 },
    });
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'get_weather',
        description: 'Get the current weather for a city',
        parameters: weatherTool.function.parameters,
        strict: false,
      },
    ]);
    expect(body).toMatchObject({ tool_choice: 'required', max_output_tokens: 128, seed: 2 });
  });

  it('maps a named tool choice, keeps strict when asked, and drops tool_choice without tools', () => {
    const strictTool: ToolSpec = { type: 'function', function: { ...weatherTool.function, strict: true } };
    const body = bodyOf({
      messages: [],
      tools: [strictTool],
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(body.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
    expect((body.tools as Array<{ strict: boolean }>)[0]?.strict).toBe(true);
    expect(bodyOf({ messages: [], toolChoice: 'required' })).not.toHaveProperty('tool_choice');
  });

  it('sends content parts as input_text and input_image', () => {
    const body = bodyOf({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
      ],
    });
    expect(body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'https://example.com/a.png' },
        ],
      },
    ]);
  });

  it('lets extraBody add fields and override store, but never replace input or stream', () => {
    const body = bodyOf({
      messages: [{ role: 'user', content: 'hi' }],
      extraBody: { input: 'x', stream: true, store: true, reasoning: { effort: 'low' } },
    });
    expect(body).toMatchObject({
      input: [{ type: 'message', role: 'user', content: 'hi' }],
      stream: false,
      store: true,
    });
    expect(body.reasoning).toEqual({ effort: 'low' });
  });

  it('uses the api-key header for Azure', () => {
    const spec = buildResponsesRequest(
      { ...endpoint, provider: 'azure', apiKey: 'az' },
      { messages: [] },
      false,
    );
    expect(spec.headers['api-key']).toBe('az');
    expect(spec.headers).not.toHaveProperty('authorization');
  });
});
