import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAnswer, ollamaNativeAnswer, responsesAnswer } from '../dialects/same-answer.js';
import { type FakeRunner, type ScriptedResponse, startFakeRunner } from '../support/fake-runner.js';
import { runCli } from './run-cli.js';

// The same answer spoken in three dialects gives `spine complete --json` the same normalized output.

const requestBody = JSON.stringify({
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
});

interface Dialect {
  name: string;
  flags: (runner: FakeRunner) => string[];
  answer: (streamed: boolean) => ScriptedResponse;
  path: string;
}

const dialects: Dialect[] = [
  {
    name: 'chat completions (LM Studio)',
    flags: (runner) => ['--base-url', runner.baseUrl, '--provider', 'lmstudio'],
    answer: chatAnswer,
    path: '/v1/chat/completions',
  },
  {
    name: 'Responses API',
    flags: (runner) => ['--base-url', runner.baseUrl, '--api-type', 'responses'],
    answer: responsesAnswer,
    path: '/v1/responses',
  },
  {
    name: 'Ollama native',
    flags: (runner) => ['--base-url', runner.origin, '--provider', 'ollama'],
    answer: ollamaNativeAnswer,
    path: '/api/chat',
  },
];

/** The printed response without what legitimately differs: latency and runner timings. */
function comparable(stdout: string) {
  const { usage, ...rest } = JSON.parse(stdout);
  const { latencyMs: _latency, timings: _timings, ...counts } = usage;
  return { ...rest, usage: counts };
}

describe('spine complete across dialects', () => {
  let runner: FakeRunner;
  beforeAll(async () => {
    runner = await startFakeRunner();
  });
  afterAll(async () => {
    await runner.close();
  });

  it.each([false, true])(
    'prints one normalized response for every dialect (streamed: %s)',
    async (streamed) => {
      const outputs = [];
      for (const dialect of dialects) {
        runner.enqueue(dialect.answer(streamed));
        const args = ['complete', '--request', '-', '--model', 'qwen3', '--json', ...dialect.flags(runner)];
        const run = await runCli(streamed ? [...args, '--stream'] : args, { stdin: requestBody });
        expect(run.stderr, dialect.name).toBe('');
        expect(runner.requests.at(-1)?.url, dialect.name).toBe(dialect.path);
        const printed = streamed
          ? JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}').response
          : undefined;
        outputs.push(comparable(streamed ? JSON.stringify(printed) : run.stdout));
      }
      expect(outputs[0]).toMatchObject({
        content: 'Checking.',
        reasoning: 'Need the tool.',
        finishReason: 'tool_calls',
        toolCalls: [{ id: 'call_oslo', name: 'get_weather', arguments: { city: 'Oslo' } }],
      });
      expect(outputs[1]).toEqual(outputs[0]);
      expect(outputs[2]).toEqual(outputs[0]);
    },
  );
});
