import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../src/core/types.js';
import { createTestClient, drainStream } from '../client/client-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import {
  completedEvent,
  functionCallEvents,
  outputItems,
  outputTextDelta,
  reasoningDelta,
  responsesEvent,
  responsesObject,
} from '../support/responses-wire.js';

// createModelClient speaking the Responses API (POST …/responses) to the loopback runner.

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
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const question: ModelRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Oslo?' },
  ],
  tools: [weatherTool],
  toolChoice: 'auto',
  maxTokens: 64,
};

function responsesClient() {
  return createTestClient(runner, { apiType: 'responses', model: 'qwen3', apiKey: 'sk-r', maxRetries: 0 });
}

function responseOf(events: StreamEvent[]): ModelResponse {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error('no done event');
  return done.response;
}

function loadResponsesData(name: string): string {
  return readFileSync(new URL(`../data/responses/${name}`, import.meta.url), 'utf8');
}

const callAnswer = outputItems({
  reasoning: 'Need the tool.',
  text: 'Checking.',
  calls: [{ callId: 'call_oslo', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
});

describe('apiType responses: requests', () => {
  it('posts the chat-shaped request as instructions, input items and flat tools, stateless', async () => {
    runner.enqueue({ body: responsesObject(outputItems({ text: 'Sunny.' })) });
    await responsesClient().respond(question);
    const received = runner.requests[0];
    expect([received?.method, received?.url]).toEqual(['POST', '/v1/responses']);
    expect(received?.headers.authorization).toBe('Bearer sk-r');
    expect(received?.headers.accept).toBe('application/json');
    expect(received?.body).toEqual({
      model: 'qwen3',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: 'Weather in Oslo?' }],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather',
          parameters: weatherTool.function.parameters,
          strict: false,
        },
      ],
      tool_choice: 'auto',
      max_output_tokens: 64,
      store: false,
      stream: false,
    });
  });

  it('sends a previous answer back as function_call and function_call_output items', async () => {
    runner.enqueue(
      { body: responsesObject(callAnswer) },
      { body: responsesObject(outputItems({ text: 'Sunny.' })) },
    );
    const client = responsesClient();
    const first = await client.respond(question);
    await client.respond({
      ...question,
      messages: [
        ...question.messages,
        first.message,
        { role: 'tool', tool_call_id: first.toolCalls[0]?.id ?? '', content: '{"ok":true,"data":"sunny"}' },
      ],
    });
    const sentBody = runner.requests[1]?.body as { input: unknown[] } | undefined;
    expect(sentBody?.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Oslo?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'call_oslo', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'call_oslo', output: '{"ok":true,"data":"sunny"}' },
    ]);
  });
});

describe('apiType responses: answers', () => {
  it('streams reasoning, text and a function call from named events, usage from response.completed', async () => {
    const usage = {
      input_tokens: 30,
      output_tokens: 12,
      total_tokens: 42,
      input_tokens_details: { cached_tokens: 8 },
      output_tokens_details: { reasoning_tokens: 4 },
    };
    runner.enqueue({
      sse: [
        responsesEvent('response.created', { response: responsesObject([], { status: 'in_progress' }) }),
        reasoningDelta('Need '),
        reasoningDelta('the tool.'),
        outputTextDelta('Check'),
        outputTextDelta('ing.'),
        ...functionCallEvents(
          { callId: 'call_oslo', name: 'get_weather', argumentPieces: ['{"city":', '"Oslo"}'] },
          2,
        ),
        completedEvent(responsesObject(callAnswer, { usage })),
      ],
      omitDone: true,
      chunkSize: 23,
    });
    const { events, error } = await drainStream(responsesClient().stream(question));
    expect(error).toBeUndefined();
    expect(runner.requests[0]?.body).toMatchObject({ stream: true });
    expect(runner.requests[0]?.headers.accept).toBe('text/event-stream');
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type !== 'tool-call-delta')).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'tool-call',
      'usage',
      'done',
    ]);
    expect(responseOf(events)).toMatchObject({
      content: 'Checking.',
      reasoning: 'Need the tool.',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'call_oslo', name: 'get_weather', arguments: { city: 'Oslo' } }],
      usage: { promptTokens: 30, completionTokens: 12, totalTokens: 42, cachedTokens: 8, reasoningTokens: 4 },
      message: {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_oslo',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
    });
  });

  it('reads a non-streamed body with reasoning summaries and parallel calls', async () => {
    runner.enqueue({
      body: loadResponsesData('openai-parallel-calls.json'),
      headers: { 'content-type': 'application/json' },
    });
    const response = await responsesClient().respond(question);
    expect(response).toMatchObject({
      content: 'Checking both cities.',
      reasoning: '**Plan**\nTwo lookups.\n\nCall both at once.',
      finishReason: 'tool_calls',
      model: 'gpt-5-mini-2025-08-07',
    });
    expect(response.toolCalls.map((call) => [call.id, call.arguments])).toEqual([
      ['call_oslo', { city: 'Oslo' }],
      ['call_lima', { city: 'Lima' }],
    ]);
  });

  it('response.failed fails the stream after the text it carried, without a retry', async () => {
    runner.enqueue({
      body: loadResponsesData('openai-stream-failed.sse'),
      headers: { 'content-type': 'text/event-stream' },
    });
    const client = createTestClient(runner, { apiType: 'responses', model: 'gpt-5-mini' });
    const { events, error } = await drainStream(client.stream(question));
    expect(events).toEqual([{ type: 'text-delta', text: 'Partial' }]);
    expect(error).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'The model failed to generate a response.',
    });
    expect(runner.requests).toHaveLength(1);
  });

  it('an error event is classified by its code', async () => {
    runner.enqueue({
      body: loadResponsesData('openai-stream-error-event.sse'),
      headers: { 'content-type': 'text/event-stream' },
    });
    const { events, error } = await drainStream(responsesClient().stream(question));
    expect(events).toEqual([]);
    expect(error?.code).toBe('LLM_RATE_LIMITED');
  });
});
