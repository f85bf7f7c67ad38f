import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelClient, ModelResponse } from '../../src/core/types.js';
import { completion, finishChunk, toolCallChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { ollamaBody, ollamaLines, responsesBody, responsesEvents } from './dialect-wire.js';
import {
  ask,
  createDialectClient,
  createReaskClient,
  repairKinds,
  streamToEnd,
  toolCallEvents,
} from './repair-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

interface RepairCase {
  kind: string;
  /** The arguments text as the runner sends it. */
  wire: string;
  arguments: Record<string, unknown>;
  /** The chat finish reason the runner sends. */
  finish?: string;
  id?: string;
}

// One case per repair of structured calls (issue 3 §4); every one ends as a runnable, valid call.
const cases: RepairCase[] = [
  { kind: 'generated-id', wire: '{"city":"Oslo"}', arguments: { city: 'Oslo' }, id: '' },
  { kind: 'empty-arguments', wire: '', arguments: {} },
  { kind: 'json-repair', wire: "{'city': 'Oslo', days: 2,}", arguments: { city: 'Oslo', days: 2 } },
  {
    kind: 'python-literals',
    wire: '{"city": "Oslo", "metric": True}',
    arguments: { city: 'Oslo', metric: true },
  },
  { kind: 'code-fence', wire: '```json\n{"city": "Oslo"}\n```', arguments: { city: 'Oslo' } },
  { kind: 'double-encoded', wire: JSON.stringify('{"city":"Oslo"}'), arguments: { city: 'Oslo' } },
  // A `stop` finish: the runner was done, the closing brackets were simply missing.
  { kind: 'truncated-json', wire: '{"city": "Oslo"', arguments: { city: 'Oslo' }, finish: 'stop' },
  { kind: 'coerced-type', wire: '{"city": "Oslo", "days": "3"}', arguments: { city: 'Oslo', days: 3 } },
];

// `get_weather` requires a city, so the call without arguments goes to a tool that takes any object.
function toolFor(kind: string): string {
  return kind === 'empty-arguments' ? 'free' : 'get_weather';
}

const request = {
  ...ask,
  tools: [
    ...(ask.tools ?? []),
    { type: 'function' as const, function: { name: 'free', parameters: { type: 'object' } } },
  ],
};

function expectRepaired(response: ModelResponse, testCase: RepairCase): void {
  expect(response.finishReason).toBe('tool_calls');
  expect(response.incompleteToolCalls).toEqual([]);
  expect(response.toolCalls).toHaveLength(1);
  const call = response.toolCalls[0]!;
  expect(call).toMatchObject({ name: toolFor(testCase.kind), arguments: testCase.arguments });
  expect(repairKinds(response)).toContain(testCase.kind);
  expect(response.repairs.find((repair) => repair.kind === testCase.kind)?.toolCallId).toBe(call.id);
  // History carries arguments a runner can parse again, whatever came on the wire.
  expect(response.message.tool_calls).toEqual([
    { id: call.id, type: 'function', function: { name: call.name, arguments: expect.any(String) } },
  ]);
  expect(JSON.parse(response.message.tool_calls![0]!.function.arguments)).toEqual(testCase.arguments);
}

describe.each(cases)('structured call repair: $kind', (testCase) => {
  const id = testCase.id ?? 'call_1';
  const name = toolFor(testCase.kind);

  it('non-streamed', async () => {
    const call = { ...(id ? { id } : {}), type: 'function', function: { name, arguments: testCase.wire } };
    runner.enqueue({
      body: completion(null, { toolCalls: [call], finishReason: testCase.finish ?? 'tool_calls' }),
    });
    const response = await createReaskClient(runner).respond(request);
    expectRepaired(response, testCase);
    expect(runner.requests).toHaveLength(1);
  });

  it('streamed, split every 5 bytes; the tool-call events agree with done', async () => {
    runner.enqueue({
      sse: [
        toolCallChunk(0, { id: id || undefined, name, arguments: testCase.wire }),
        finishChunk(testCase.finish ?? 'tool_calls'),
      ],
      chunkSize: 5,
    });
    const { events, response } = await streamToEnd(createReaskClient(runner), request);
    expectRepaired(response, testCase);
    expect(toolCallEvents(events)).toEqual(response.toolCalls);
  });
});

describe('calls cut off by max_tokens', () => {
  const cut = '{"city": "Os';

  async function expectIncomplete(client: ModelClient, streamed: boolean): Promise<void> {
    const outcome = streamed
      ? await streamToEnd(client, request)
      : { response: await client.respond(request), events: [] };
    expect(outcome.response.finishReason).toBe('length');
    expect(outcome.response.toolCalls).toEqual([]);
    expect(outcome.response.incompleteToolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', rawArguments: cut },
    ]);
    expect(toolCallEvents(outcome.events)).toEqual([]);
    // Reported to the caller, not re-asked about.
    expect(runner.requests).toHaveLength(1);
  }

  it.each([
    ['a `length` finish', 'length'],
    ['a `tool_calls` finish hiding the truncation (§16)', 'tool_calls'],
  ])('stay incomplete under %s, non-streamed', async (_name, finish) => {
    const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: cut } };
    runner.enqueue({ body: completion(null, { toolCalls: [call], finishReason: finish }) });
    await expectIncomplete(createReaskClient(runner), false);
  });

  it('a `tool_calls` finish that used the whole token cap is a cut, even when only brackets are missing', async () => {
    const bracketsOnly = '{"city": "Oslo"';
    const call = { id: 'c9', type: 'function', function: { name: 'get_weather', arguments: bracketsOnly } };
    const body = completion(null, { toolCalls: [call], finishReason: 'tool_calls' }) as {
      usage: { completion_tokens: number };
    };
    body.usage.completion_tokens = 12;
    runner.enqueue({ body });
    const response = await createReaskClient(runner).respond({ ...request, maxTokens: 12 });
    expect(response.finishReason).toBe('length');
    expect(response.toolCalls).toEqual([]);
    expect(response.incompleteToolCalls).toEqual([
      { id: 'c9', name: 'get_weather', rawArguments: bracketsOnly },
    ]);
  });

  it('stay incomplete, streamed', async () => {
    runner.enqueue({
      sse: [toolCallChunk(0, { id: 'call_1', name: 'get_weather', arguments: cut }), finishChunk('length')],
    });
    await expectIncomplete(createReaskClient(runner), true);
  });
});

