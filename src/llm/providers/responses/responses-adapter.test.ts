import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../../../../test/support/fake-runner.js';
import { loadHttpFixture } from '../../../../test/support/http-fixture.js';
import { systemClock } from '../../../core/deps.js';
import { SpineError } from '../../../core/spine-error.js';
import type { ModelRequest, StreamEvent } from '../../../core/types.js';
import { createUndiciTransport } from '../../http/undici-transport.js';
import { defaultRetryOptions } from '../../resilience/retry-policy.js';
import { collectResponse, type ModelCallContext, runModelCall } from '../../run-model-call.js';
import { responsesAdapter } from './responses-adapter.js';

// The adapter through the client's real loop (transport, retries, decoding), replaying llama-server recordings.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

function createContext(): ModelCallContext {
  return {
    adapter: responsesAdapter,
    endpoint: { provider: 'llamacpp', baseUrl: runner.baseUrl, model: 'tiny' },
    transport: createUndiciTransport(),
    clock: systemClock,
    random: () => 0.5,
    timeoutMs: 10_000,
    firstByteTimeoutMs: 10_000,
    idleTimeoutMs: 5_000,
    retry: { ...defaultRetryOptions, baseDelayMs: 5, maxDelayMs: 20, badResponseDelayMs: 5 },
  };
}

async function drain(
  events: AsyncIterable<StreamEvent>,
): Promise<{ events: StreamEvent[]; error?: SpineError }> {
  const collected: StreamEvent[] = [];
  try {
    for await (const event of events) collected.push(event);
    return { events: collected };
  } catch (error) {
    if (SpineError.is(error)) return { events: collected, error };
    throw error;
  }
}

const weatherRequest: ModelRequest = {
  messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Get the current weather for a city',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', enum: ['Paris', 'Tokyo', 'Lima'] },
            unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          },
          required: ['city', 'unit'],
        },
      },
    },
  ],
  toolChoice: 'required',
  maxTokens: 128,
};

describe('responsesAdapter over loopback HTTP', () => {
  it('respond(): POST /v1/responses, stateless, and a function_call back as a chat-shaped call', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'responses-tools-required'));
    const response = await collectResponse(runModelCall(createContext(), weatherRequest, false));
    expect(runner.requests[0]?.url).toBe('/v1/responses');
    expect(runner.requests[0]?.body).toMatchObject({
      model: 'tiny',
      input: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [{ type: 'function', name: 'get_weather' }],
      tool_choice: 'required',
      max_output_tokens: 128,
      store: false,
      stream: false,
    });
    expect(response.toolCalls).toEqual([
      {
        id: 'call_l19hq859TTLaPaalUKLXQpEWZDAp3pGh',
        name: 'get_weather',
        arguments: { city: 'Paris', unit: 'celsius' },
        rawArguments: '{"city":"Paris","unit":"celsius"}',
      },
    ]);
  });

  it.each([1, 13, 256])('stream(): the recorded tool stream split every %i bytes', async (chunkSize) => {
    runner.enqueue(loadHttpFixture('llama-server', 'responses-stream-tools-required', { chunkSize }));
    const { events, error } = await drain(runModelCall(createContext(), weatherRequest, true));
    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      response: { finishReason: 'tool_calls', usage: { promptTokens: 222, completionTokens: 38 } },
    });
  });

  it('stream(): the recorded reasoning stream', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'reasoning-responses-stream', { chunkSize: 'event' }));
    const { events } = await drain(
      runModelCall(createContext(), { messages: [{ role: 'user', content: 'Say hello.' }] }, true),
    );
    expect(events.at(-1)).toMatchObject({
      response: { reasoning: ' starship trickedive episodeical killed baker' },
    });
  });

  it('a 400 for previous_response_id is classified and not retried', async () => {
    runner.enqueue(loadHttpFixture('llama-server', 'error-responses-previous-response-id'));
    const { error } = await drain(
      runModelCall(
        createContext(),
        {
          messages: [{ role: 'user', content: 'continue' }],
          extraBody: { previous_response_id: 'resp_123' },
        },
        true,
      ),
    );
    expect(error?.code).toBe('LLM_HTTP_ERROR');
    expect(error?.message).toMatch(/^HTTP 400 from POST http:\/\/127\.0\.0\.1:\d+\/v1\/responses: /);
    expect(error?.message).toContain("llama.cpp does not support 'previous_response_id'.");
    expect(runner.requests).toHaveLength(1);
  });
});
