import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpineError } from '../../src/core/spine-error.js';
import type { ChatMessage, RetryInfo, StreamEvent } from '../../src/core/types.js';
import { catchSpineError, drainStream } from '../client/client-test-kit.js';
import { completion, finishChunk, textStream, toolCallChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { ask, createReaskClient, repairKinds, streamToEnd, toolCallEvents } from './repair-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

function structuredCall(id: string, name: string, args: string): object {
  return { id, type: 'function', function: { name, arguments: args } };
}

const unknownTool = completion(null, {
  toolCalls: [structuredCall('call_bad', 'get_wx', '{"city":"Oslo"}')],
});
const validCall = completion(null, {
  toolCalls: [structuredCall('call_ok', 'get_weather', '{"city":"Oslo"}')],
});
const badArguments = completion(null, {
  toolCalls: [structuredCall('call_bad', 'get_weather', '{"city": 7, "colour": "red"}')],
});

function sentMessages(index: number): ChatMessage[] {
  const body = runner.requests[index]?.body as { messages: ChatMessage[] } | undefined;
  if (body === undefined) throw new Error(`the runner received no request ${index}`);
  return body.messages;
}

function toolResultOf(message: ChatMessage | undefined): { ok: boolean; error: Record<string, unknown> } {
  if (message?.role !== 'tool') throw new Error(`expected a tool message, got ${message?.role}`);
  return JSON.parse(message.content);
}

describe('re-asking about an invalid tool call', () => {
  it('an unknown tool is re-asked about; the valid second answer is returned with a `reask` repair', async () => {
    runner.enqueue({ body: unknownTool }, { body: validCall });
    const retries: RetryInfo[] = [];
    const response = await createReaskClient(runner).respond({
      ...ask,
      onRetry: (info) => retries.push(info),
    });
    expect(response.toolCalls).toEqual([expect.objectContaining({ id: 'call_ok', name: 'get_weather' })]);
    expect(repairKinds(response)).toEqual(['reask']);
    expect(response.repairs[0]?.detail).toContain("unknown tool 'get_wx'");
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, code: 'LLM_INVALID_TOOL_CALL' })]);

    // What the runner received the second time: the original messages, the model's own message as it
    // was, and a tool message answering its call with an error that names the valid tools.
    expect(runner.requests).toHaveLength(2);
    const [user, assistant, tool, ...more] = sentMessages(1);
    expect(more).toEqual([]);
    expect(user).toEqual(ask.messages[0]);
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_bad', function: { name: 'get_wx', arguments: '{"city":"Oslo"}' } }],
    });
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'call_bad' });
    const result = toolResultOf(tool);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({
      code: 'E_UNKNOWN_TOOL',
      details: { validTools: ['get_weather', 'search'] },
    });
    expect(result.error.message).toContain('get_weather, search');
  });

  it('arguments that fail the schema are re-asked about, naming the bad properties', async () => {
    runner.enqueue({ body: badArguments }, { body: validCall });
    const response = await createReaskClient(runner).respond(ask);
    expect(response.toolCalls[0]?.id).toBe('call_ok');
    const result = toolResultOf(sentMessages(1)[2]);
    expect(result.error).toMatchObject({
      code: 'E_SCHEMA_VALIDATION',
      details: { tool: 'get_weather', paths: ['/colour', '/city'], required: ['city'] },
    });
    expect(result.error.message).toContain("unknown property 'colour'");
    expect(result.error.message).toContain('/city: must be string');
  });

  it('a call written as text is answered in a user message, after the model’s own text', async () => {
    const text = 'On it.\n<tool_call>{"name": "get_forecast", "arguments": {"city": "Oslo"}}</tool_call>';
    runner.enqueue({ body: completion(text) }, { body: validCall });
    const response = await createReaskClient(runner).respond(ask);
    expect(response.toolCalls[0]?.name).toBe('get_weather');
    const [, assistant, reply] = sentMessages(1);
    expect(assistant).toEqual({ role: 'assistant', content: text });
    expect(reply?.role).toBe('user');
    expect(reply?.content).toContain("Unknown tool 'get_forecast'");
    expect(reply?.content).toContain('Valid tools: get_weather, search.');
  });

  it('three invalid answers fail with LLM_INVALID_TOOL_CALL carrying the validation details', async () => {
    runner.enqueue({ body: badArguments }, { body: unknownTool }, { body: badArguments });
    const error = await catchSpineError(createReaskClient(runner).respond(ask));
    expect(error.code).toBe('LLM_INVALID_TOOL_CALL');
    expect(error.retryable).toBe(false);
    expect(runner.requests).toHaveLength(3);
    expect(error.details).toMatchObject({
      reasks: 2,
      problems: [
        {
          tool: 'get_weather',
          toolCallId: 'call_bad',
          code: 'E_SCHEMA_VALIDATION',
          paths: ['/colour', '/city'],
          message: expect.stringContaining('/city: must be string'),
        },
      ],
    });
    // Each re-ask answers the latest message: the original messages, then the third answer's question.
    expect(sentMessages(2).map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(toolResultOf(sentMessages(2)[2]).error).toMatchObject({ code: 'E_UNKNOWN_TOOL' });
  });

  it('repairRetries bounds the re-asks', async () => {
    runner.enqueue({ body: unknownTool }, { body: validCall });
    const error = await catchSpineError(createReaskClient(runner, { repairRetries: 0 }).respond(ask));
    expect(error).toMatchObject({ code: 'LLM_INVALID_TOOL_CALL', details: { reasks: 0 } });
    expect(runner.requests).toHaveLength(1);
  });

  it('a call whose arguments cannot be read at all is re-asked about, not run', async () => {
    const unreadable = completion(null, {
      toolCalls: [structuredCall('call_x', 'get_weather', 'city = Oslo')],
      finishReason: 'stop',
    });
    runner.enqueue({ body: unreadable }, { body: validCall });
    const response = await createReaskClient(runner).respond(ask);
    expect(response.toolCalls[0]?.id).toBe('call_ok');
    const reply = sentMessages(1).at(-1);
    expect(reply?.role).toBe('user');
    expect(reply?.content).toContain('get_weather');
  });
});

