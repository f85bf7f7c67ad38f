import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/core/types.js';
import { catchSpineError, createTestClient, drainStream } from '../client/client-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { ollamaAnswer, ollamaDone, ollamaLine, ollamaToolCallLine } from '../support/ollama-wire.js';

// createModelClient speaking Ollama's native /api/chat (NDJSON) to the loopback runner.

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
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Oslo?' },
  ],
  tools: [weatherTool],
  maxTokens: 64,
  temperature: 0.3,
};

function ollamaClient(options: { baseUrl?: string; contextLength?: number } = {}) {
  return createTestClient(runner, {
    apiType: 'ollama',
    model: 'qwen3',
    baseUrl: options.baseUrl ?? `${runner.origin}/v1/`,
    maxRetries: 0,
    ...(options.contextLength !== undefined ? { contextLength: options.contextLength } : {}),
  });
}

describe('apiType ollama: requests', () => {
  it('streams from {root}/api/chat (a /v1 base URL trimmed) with options and NDJSON accept', async () => {
    runner.enqueue({ ndjson: [ollamaLine({ content: 'ok' }), ollamaDone()] });
    await drainStream(ollamaClient({ contextLength: 16384 }).stream(question));
    const received = runner.requests[0];
    expect([received?.method, received?.url]).toEqual(['POST', '/api/chat']);
    expect(received?.headers.accept).toBe('application/x-ndjson');
    expect(received?.body).toEqual({
      model: 'qwen3',
      messages: question.messages,
      tools: [weatherTool],
      stream: true,
      options: { num_ctx: 16384, num_predict: 64, temperature: 0.3 },
    });
  });

  it('non-streamed calls say stream:false, and a call-level num_ctx wins over the configured one', async () => {
    runner.enqueue({ body: ollamaAnswer({ content: 'fine' }) });
    const response = await ollamaClient({ baseUrl: `${runner.origin}/api`, contextLength: 4096 }).respond({
      ...question,
      extraBody: { num_ctx: 32768, think: false },
    });
    expect(response.content).toBe('fine');
    expect(runner.requests[0]?.url).toBe('/api/chat');
    expect(runner.requests[0]?.headers.accept).toBe('application/json');
    expect(runner.requests[0]?.body).toMatchObject({
      stream: false,
      think: false,
      options: { num_ctx: 32768, num_predict: 64 },
    });
  });

  it('sends history back with object arguments and the tool named on its result', async () => {
    runner.enqueue({ body: ollamaAnswer({ content: 'It is sunny.' }) });
    await ollamaClient().respond({
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true,"data":"sunny"}' },
      ],
    });
    const body = runner.requests[0]?.body as { messages: unknown[] };
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }],
      },
      {
        role: 'tool',
        content: '{"ok":true,"data":"sunny"}',
        tool_call_id: 'call_1',
        tool_name: 'get_weather',
      },
    ]);
  });
});

describe('apiType ollama: answers', () => {
  it('streams thinking as reasoning and content as text, with counts and durations as usage', async () => {
    runner.enqueue({
      ndjson: [
        ollamaLine({ thinking: 'Oslo is ' }),
        ollamaLine({ thinking: 'cold.' }),
        ollamaLine({ content: 'Cold, ' }),
        ollamaLine({ content: 'about 2 °C.' }),
        ollamaDone({ done_reason: 'stop' }),
      ],
      chunkSize: 9,
    });
    const { events, error } = await drainStream(ollamaClient().stream(question));
    expect(error).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'usage',
      'done',
    ]);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.response).toMatchObject({
      content: 'Cold, about 2 °C.',
      reasoning: 'Oslo is cold.',
      finishReason: 'stop',
      model: 'qwen3',
      message: { role: 'assistant', content: 'Cold, about 2 °C.' },
      usage: {
        promptTokens: 12,
        completionTokens: 7,
        totalTokens: 19,
        timings: { totalMs: 1500, loadMs: 2, promptEvalMs: 300, evalMs: 1100 },
      },
    });
  });

  it('reads tool calls with object arguments and no ids, giving stable unique ids', async () => {
    const answer = () => ({
      ndjson: [
        ollamaToolCallLine([
          { name: 'get_weather', arguments: { city: 'Oslo' } },
          { name: 'get_weather', arguments: { city: 'Lima' } },
        ]),
        ollamaDone(),
      ],
    });
    runner.enqueue(answer(), answer());
    const client = ollamaClient();
    const first = await drainStream(client.stream(question));
    const second = await drainStream(client.stream(question));
    const responseOf = (events: typeof first.events) => {
      const done = events.at(-1);
      if (done?.type !== 'done') throw new Error('no done event');
      return done.response;
    };
    const response = responseOf(first.events);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls.map((call) => [call.name, call.arguments, call.rawArguments])).toEqual([
      ['get_weather', { city: 'Oslo' }, '{"city":"Oslo"}'],
      ['get_weather', { city: 'Lima' }, '{"city":"Lima"}'],
    ]);
    const ids = response.toolCalls.map((call) => call.id);
    expect(new Set(ids).size).toBe(2);
    expect(responseOf(second.events).toolCalls.map((call) => call.id)).toEqual(ids);
    expect(response.repairs.map((repair) => repair.kind)).toEqual(['generated-id', 'generated-id']);
    expect(response.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      [ids[0], '{"city":"Oslo"}'],
      [ids[1], '{"city":"Lima"}'],
    ]);
    expect(first.events.filter((event) => event.type === 'tool-call')).toHaveLength(2);
  });

  it('keeps ids Ollama did send', async () => {
    runner.enqueue({
      body: ollamaAnswer({
        tool_calls: [{ id: 'call_x', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }],
      }),
    });
    const response = await ollamaClient().respond(question);
    expect(response.toolCalls[0]).toMatchObject({ id: 'call_x', arguments: { city: 'Oslo' } });
    expect(response.repairs).toEqual([]);
  });
});

describe('apiType ollama: errors', () => {
  it('a missing model fails at once, saying how to get it', async () => {
    runner.enqueue({ status: 404, body: { error: 'model "qwen3:32b" not found, try pulling it first' } });
    const client = createTestClient(runner, {
      apiType: 'ollama',
      baseUrl: runner.origin,
      model: 'qwen3:32b',
    });
    const error = await catchSpineError(client.respond(question));
    expect(error).toMatchObject({
      code: 'LLM_HTTP_ERROR',
      retryable: false,
      details: { model: 'qwen3:32b', remedy: 'ollama pull qwen3:32b' },
    });
    expect(error.message).toContain('`ollama pull qwen3:32b`');
    expect(runner.requests).toHaveLength(1);
  });

  it('an {error} body at HTTP 200 is an error, with the text streamed before it delivered', async () => {
    runner.enqueue({
      ndjson: [ollamaLine({ content: 'Hal' }), { error: 'model runner has unexpectedly stopped' }],
    });
    const { events, error } = await drainStream(ollamaClient().stream(question));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(error?.message).toBe('model runner has unexpectedly stopped');
  });

  it('an {error} body with a 5xx status is a server error', async () => {
    runner.enqueue({ status: 500, body: { error: 'llama runner process has terminated' } });
    const error = await catchSpineError(ollamaClient().respond(question));
    expect(error.code).toBe('LLM_SERVER_ERROR');
    expect(error.message).toContain('HTTP 500 from POST');
    expect(error.message).toContain('llama runner process has terminated');
  });
});
