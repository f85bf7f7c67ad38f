import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/core/types.js';
import { completion, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { collectEvents, createTestClient, hello } from './client-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const tools = [
  {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
  },
];

describe('request shape', () => {
  it('respond() posts a non-streamed request to {baseUrl}/chat/completions', async () => {
    runner.enqueue({ body: completion('hello') });
    const client = createTestClient(runner, { baseUrl: `${runner.baseUrl}/` });
    const request: ModelRequest = {
      ...hello,
      tools,
      toolChoice: 'required',
      maxTokens: 20,
      temperature: 0.2,
    };
    const snapshot = structuredClone({ ...request });
    expect((await client.respond(request)).content).toBe('hello');
    const received = runner.requests[0];
    expect([received?.method, received?.url]).toEqual(['POST', '/v1/chat/completions']);
    expect(received?.body).toEqual({
      model: 'fake-model',
      messages: hello.messages,
      tools,
      tool_choice: 'required',
      max_tokens: 20,
      temperature: 0.2,
      stream: false,
    });
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers.authorization).toBeUndefined();
    expect(request).toEqual(snapshot);
  });

  it('stream() asks for a stream with usage, and sends the key as a bearer token', async () => {
    runner.enqueue({ sse: textStream(['a']) });
    const client = createTestClient(runner, {
      provider: 'llamacpp',
      apiKey: 'sk-1',
      headers: { 'X-Extra': 'e' },
    });
    await collectEvents(
      client.stream({ ...hello, toolChoice: { type: 'function', function: { name: 'get_weather' } }, tools }),
    );
    const received = runner.requests[0];
    expect(received?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(received?.body).not.toHaveProperty('parallel_tool_calls');
    expect(received?.headers.authorization).toBe('Bearer sk-1');
    expect(received?.headers['x-extra']).toBe('e');
    expect(received?.headers.accept).toBe('text/event-stream');
  });

  it('accepts a full endpoint URL, a per-request model and extra body fields', async () => {
    runner.enqueue({ body: completion('x') });
    const client = createTestClient(runner, { baseUrl: `${runner.baseUrl}/chat/completions` });
    await client.respond({
      ...hello,
      model: 'other',
      extraBody: { seed: 3, parallel_tool_calls: true, messages: [] },
    });
    expect(runner.requests[0]?.url).toBe('/v1/chat/completions');
    expect(runner.requests[0]?.body).toMatchObject({
      model: 'other',
      seed: 3,
      parallel_tool_calls: true,
      messages: hello.messages,
    });
  });

  it('sends assistant tool-call messages back with null content and "{}" for empty arguments', async () => {
    runner.enqueue({ body: completion('done') });
    const call = { id: 'c1', type: 'function' as const, function: { name: 'get_weather', arguments: '' } };
    await createTestClient(runner).respond({
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: '', tool_calls: [call] },
        { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
        { role: 'assistant', content: null },
      ],
    });
    const messages = (runner.requests[0]?.body as { messages: unknown[] } | undefined)?.messages ?? [];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ ...call, function: { name: 'get_weather', arguments: '{}' } }],
    });
    expect(messages[3]).toEqual({ role: 'assistant', content: '' });
  });

  it('Azure: api-key header and the deployment URL with api-version', async () => {
    runner.enqueue({ body: completion('az') }, { body: completion('az') });
    const classic = createTestClient(runner, {
      provider: 'azure',
      baseUrl: runner.origin,
      model: 'gpt-4o',
      apiKey: 'az-key',
    });
    await classic.respond(hello);
    expect(runner.requests[0]?.url).toBe(
      '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    );
    expect(runner.requests[0]?.headers['api-key']).toBe('az-key');
    expect(runner.requests[0]?.headers.authorization).toBeUndefined();
    const v1 = createTestClient(runner, {
      provider: 'azure',
      baseUrl: `${runner.origin}/openai/v1/`,
      apiKey: 'k',
      apiVersion: 'x',
    });
    await v1.respond(hello);
    expect(runner.requests[1]?.url).toBe('/openai/v1/chat/completions');
  });

  it('Azure: apiVersion option', async () => {
    runner.enqueue({ body: completion('az') });
    await createTestClient(runner, {
      provider: 'azure',
      baseUrl: runner.origin,
      apiVersion: '2025-04-01-preview',
    }).respond(hello);
    expect(runner.requests[0]?.url).toBe(
      '/openai/deployments/fake-model/chat/completions?api-version=2025-04-01-preview',
    );
  });

  it('goes through an injected fetch when one is given', async () => {
    runner.enqueue({ sse: textStream(['via ', 'fetch']) });
    const urls: string[] = [];
    const client = createTestClient(runner, {
      fetch: (url, init) => {
        urls.push(url);
        return fetch(url, init);
      },
    });
    const events = await collectEvents(client.stream(hello));
    expect(urls).toEqual([`${runner.baseUrl}/chat/completions`]);
    expect(events.at(-1)).toMatchObject({ type: 'done', response: { content: 'via fetch' } });
  });
});
