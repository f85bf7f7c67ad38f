import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, ToolSpec } from '../../src/core/types.js';
import type { ModelClientOptions } from '../../src/llm/model-client.js';
import { resolvePreset } from '../../src/llm/providers/presets.js';
import { collectEvents, createTestClient } from '../client/client-test-kit.js';
import { completion, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';

// Chat Completions requests as each provider preset shapes them, checked on what the loopback runner received.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const strictTool: ToolSpec = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    strict: true,
  },
};
const looseTool: ToolSpec = {
  type: 'function',
  function: { name: 'get_weather', parameters: strictTool.function.parameters },
};
const ask: ModelRequest = {
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: [strictTool],
  toolChoice: 'required',
  maxTokens: 50,
  temperature: 0.2,
};

type Body = Record<string, unknown> & { messages: Array<Record<string, unknown>> };

async function sentBody(options: Partial<ModelClientOptions>, request: ModelRequest = ask): Promise<Body> {
  runner.enqueue({ sse: textStream(['ok']) });
  await collectEvents(createTestClient(runner, options).stream(request));
  const received = runner.requests.at(-1);
  expect(received?.url).toMatch(/\/chat\/completions/);
  return received?.body as Body;
}

describe('DeepSeek: reasoning_content on the way back (DECISIONS §7)', () => {
  const toolTurn = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'deepseek-reasoner',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          reasoning_content: 'Need the weather tool.',
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };

  it('keeps it on the assistant message and sends it back on tool-call turns only', async () => {
    runner.enqueue({ body: toolTurn }, { body: completion('Sunny.') });
    const client = createTestClient(runner, {
      provider: 'deepseek',
      model: 'deepseek-reasoner',
      apiKey: 'ds-key',
    });
    const first = await client.respond(ask);
    expect(first.message.reasoning_content).toBe('Need the weather tool.');
    expect(first.reasoning).toBe('Need the weather tool.');
    const history: ChatMessage[] = [
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer', reasoning_content: 'earlier thoughts' },
      { role: 'assistant', content: null, tool_calls: first.message.tool_calls ?? [] },
      ...ask.messages,
      first.message,
      { role: 'tool', tool_call_id: 'call_0', content: '{"ok":true,"data":"sunny"}' },
    ];
    await client.respond({ ...ask, messages: history });
    const second = runner.requests[1];
    if (!second) throw new Error('no second request');
    expect(second.headers.authorization).toBe('Bearer ds-key');
    const sent = (second.body as Body).messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: 'Earlier answer' });
    // A tool-call turn that had no reasoning still gets the field, empty.
    expect(sent[2]).toMatchObject({ role: 'assistant', reasoning_content: '' });
    expect(sent[4]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Need the weather tool.',
      tool_calls: toolTurn.choices[0]?.message.tool_calls,
    });
  });

  it('other presets never send reasoning_content back', async () => {
    const messages: ChatMessage[] = [
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'r',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: '{}' },
    ];
    for (const provider of ['openai', 'vllm', 'llamacpp', 'lmstudio', 'openai-compatible']) {
      const body = await sentBody({ provider }, { messages });
      expect(body.messages[0], provider).not.toHaveProperty('reasoning_content');
    }
  });
});

