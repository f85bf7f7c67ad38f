import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/core/types.js';
import { completion, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { outputItems, responsesObject } from '../support/responses-wire.js';
import { collectEvents, createTestClient, hello } from './client-test-kit.js';

// RUNNER-QUIRKS §44: Groq, Mistral and older Azure versions refuse `stream_options`, which Spine adds to every
// streamed request of a preset that accepts it. A runner that names a field Spine added on its own gets the
// request again without it, and the client leaves it out from then on; a field the caller asked for is never
// dropped behind the caller's back.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const azureStyle = {
  status: 400,
  body: {
    error: {
      message: 'Unrecognized request argument supplied: stream_options',
      type: 'invalid_request_error',
      param: null,
      code: null,
    },
  },
};
const tool: ToolSpec = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };

describe('a runner that refuses a field Spine added on its own', () => {
  it('gets the request again without it, and never sees it again from this client', async () => {
    runner.enqueue(azureStyle, { sse: textStream(['Hello']) }, { sse: textStream(['Again']) });
    const client = createTestClient(runner, { provider: 'openai-compatible', maxRetries: 0 });
    const first = await collectEvents(client.stream(hello));
    expect(first.at(-1)).toMatchObject({ type: 'done', response: { content: 'Hello' } });
    expect(first.some((event) => event.type === 'retry')).toBe(false);
    const [refusedRequest, resent] = runner.requests;
    expect(refusedRequest?.body).toHaveProperty('stream_options');
    expect(resent?.body).not.toHaveProperty('stream_options');
    expect(resent?.body).toMatchObject({ stream: true, messages: hello.messages });

    await collectEvents(client.stream(hello));
    expect(runner.requests).toHaveLength(3);
    expect(runner.requests[2]?.body).not.toHaveProperty('stream_options');
  });

  it("llama-server's default parallel_tool_calls goes the same way; the caller's own never does", async () => {
    const refusing = (field: string) => ({
      status: 422,
      body: {
        detail: [{ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted' }],
      },
    });
    runner.enqueue(refusing('parallel_tool_calls'), { body: completion('ok') });
    const client = createTestClient(runner, { provider: 'llamacpp', maxRetries: 0 });
    const answer = await client.respond({ ...hello, tools: [tool] });
    expect(answer.content).toBe('ok');
    expect(runner.requests[0]?.body).toMatchObject({ parallel_tool_calls: true });
    expect(runner.requests[1]?.body).not.toHaveProperty('parallel_tool_calls');

    runner.enqueue(refusing('parallel_tool_calls'));
    const own = createTestClient(runner, { provider: 'llamacpp', maxRetries: 0 });
    await expect(own.respond({ ...hello, tools: [tool], parallelToolCalls: true })).rejects.toMatchObject({
      code: 'LLM_HTTP_ERROR',
    });
    expect(runner.requests).toHaveLength(3);
  });

  it("the Responses API's store: false goes the same way, unless the caller set store", async () => {
    const refusingStore = { status: 400, body: { error: { message: "Unknown parameter: 'store'." } } };
    runner.enqueue(refusingStore, { body: responsesObject(outputItems({ text: 'Sunny.' })) });
    const client = createTestClient(runner, { apiType: 'responses', maxRetries: 0 });
    expect((await client.respond(hello)).content).toBe('Sunny.');
    expect(runner.requests[0]?.body).toMatchObject({ store: false });
    expect(runner.requests[1]?.body).not.toHaveProperty('store');

    runner.enqueue(refusingStore);
    const own = createTestClient(runner, { apiType: 'responses', maxRetries: 0 });
    await expect(own.respond({ ...hello, extraBody: { store: false } })).rejects.toMatchObject({
      code: 'LLM_HTTP_ERROR',
    });
    expect(runner.requests).toHaveLength(3);
  });

  it('a 400 that names no added field is the error it was, sent once', async () => {
    runner.enqueue({
      status: 400,
      body: { error: { message: 'messages: field required', type: 'invalid_request_error' } },
    });
    const client = createTestClient(runner, { provider: 'openai-compatible', maxRetries: 0 });
    await expect(collectEvents(client.stream(hello))).rejects.toMatchObject({ code: 'LLM_HTTP_ERROR' });
    expect(runner.requests).toHaveLength(1);
  });
});
