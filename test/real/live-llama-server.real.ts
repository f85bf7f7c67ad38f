import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/model-client.js';
import { runCli } from '../cli/cli-test-kit.js';

// `npm run test:real`: issue 16's scenarios against a live llama-server built by ../shared/real-runner/ (start it
// with `../shared/real-runner/start.sh 18080`, then SPINE_REAL_RUNNER_URL=http://127.0.0.1:18080/v1). Without
// the variable every test is skipped, with the reason. The normal suite replays recordings of the same server.
const url = process.env.SPINE_REAL_RUNNER_URL;
if (url === undefined) {
  console.warn(
    'test:real skipped: set SPINE_REAL_RUNNER_URL to a llama-server from ../shared/real-runner/start.sh',
  );
}
const live = describe.skipIf(url === undefined);

live('a live llama-server (the real-runner tiny model)', () => {
  const baseUrl = url ?? '';
  const flags = ['--base-url', baseUrl, '--model', 'spine-tiny-qwen2', '--max-retries', '0'];
  const project = mkdtempSync(join(tmpdir(), 'spine-real-'));

  it('a second Responses turn, and a tool call with its result, are accepted', async () => {
    const client = createModelClient({
      baseUrl,
      model: 'spine-tiny-qwen2',
      apiType: 'responses',
      maxRetries: 0,
    });
    const first = await client.respond({ messages: [{ role: 'user', content: 'hi' }] });
    const second = await client.respond({
      messages: [{ role: 'user', content: 'hi' }, first.message, { role: 'user', content: 'again' }],
    });
    expect(second.content).toBe('Hello from the tiny model.');
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_time', description: 'time', parameters: { type: 'object', properties: {} } },
      },
    ];
    const call = await client.respond({ messages: [{ role: 'user', content: 'time?' }], tools });
    expect(call.toolCalls).toHaveLength(1);
    const answer = await client.respond({
      messages: [
        { role: 'user', content: 'time?' },
        call.message,
        { role: 'tool', tool_call_id: call.toolCalls[0]!.id, content: '"12:00"' },
      ],
      tools,
    });
    expect(answer.content).toBe('Hello from the tiny model.');
  });

  it('Responses truncation is length, streamed and not', async () => {
    const client = createModelClient({ baseUrl, model: 'x', apiType: 'responses', maxRetries: 0 });
    const request = { messages: [{ role: 'user' as const, content: 'sing /long' }], maxTokens: 5 };
    expect((await client.respond(request)).finishReason).toBe('length');
    let finish: string | undefined;
    for await (const event of client.stream(request))
      if (event.type === 'done') finish = event.response.finishReason;
    expect(finish).toBe('length');
  });

  it('ask: cut and reasoning-only answers exit 3 with a note', async () => {
    const cut = await runCli(['ask', 'sing /long', ...flags, '--no-fs', '--max-tokens', '5'], {
      cwd: project,
    });
    expect(cut.code).toBe(3);
    expect(cut.stderr).toMatch(/cut off/);
    const empty = await runCli(['ask', '/think', ...flags, '--no-fs'], { cwd: project });
    expect(empty.code).toBe(3);
    expect(empty.stderr).toMatch(/no answer text/);
  });

  it('ask with the fs tools: a tool call, its result and the answer, each shown once', async () => {
    const run = await runCli(['ask', 'list the files', ...flags], { cwd: project });
    expect(run.stdout.split('Hello from the tiny model.').length - 1).toBe(1);
    expect(run.stderr).toMatch(/→ fs\./);
  });

  it('doctor: OK for any model name, with the tool probe', async () => {
    const run = await runCli(['doctor', '--base-url', baseUrl, '--model', 'any-name', '--probe-tools']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('serves one model (spine-tiny-qwen2) under any name');
  });
});
