import { describe, expect, it } from 'vitest';
import {
  isOpenAiReasoningModel,
  type ProviderName,
  providerNames,
  providerPresets,
  resolvePreset,
} from './presets.js';
import { shapeChatRequestBody } from './shape-chat-request-body.js';

const tool = { type: 'function', function: { name: 'read', parameters: { type: 'object' }, strict: true } };
const call = { id: 'c1', type: 'function', function: { name: 'read', arguments: '' } };

function shape(provider: ProviderName, body: Record<string, unknown>, model = 'm') {
  return shapeChatRequestBody({ model, messages: [], ...body }, resolvePreset(provider, { model }));
}

describe('providerPresets', () => {
  it('has one preset per provider name, named after it', () => {
    for (const name of providerNames) expect(providerPresets[name].name).toBe(name);
  });

  it.each([
    ['gpt-5.1', true],
    ['o3-mini', true],
    ['openai/o4-mini', true],
    ['gpt-4o', false],
    ['gpt-4.1-mini', false],
    ['qwen3-o1', false],
  ])('isOpenAiReasoningModel(%s) is %s', (model, expected) => {
    expect(isOpenAiReasoningModel(model)).toBe(expected);
  });

  it('applies the model-name rule only to OpenAI and Azure, and quirks last', () => {
    expect(resolvePreset('openai', { model: 'o3' })).toMatchObject({
      maxTokensField: 'max_completion_tokens',
      parallelToolCalls: false,
      samplingParameters: false,
    });
    expect(resolvePreset('azure', { model: 'gpt-5' }).parallelToolCalls).toBe(true);
    expect(resolvePreset('vllm', { model: 'o3' }).maxTokensField).toBe('max_tokens');
    const quirked = resolvePreset('openai', { model: 'o3', quirks: { maxTokensField: 'max_tokens' } });
    expect(quirked.maxTokensField).toBe('max_tokens');
  });
});

