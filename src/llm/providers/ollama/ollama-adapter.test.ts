import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../../../../test/support/fake-runner.js';
import { systemClock } from '../../../core/deps.js';
import { SpineError } from '../../../core/spine-error.js';
import type { ModelRequest, StreamEvent } from '../../../core/types.js';
import { createUndiciTransport } from '../../http/undici-transport.js';
import { defaultRetryOptions } from '../../resilience/retry-policy.js';
import { collectResponse, type ModelCallContext, runModelCall } from '../../run-model-call.js';
import { ollamaAdapter } from './ollama-adapter.js';

// The adapter through the client's real loop (transport, retries, decoding) against a loopback server.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

function createContext(): ModelCallContext {
  return {
    adapter: ollamaAdapter,
    // The base URL as users often give it for Ollama: the /v1 root, trimmed to the server root.
    endpoint: { provider: 'ollama', baseUrl: `${runner.origin}/v1`, model: 'qwen3' },
    transport: createUndiciTransport(),
    clock: systemClock,
    random: () => 0.5,
    timeoutMs: 10_000,
    firstByteTimeoutMs: 10_000,
    idleTimeoutMs: 5_000,
    retry: { ...defaultRetryOptions, baseDelayMs: 5, maxDelayMs: 20, badResponseDelayMs: 5 },
  };
}

function readLines(name: string): object[] {
  const text = readFileSync(new URL(`../../../../test/data/ollama/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
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

const question: ModelRequest = {
  messages: [{ role: 'user', content: 'Weather in Oslo and Lima?' }],
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
  maxTokens: 200,
  extraBody: { numCtx: 8192 },
};

describe('ollamaAdapter over loopback HTTP', () => {
  it('respond(): POST /api/chat with stream:false, object-argument calls back with ids', async () => {
    runner.enqueue({ body: readLines('chat-tools.json')[0] as object });
    const response = await collectResponse(runModelCall(createContext(), question, false));
    expect(runner.requests[0]?.url).toBe('/api/chat');
    expect(runner.requests[0]?.body).toMatchObject({
      model: 'qwen3',
      stream: false,
      options: { num_predict: 200, num_ctx: 8192 },
    });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls[0]).toMatchObject({
      name: 'get_current_weather',
      id: expect.stringMatching(/^call_/),
    });
    expect(response.usage.timings).toMatchObject({ totalMs: 885.095291 });
  });

  it('stream(): NDJSON split every 7 bytes gives reasoning, text and usage', async () => {
    runner.enqueue({ ndjson: readLines('chat-stream-thinking.ndjson'), chunkSize: 7 });
    const { events, error } = await drain(runModelCall(createContext(), question, true));
    expect(error).toBeUndefined();
    expect(runner.requests[0]?.body).toMatchObject({ stream: true });
    expect(runner.requests[0]?.headers.accept).toBe('application/x-ndjson');
    expect(events.map((event) => event.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'usage',
      'done',
    ]);
    expect(events.at(-1)).toMatchObject({
      response: { content: 'There are three.', finishReason: 'length' },
    });
  });

  it('a missing model fails at once with the pull hint', async () => {
    runner.enqueue({ status: 404, body: { error: "model 'qwen3' not found" } });
    const { error } = await drain(runModelCall(createContext(), question, true));
    expect(error?.message).toMatch(/^HTTP 404 from POST http:\/\/127\.0\.0\.1:\d+\/api\/chat: /);
    expect(error?.message).toContain(
      'model "qwen3" is not available on this Ollama server: run `ollama pull qwen3`',
    );
    expect(error?.details.hint).toBeUndefined();
    expect(runner.requests).toHaveLength(1);
  });

  it('fails a stream cut before done:true as a cut connection', async () => {
    runner.enqueue({
      ndjson: [{ model: 'qwen3', message: { role: 'assistant', content: 'Hal' }, done: false }],
    });
    const { events, error } = await drain(runModelCall(createContext(), question, true));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(error).toMatchObject({ code: 'LLM_CONNECTION', details: { receivedContent: true } });
    expect(runner.requests).toHaveLength(1);
  });

  it('retries a non-streamed body that is not an Ollama answer', async () => {
    runner.enqueue(
      { body: '<html>proxy error</html>', headers: { 'content-type': 'application/json' } },
      {
        body: readLines('chat-tools.json')[0] as object,
      },
    );
    const response = await collectResponse(runModelCall(createContext(), question, false));
    expect(response.toolCalls).toHaveLength(1);
    expect(runner.requests).toHaveLength(2);
  });

  it('an error line after streamed text fails without a retry, after the text', async () => {
    runner.enqueue({
      ndjson: [
        { model: 'qwen3', message: { content: 'Hal' }, done: false },
        { error: 'model runner has unexpectedly stopped' },
      ],
    });
    const { events, error } = await drain(runModelCall(createContext(), question, true));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(error?.message).toBe('model runner has unexpectedly stopped');
    expect(runner.requests).toHaveLength(1);
  });
});
