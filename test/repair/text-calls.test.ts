import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../src/core/types.js';
import { completion, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { ollamaLines, responsesEvents } from './dialect-wire.js';
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

/** The text cut into pieces of `size` characters, as a runner streams it. */
function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

interface TextCase {
  name: string;
  content: string;
  rest: string;
  calls: Array<[string, Record<string, unknown>]>;
  kinds: string[];
}

const oslo = { city: 'Oslo' };
const cases: TextCase[] = [
  {
    name: 'Hermes <tool_call> between prose',
    content:
      'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\nBack soon.',
    rest: 'Let me check.\n\nBack soon.',
    calls: [['get_weather', oslo]],
    kinds: ['text-extracted', 'generated-id'],
  },
  {
    name: 'Mistral [TOOL_CALLS] with two calls',
    content:
      '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}, {"name": "search", "arguments": {"q": "fjords"}}]',
    rest: '',
    calls: [
      ['get_weather', oslo],
      ['search', { q: 'fjords' }],
    ],
    kinds: ['text-extracted', 'generated-id', 'text-extracted', 'generated-id'],
  },
  {
    name: 'Llama <|python_tag|> with `parameters`',
    content: '<|python_tag|>{"name": "search", "parameters": {"q": "fjords"}}',
    rest: '',
    calls: [['search', { q: 'fjords' }]],
    kinds: ['text-extracted', 'generated-id', 'parameters-key'],
  },
  {
    name: 'a bare JSON object naming a known tool',
    content: '{"name": "get_weather", "arguments": {"city": "Oslo"}}',
    rest: '',
    calls: [['get_weather', oslo]],
    kinds: ['text-extracted', 'generated-id'],
  },
  {
    name: 'a fenced JSON block with a Python literal',
    content:
      'Calling it:\n```json\n{"name": "get_weather", "arguments": {"city": "Oslo", "metric": True}}\n```',
    rest: 'Calling it:',
    calls: [['get_weather', { city: 'Oslo', metric: true }]],
    kinds: ['text-extracted', 'generated-id'],
  },
];

function expectExtracted(response: ModelResponse, testCase: TextCase): void {
  expect(response.content).toBe(testCase.rest);
  expect(response.toolCalls.map((call) => [call.name, call.arguments])).toEqual(testCase.calls);
  expect(response.finishReason).toBe('tool_calls');
  expect(repairKinds(response)).toEqual(testCase.kinds);
  const ids = response.toolCalls.map((call) => call.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const repair of response.repairs) expect(ids).toContain(repair.toolCallId);
  expect(response.message).toEqual({
    role: 'assistant',
    content: testCase.rest === '' ? null : testCase.rest,
    tool_calls: response.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  });
}

describe.each(cases)('text-embedded calls: $name', (testCase) => {
  it('non-streamed: extracted, the text around them kept', async () => {
    runner.enqueue({ body: completion(testCase.content) });
    expectExtracted(await createReaskClient(runner).respond(ask), testCase);
  });

  it('streamed in 3-character pieces: the markup never reaches a text-delta; same answer as non-streamed', async () => {
    runner.enqueue(
      { body: completion(testCase.content) },
      { sse: textStream(piecesOf(testCase.content, 3)) },
    );
    const client = createReaskClient(runner);
    const collected = await client.respond(ask);
    const { events, response, text } = await streamToEnd(client, ask);
    expectExtracted(response, testCase);
    expect(text).toBe(response.content);
    expect(toolCallEvents(events)).toEqual(response.toolCalls);
    // The tool-call events come after all text and right before `done`.
    const types = events.map((event) => event.type);
    expect(types.slice(-1 - testCase.calls.length)).toEqual([
      ...testCase.calls.map(() => 'tool-call'),
      'done',
    ]);
    // Stable ids (DECISIONS.md §3): the same answer normalized twice gives the same calls.
    expect(response.toolCalls).toEqual(collected.toolCalls);
    expect(response.content).toBe(collected.content);
  });
});

describe('holding back streamed text', () => {
  it('never shows any part of a Hermes call; the text around it arrives in order', async () => {
    const content =
      'First I look it up. <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call> Then I answer.';
    runner.enqueue({ sse: textStream(piecesOf(content, 1)), chunkSize: 7 });
    const { events, response, text } = await streamToEnd(createReaskClient(runner), ask);
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    for (const delta of deltas) expect(delta).not.toMatch(/<|>|tool_call|get_weather|\{|\}/);
    expect(text).toBe('First I look it up.\n\nThen I answer.');
    expect(text.indexOf('First I look it up.')).toBeLessThan(text.indexOf('Then I answer.'));
    expect(response.content).toBe(text);
    expect(response.toolCalls).toEqual([expect.objectContaining({ name: 'get_weather', arguments: oslo })]);
  });

  it.each([
    ['a brace that opens prose', '{ this is just prose } and more.\nSecond line.'],
    ['JSON that is not a call', '{"title": "Oslo", "rating": 5}'],
    ['a call to a tool that was not offered, as bare JSON', '{"name": "launch", "arguments": {}}'],
    ['a code block', 'Here:\n```python\nprint({"name": "get_weather"})\n```\nDone.'],
    ['leading blanks and a half marker', '  <tool_ and a [TOOL in prose'],
  ])('releases %s intact, in order', async (_name, content) => {
    runner.enqueue({ sse: textStream(piecesOf(content, 2)) });
    const { events, response, text } = await streamToEnd(createReaskClient(runner), ask);
    expect(text).toBe(content);
    expect(response.content).toBe(content);
    expect(response.toolCalls).toEqual([]);
    expect(response.finishReason).toBe('stop');
    expect(response.repairs).toEqual([]);
    expect(toolCallEvents(events)).toEqual([]);
  });

  it('keeps text as it is when no tools were offered', async () => {
    const content = '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>';
    runner.enqueue({ sse: textStream(piecesOf(content, 4)) });
    const { response, text } = await streamToEnd(createReaskClient(runner), { messages: ask.messages });
    expect(text).toBe(content);
    expect(response).toMatchObject({ content, toolCalls: [], finishReason: 'stop', repairs: [] });
  });

  it('keeps the blanks the stream already showed before a call', async () => {
    const content = '  Looking. <tool_call>{"name": "search", "arguments": {"q": "x"}}</tool_call>';
    runner.enqueue({ sse: textStream(piecesOf(content, 2)) });
    const { response, text } = await streamToEnd(createReaskClient(runner), ask);
    expect(text).toBe('  Looking.');
    expect(response.content).toBe(text);
    expect(response.toolCalls).toHaveLength(1);
  });

  it('leaves a text call cut off by max_tokens incomplete, never runnable, and shows none of it', async () => {
    const content = 'Sure. <tool_call>{"name": "get_weather", "arguments": {"city": "Os';
    runner.enqueue({ sse: textStream(piecesOf(content, 5), 'length') });
    const { events, response, text } = await streamToEnd(createReaskClient(runner), ask);
    expect(text).toBe('Sure.');
    expect(response.finishReason).toBe('length');
    expect(response.toolCalls).toEqual([]);
    expect(response.incompleteToolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', id: expect.stringMatching(/^call_/) }),
    ]);
    expect(toolCallEvents(events)).toEqual([]);
    expect(runner.requests).toHaveLength(1);
  });
});

describe('text-embedded calls in the other dialects', () => {
  const content = 'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>';

  it.each(['ollama', 'responses'] as const)('%s: streamed, no markup in any text-delta', async (dialect) => {
    const pieces = piecesOf(content, 4);
    runner.enqueue(
      dialect === 'ollama'
        ? { ndjson: ollamaLines(pieces) }
        : { sse: responsesEvents(pieces), omitDone: true },
    );
    const { events, response, text } = await streamToEnd(createDialectClient(runner, dialect), ask);
    expect(text).toBe('Checking.');
    expect(response).toMatchObject({ content: 'Checking.', finishReason: 'tool_calls' });
    expect(toolCallEvents(events)).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: oslo }),
    ]);
    expect(response.toolCalls).toEqual(toolCallEvents(events));
  });
});