describe('re-asking in a stream', () => {
  function invalidStream(): object[] {
    return [
      textChunk('Calling. '),
      toolCallChunk(0, { id: 'call_bad', name: 'get_wx', arguments: '{}' }),
      finishChunk('tool_calls'),
    ];
  }
  function textChunk(text: string): object {
    return textStream([text])[0]!;
  }

  it('shows a retry event instead of the rejected call, then the valid answer', async () => {
    runner.enqueue(
      { sse: invalidStream() },
      {
        sse: [
          toolCallChunk(0, { id: 'call_ok', name: 'get_weather', arguments: '{"city":"Oslo"}' }),
          finishChunk('tool_calls'),
        ],
      },
    );
    const { events, response } = await streamToEnd(createReaskClient(runner), ask);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'retry')).toHaveLength(1);
    expect(toolCallEvents(events)).toEqual([expect.objectContaining({ id: 'call_ok' })]);
    expect(types.indexOf('retry')).toBeLessThan(types.indexOf('tool-call'));
    const retry = events.find(
      (event): event is Extract<StreamEvent, { type: 'retry' }> => event.type === 'retry',
    );
    expect(retry?.retry).toMatchObject({ attempt: 1, code: 'LLM_INVALID_TOOL_CALL' });
    expect(retry?.retry.reason).toContain("unknown tool 'get_wx'");
    expect(response.toolCalls).toEqual(toolCallEvents(events));
    expect(repairKinds(response)).toEqual(['reask']);
    expect(toolResultOf(sentMessages(1)[2])).toMatchObject({ ok: false, error: { code: 'E_UNKNOWN_TOOL' } });
  });

  it('fails from the iterator with LLM_INVALID_TOOL_CALL after the last re-ask, no rejected call shown', async () => {
    runner.enqueue({ sse: invalidStream() }, { sse: invalidStream() }, { sse: invalidStream() });
    const { events, error } = await drainStream(createReaskClient(runner).stream(ask));
    expect(SpineError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'LLM_INVALID_TOOL_CALL',
      details: { reasks: 2, problems: [{ tool: 'get_wx', toolCallId: 'call_bad', code: 'E_UNKNOWN_TOOL' }] },
    });
    expect(toolCallEvents(events)).toEqual([]);
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(2);
    expect(events.some((event) => event.type === 'done')).toBe(false);
    expect(runner.requests).toHaveLength(3);
  });
});