describe('the same repair in every dialect', () => {
  const broken = "{'city': 'Oslo', 'metric': True,}";
  const repaired = { city: 'Oslo', metric: true };

  function expectMended(response: ModelResponse): void {
    expect(response.finishReason).toBe('tool_calls');
    expect(response.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: repaired, rawArguments: broken }),
    ]);
    expect(repairKinds(response)).toEqual(expect.arrayContaining(['python-literals', 'json-repair']));
  }

  it('Ollama native, non-streamed and streamed', async () => {
    const calls = [{ function: { name: 'get_weather', arguments: broken } }];
    runner.enqueue(
      { body: ollamaBody({ tool_calls: calls }) },
      { ndjson: ollamaLines([calls]), chunkSize: 9 },
    );
    const client = createDialectClient(runner, 'ollama');
    expectMended(await client.respond(request));
    const { events, response } = await streamToEnd(client, request);
    expectMended(response);
    expect(toolCallEvents(events)).toEqual(response.toolCalls);
  });

  it('Responses API, non-streamed and streamed', async () => {
    const calls = [{ callId: 'call_r', name: 'get_weather', arguments: broken }];
    runner.enqueue({ body: responsesBody('', calls) }, { sse: responsesEvents([], calls), omitDone: true });
    const client = createDialectClient(runner, 'responses');
    expectMended(await client.respond(request));
    const { events, response } = await streamToEnd(client, request);
    expectMended(response);
    expect(response.toolCalls[0]?.id).toBe('call_r');
    expect(toolCallEvents(events)).toEqual(response.toolCalls);
  });
});