describe('OpenAI and Azure', () => {
  it('reasoning models get max_completion_tokens and no sampling values; strict and stream usage stay', async () => {
    const body = await sentBody({ provider: 'openai', model: 'gpt-5-mini', apiKey: 'sk' });
    expect(body).toMatchObject({
      model: 'gpt-5-mini',
      max_completion_tokens: 50,
      tool_choice: 'required',
      tools: [strictTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('other OpenAI models keep max_tokens and temperature; the per-call model decides', async () => {
    const client = { provider: 'openai', model: 'gpt-4o' };
    expect(await sentBody(client)).toMatchObject({ max_tokens: 50, temperature: 0.2 });
    const perCall = await sentBody(client, { ...ask, model: 'o3' });
    expect(perCall).toMatchObject({ model: 'o3', max_completion_tokens: 50 });
    expect(perCall).not.toHaveProperty('temperature');
  });

  it('Azure sends the key as api-key, with the deployment URL', async () => {
    runner.enqueue({ body: completion('az') });
    await createTestClient(runner, {
      provider: 'azure',
      baseUrl: runner.origin,
      model: 'gpt-5',
      apiKey: 'az',
    }).respond(ask);
    const received = runner.requests[0];
    expect(received?.url).toBe('/openai/deployments/gpt-5/chat/completions?api-version=2024-10-21');
    expect(received?.headers['api-key']).toBe('az');
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.body).toMatchObject({ max_completion_tokens: 50 });
  });
});

describe('local runners', () => {
  it('llama.cpp: no strict, one system message first, stream usage, required kept', async () => {
    const body = await sentBody(
      { provider: 'llamacpp' },
      {
        ...ask,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Oslo?' },
          { role: 'system', content: 'Use celsius.' },
        ],
      },
    );
    expect(body.tools).toEqual([looseTool]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nUse celsius.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(body).toMatchObject({
      tool_choice: 'required',
      max_tokens: 50,
      stream_options: { include_usage: true },
    });
  });

  it('vLLM: no tool_choice it would reject without server flags, no strict', async () => {
    const required = await sentBody({ provider: 'vllm' });
    expect(required).not.toHaveProperty('tool_choice');
    expect(required.tools).toEqual([looseTool]);
    const auto = await sentBody({ provider: 'vllm' }, { ...ask, toolChoice: 'auto' });
    expect(auto).not.toHaveProperty('tool_choice');
  });

  it('LM Studio: "" content beside tool calls, never null', async () => {
    const body = await sentBody(
      { provider: 'lmstudio' },
      {
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: '{}' },
          { role: 'assistant', content: null },
        ],
      },
    );
    expect(body.messages[0]).toMatchObject({ content: '' });
    expect(body.messages[2]).toEqual({ role: 'assistant', content: '' });
  });

  it('Ollama /v1 (provider ollama, apiType chat_completions) keeps /v1 and is shaped for the shim', async () => {
    const body = await sentBody(
      { provider: 'ollama', apiType: 'chat_completions', baseUrl: runner.baseUrl },
      {
        ...ask,
        temperature: undefined,
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: '{}' },
        ],
      },
    );
    expect(runner.requests[0]?.url).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ temperature: 0.8, top_p: 0.9, max_tokens: 50 });
    expect(body).not.toHaveProperty('tool_choice');
    expect(body.messages[1]).toEqual({ role: 'tool', tool_call_id: 'c', content: '{}', name: 'get_weather' });
  });

  it('Ollama /v1 sends inline images and refuses a remote one before any request (§52)', async () => {
    const ollamaV1 = {
      provider: 'ollama' as const,
      apiType: 'chat_completions' as const,
      baseUrl: runner.baseUrl,
    };
    const inline = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const body = await sentBody(ollamaV1, {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, inline] }],
    });
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'What is this?' }, inline],
    });
    const remote = { type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png' } };
    const sentBefore = runner.requests.length;
    await expect(
      collectEvents(
        createTestClient(runner, ollamaV1).stream({ messages: [{ role: 'user', content: [remote] }] }),
      ),
    ).rejects.toMatchObject({ code: 'LLM_HTTP_ERROR', message: expect.stringMatching(/only inline/) });
    expect(runner.requests.length).toBe(sentBefore);
  });

  it('openai-compatible against Ollama keeps …/v1 as given', async () => {
    await sentBody({ provider: 'openai-compatible', baseUrl: `${runner.origin}/v1` });
    expect(runner.requests[0]?.url).toBe('/v1/chat/completions');
  });
});

describe('overrides', () => {
  it('quirks override single preset entries', async () => {
    const body = await sentBody({ provider: 'llamacpp', quirks: { streamOptions: false, strict: true } });
    expect(body).not.toHaveProperty('stream_options');
    expect(body.tools).toEqual([strictTool]);
  });

  it('a given preset is used as it is', async () => {
    const preset = { ...resolvePreset('openai', { model: 'o3' }), toolChoiceRequired: false };
    const body = await sentBody({ provider: 'openai', model: 'custom-deployment', preset });
    expect(body).toMatchObject({ max_completion_tokens: 50 });
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('extraBody is the caller’s own and is sent as given, after shaping', async () => {
    const body = await sentBody(
      { provider: 'llamacpp' },
      { ...ask, extraBody: { parallel_tool_calls: true, seed: 1 } },
    );
    expect(body).toMatchObject({ parallel_tool_calls: true, seed: 1 });
  });

  it('parallelToolCalls is sent where the preset accepts it, and only with tools', async () => {
    const withTools = { ...ask, parallelToolCalls: false };
    expect(await sentBody({ provider: 'openai' }, withTools)).toMatchObject({ parallel_tool_calls: false });
    expect(await sentBody({ provider: 'ollama', apiType: 'chat_completions' }, withTools)).not.toHaveProperty(
      'parallel_tool_calls',
    );
    const { tools: _tools, toolChoice: _choice, ...noTools } = withTools;
    expect(await sentBody({ provider: 'openai' }, noTools)).not.toHaveProperty('parallel_tool_calls');
  });
});
