import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpineError } from '../../src/core/spine-error.js';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../src/core/types.js';
import { createLlmClient } from '../../src/llm/llm-client.js';
import { createModelClient } from '../../src/llm/model-client.js';
import { collectEvents, createTestClient } from '../client/client-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { answer, chatAnswer, ollamaNativeAnswer, responsesAnswer } from './same-answer.js';

// One answer — reasoning, a sentence, one tool call — spoken in each dialect, normalized to one ModelResponse.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const question: ModelRequest = {
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: [weatherTool],
};
/** What must not differ between dialects: everything but the raw wire object and the runner's timings. */
function normalized(response: ModelResponse) {
  const { raw: _raw, usage, ...rest } = response;
  const { latencyMs: _latency, timings: _timings, ...counts } = usage;
  return { ...rest, usage: counts };
}

const expected = {
  content: 'Checking.',
  reasoning: 'Need the tool.',
  finishReason: 'tool_calls',
  model: 'qwen3',
  toolCalls: [
    { id: 'call_oslo', name: 'get_weather', arguments: { city: 'Oslo' }, rawArguments: '{"city":"Oslo"}' },
  ],
  incompleteToolCalls: [],
  repairs: [],
  usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 },
  message: {
    role: 'assistant',
    content: 'Checking.',
    tool_calls: [
      { id: 'call_oslo', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
    ],
  },
};

function threeRoles(origin: string) {
  return {
    models: {
      chat: {
        id: 'qwen3',
        endpoint: `${origin}/v1`,
        apiType: 'chat_completions' as const,
        provider: 'lmstudio' as const,
      },
      // api_type inferred from the full URL.
      responses: { id: 'qwen3', endpoint: `${origin}/v1/responses` },
      local: { id: 'qwen3', endpoint: origin, apiType: 'ollama' as const, contextLength: 8192 },
    },
  };
}

function doneOf(events: StreamEvent[]): ModelResponse {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('no done event');
  return done.response;
}

function joined(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events.map((event) => (event.type === type ? event.text : '')).join('');
}

describe('createLlmClient: roles in three api_types give one normalized answer', () => {
  it('respond()', async () => {
    runner.enqueue(chatAnswer(false), responsesAnswer(false), ollamaNativeAnswer(false));
    const llm = createLlmClient(threeRoles(runner.origin), { env: {} });
    const responses = [];
    for (const role of ['chat', 'responses', 'local'])
      responses.push(await llm.respond({ ...question, role }));
    expect(runner.requests.map((request) => request.url)).toEqual([
      '/v1/chat/completions',
      '/v1/responses',
      '/api/chat',
    ]);
    expect(runner.requests[0]?.body).toMatchObject({
      messages: question.messages,
      tools: [weatherTool],
      stream: false,
    });
    expect(runner.requests[1]?.body).toMatchObject({
      input: question.messages,
      tools: [{ type: 'function', name: 'get_weather' }],
      stream: false,
    });
    expect(runner.requests[2]?.body).toMatchObject({
      messages: question.messages,
      stream: false,
      options: { num_ctx: 8192 },
    });
    for (const response of responses) expect(normalized(response)).toEqual(expected);
  });

  it('stream(): the same events in substance and the same final response', async () => {
    runner.enqueue(chatAnswer(true), responsesAnswer(true), ollamaNativeAnswer(true));
    const llm = createLlmClient(threeRoles(runner.origin), { env: {} });
    for (const role of ['chat', 'responses', 'local']) {
      const events = await collectEvents(llm.stream({ ...question, role }));
      expect(joined(events, 'reasoning-delta'), role).toBe(answer.reasoning);
      expect(joined(events, 'text-delta'), role).toBe(answer.text);
      expect(
        events.filter((event) => event.type === 'tool-call'),
        role,
      ).toEqual([{ type: 'tool-call', call: expected.toolCalls[0] }]);
      expect(
        events.filter((event) => event.type === 'usage'),
        role,
      ).toHaveLength(1);
      expect(normalized(doneOf(events)), role).toEqual(expected);
    }
    expect(runner.requests.map((request) => request.headers.accept)).toEqual([
      'text/event-stream',
      'text/event-stream',
      'application/x-ndjson',
    ]);
    expect(runner.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});

describe('createModelClient: choosing the dialect', () => {
  it('provider ollama means the native API at the server root', async () => {
    runner.enqueue(ollamaNativeAnswer(false));
    const client = createTestClient(runner, {
      provider: 'ollama',
      baseUrl: `${runner.origin}/v1`,
      model: 'qwen3',
    });
    expect(normalized(await client.respond(question))).toEqual(expected);
    expect(runner.requests[0]?.url).toBe('/api/chat');
  });

  it('apiType wins over the provider', async () => {
    runner.enqueue(responsesAnswer(false));
    const client = createTestClient(runner, { provider: 'ollama', apiType: 'responses', model: 'qwen3' });
    expect(normalized(await client.respond(question))).toEqual(expected);
    expect(runner.requests[0]?.url).toBe('/v1/responses');
  });

  it('without either, Chat Completions', async () => {
    runner.enqueue(chatAnswer(false));
    expect(normalized(await createTestClient(runner, { model: 'qwen3' }).respond(question))).toEqual(
      expected,
    );
    expect(runner.requests[0]?.url).toBe('/v1/chat/completions');
  });

  it('an unknown provider is CONFIG_INVALID naming the valid ones, before any request', () => {
    let thrown: unknown;
    try {
      createModelClient({ provider: 'olama', baseUrl: runner.baseUrl, model: 'm' });
    } catch (error) {
      thrown = error;
    }
    expect(SpineError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'CONFIG_INVALID',
      message:
        'unknown provider "olama": must be one of openai, azure, deepseek, ollama, lmstudio, llamacpp, vllm, openai-compatible',
    });
    expect(runner.requests).toHaveLength(0);
  });
});
