import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { loadFixtureRequest, loadHttpFixture } from '../support/http-fixture.js';
import { createTestClient, drainStream } from './client-test-kit.js';

// What the real-runner llama-server sent (test/data/real-runner/README.md), replayed through the loopback runner:
// the findings of issue 16, each held by the client and the CLI. test/real/ runs the same against a live server.

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const fixture = (name: string) => loadHttpFixture('real-runner', name);
const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'spine-tiny-qwen2', '--max-retries', '0'];

describe('llama-server findings, replayed', () => {
  it('a second Responses turn sends typed items, as the recorded request the server accepted', async () => {
    runner.enqueue(fixture('responses-second-turn'));
    const client = createTestClient(runner, {
      apiType: 'responses',
      model: 'spine-tiny-qwen2',
      maxRetries: 0,
    });
    const response = await client.respond({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello from the tiny model.' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(response.content).toBe('Hello from the tiny model.');
    const recorded = JSON.parse(loadFixtureRequest('real-runner', 'responses-second-turn'));
    expect(runner.requests[0]?.body).toMatchObject({ input: recorded.input });
    const sent = runner.requests[0]?.body as { input: Array<{ type?: string }> } | undefined;
    expect(sent?.input.every((item) => typeof item.type === 'string')).toBe(true);
  });

  it.each([false, true])(
    'a Responses answer cut at max_output_tokens is length though the server says completed (stream %s)',
    async (stream) => {
      runner.enqueue(fixture(stream ? 'responses-cut-completed-stream' : 'responses-cut-completed'));
      const client = createTestClient(runner, {
        apiType: 'responses',
        model: 'spine-tiny-qwen2',
        maxRetries: 0,
      });
      const request = { messages: [{ role: 'user' as const, content: 'sing /long' }], maxTokens: 5 };
      const response = stream
        ? (await drainStream(client.stream(request))).events.flatMap((event) =>
            event.type === 'done' ? [event.response] : [],
          )[0]
        : await client.respond(request);
      expect(response).toMatchObject({ content: 'La la la la la', finishReason: 'length' });
    },
  );

  it('ask: a reasoning-only answer ends with a note and exit 3', async () => {
    runner.enqueue(fixture('chat-think-only-stream'));
    const run = await runCli(['ask', '/think', ...endpoint(), '--no-fs']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/no answer text/);
  });

  it('ask --json: an answer cut at max_tokens carries finishReason length and exits 3', async () => {
    runner.enqueue(fixture('chat-long-cut-stream'));
    const run = await runCli(['ask', 'sing /long', ...endpoint(), '--no-fs', '--max-tokens', '6', '--json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ finishReason: 'length', answer: 'cut' });
  });

  it('doctor: a server that lists one model and answers to any name is OK, and says so', async () => {
    runner.enqueue(fixture('models'), fixture('chat-any-model-name'));
    const run = await runCli(['doctor', '--base-url', runner.baseUrl, '--model', 'any-name-at-all']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('serves one model (spine-tiny-qwen2) under any name');
  });

  it('complete: a call cut inside its tags leaves only a length finish, and the CLI says the answer was cut', async () => {
    runner.enqueue(fixture('chat-tools-cut-inside-call'));
    const run = await runCli(['complete', '--request', '-', ...endpoint()], {
      stdin: loadFixtureRequest('real-runner', 'chat-tools-cut-inside-call'),
    });
    expect(run.stdout.startsWith('Let me check.')).toBe(true);
    expect(run.stderr).toContain('cut off at its token limit');
  });
});