describe('shapeChatRequestBody', () => {
  it.each<[string, ProviderName, Record<string, unknown>, string, Record<string, unknown>]>([
    ['keeps strict where supported', 'openai', { tools: [tool] }, 'm', { tools: [tool] }],
    [
      'drops strict where unsupported',
      'llamacpp',
      { tools: [tool] },
      'm',
      {
        parallel_tool_calls: true,
        tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }],
      },
    ],
    [
      'asks llama-server for parallel calls when the caller did not say (§32)',
      'llamacpp',
      { tools: [tool] },
      'm',
      { parallel_tool_calls: true },
    ],
    [
      "keeps the caller's parallel_tool_calls: false on llama-server",
      'llamacpp',
      { tools: [tool], parallel_tool_calls: false },
      'm',
      { parallel_tool_calls: false },
    ],
    [
      'adds no parallel_tool_calls for a generic OpenAI-compatible runner',
      'openai-compatible',
      { tools: [tool] },
      'm',
      {},
    ],
    [
      'never sends strict: null',
      'openai',
      { tools: [{ type: 'function', function: { name: 'x', strict: null } }] },
      'm',
      { tools: [{ type: 'function', function: { name: 'x' } }] },
    ],
    [
      'drops an empty tool list and its companions',
      'openai',
      { tools: [], parallel_tool_calls: true, tool_choice: 'auto' },
      'm',
      {},
    ],
    [
      'keeps parallel_tool_calls with tools',
      'llamacpp',
      { tools: [tool], parallel_tool_calls: true },
      'm',
      { parallel_tool_calls: true },
    ],
    [
      'drops parallel_tool_calls on o-series',
      'openai',
      { tools: [tool], parallel_tool_calls: false },
      'o1',
      {},
    ],
    [
      'drops parallel_tool_calls on Ollama',
      'ollama',
      { tools: [tool], parallel_tool_calls: true, temperature: 0, top_p: 1 },
      'm',
      { temperature: 0, top_p: 1 },
    ],
    [
      'renames max_tokens for reasoning models',
      'openai',
      { max_tokens: 50 },
      'gpt-5-mini',
      { max_completion_tokens: 50 },
    ],
    [
      'renames max_completion_tokens for local runners',
      'vllm',
      { max_completion_tokens: 50 },
      'm',
      { max_tokens: 50 },
    ],
    ['keeps max_tokens for gpt-4o', 'openai', { max_tokens: 50 }, 'gpt-4o', { max_tokens: 50 }],
    ['drops sampling values on reasoning models', 'openai', { temperature: 0.2, top_p: 0.5 }, 'o3', {}],
    [
      'fills sampling defaults on Ollama /v1',
      'ollama',
      { temperature: 0.1 },
      'm',
      { temperature: 0.1, top_p: 0.9 },
    ],
    ['drops tool_choice required on vLLM', 'vllm', { tools: [tool], tool_choice: 'required' }, 'm', {}],
    ['drops tool_choice auto on vLLM', 'vllm', { tools: [tool], tool_choice: 'auto' }, 'm', {}],
    [
      'keeps named tool_choice on OpenAI',
      'openai',
      { tools: [tool], tool_choice: { type: 'function', function: { name: 'read' } } },
      'm',
      { tool_choice: { type: 'function', function: { name: 'read' } } },
    ],
    [
      'drops named tool_choice on Ollama',
      'ollama',
      { tools: [tool], tool_choice: { type: 'function', function: { name: 'read' } } },
      'm',
      { temperature: 0.8, top_p: 0.9 },
    ],
    [
      'adds include_usage to streams',
      'llamacpp',
      { stream: true },
      'm',
      { stream_options: { include_usage: true } },
    ],
    [
      'never sends stream_options without streaming',
      'openai',
      { stream: false, stream_options: { include_usage: true } },
      'm',
      {},
    ],
  ])('%s (%s)', (_name, provider, body, model, expected) => {
    const shaped = shape(provider, body, model);
    const { model: _model, messages: _messages, stream: _stream, tools, ...rest } = shaped;
    const expectedTools = expected.tools;
    const { tools: _expectedTools, ...expectedRest } = expected;
    expect(rest).toEqual(expectedRest);
    if (expectedTools) expect(tools).toEqual(expectedTools);
    else if (!('tools' in body) || (body.tools as unknown[]).length === 0) expect(tools).toBeUndefined();
  });

  it('merges system messages into one at index 0 where the preset says', () => {
    const messages = [
      { role: 'user', content: 'a' },
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
    ];
    expect(shape('llamacpp', { messages }).messages).toEqual([
      { role: 'system', content: 'one\n\ntwo' },
      { role: 'user', content: 'a' },
    ]);
    expect(shape('openai', { messages }).messages).toEqual(messages);
  });

  it('sends reasoning_content back only on DeepSeek tool-call turns, "" when there was none', () => {
    const messages = [
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'assistant', content: 'x', tool_calls: [call], reasoning_content: 'thought' },
      { role: 'assistant', content: 'done', reasoning_content: 'more' },
    ];
    const withArgs = { ...call, function: { name: 'read', arguments: '{}' } };
    expect(shape('deepseek', { messages }).messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [withArgs], reasoning_content: '' },
      { role: 'assistant', content: 'x', tool_calls: [withArgs], reasoning_content: 'thought' },
      { role: 'assistant', content: 'done' },
    ]);
    expect(shape('vllm', { messages }).messages).toEqual([
      { role: 'assistant', content: null, tool_calls: [withArgs] },
      { role: 'assistant', content: 'x', tool_calls: [withArgs] },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('uses the preset content with tool calls, and "" for null content without', () => {
    const messages = [
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'assistant', content: null },
    ];
    const [withCalls, withoutCalls] = shape('lmstudio', { messages }).messages as Record<string, unknown>[];
    expect(withCalls?.content).toBe('');
    expect(withoutCalls).toEqual({ role: 'assistant', content: '' });
    expect((shape('openai', { messages }).messages as Record<string, unknown>[])[0]?.content).toBeNull();
  });

  it('names tool messages after their call where the preset says', () => {
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ ...call, function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{}' },
      { role: 'tool', tool_call_id: 'unknown', content: '{}' },
    ];
    const shaped = shape('ollama', { messages }).messages as Record<string, unknown>[];
    expect(shaped[1]).toEqual({ role: 'tool', tool_call_id: 'c1', content: '{}', name: 'read' });
    expect(shaped[2]).toEqual({ role: 'tool', tool_call_id: 'unknown', content: '{}' });
    expect((shape('openai', { messages }).messages as Record<string, unknown>[])[1]).not.toHaveProperty(
      'name',
    );
  });

  it('never writes to the given body', () => {
    const body = {
      model: 'o3',
      max_tokens: 5,
      tools: [tool],
      messages: [
        { role: 'system', content: 's' },
        { role: 'assistant', content: null, tool_calls: [call], reasoning_content: 'r' },
      ],
    };
    const snapshot = structuredClone(body);
    shapeChatRequestBody(body, resolvePreset('deepseek'));
    shapeChatRequestBody(body, resolvePreset('openai', { model: 'o3' }));
    expect(body).toEqual(snapshot);
  });
});
