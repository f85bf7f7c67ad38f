import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, textStream, toolCallChunk, usageChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { runCli } from './run-cli.js';

describe('spine complete', () => {
  let runner: FakeRunner;
  let folder: string;
  const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'qwen3', '--max-retries', '0'];

  beforeAll(async () => {
    runner = await startFakeRunner();
    folder = await mkdtemp(path.join(tmpdir(), 'spine-complete-'));
  });
  afterAll(async () => {
    await runner.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('prints the normalized response as JSON, with reasoning split from content', async () => {
    runner.enqueue({ body: completion('<think>plan it</think>Hello!') });
    const run = await runCli(['complete', 'Say hello', ...endpoint(), '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({ content: 'Hello!', reasoning: 'plan it', finishReason: 'stop' });
    expect(printed.usage).toMatchObject({ promptTokens: 3, completionTokens: 2 });
    const sent = runner.requests.at(-1);
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.body).toMatchObject({ model: 'qwen3', messages: [{ role: 'user', content: 'Say hello' }] });
  });

  it('streams one JSON event per line ending with done, tool calls assembled', async () => {
    runner.enqueue({
      sse: [
        ...textStream(['Let me ', 'look.']).slice(0, 2),
        toolCallChunk(0, { id: 'call_1', name: 'lookup', arguments: '{"q":' }),
        toolCallChunk(0, { arguments: '"spine"}' }),
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        usageChunk(7, 4),
      ],
    });
    const run = await runCli(['complete', 'find it', ...endpoint(), '--stream', '--json']);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const text = events.filter((event) => event.type === 'text-delta').map((event) => event.text);
    expect(text.join('')).toBe('Let me look.');
    expect(events.find((event) => event.type === 'tool-call')?.call).toMatchObject({
      id: 'call_1',
      name: 'lookup',
      arguments: { q: 'spine' },
    });
    const done = events.at(-1);
    expect(done.type).toBe('done');
    expect(done.response).toMatchObject({ finishReason: 'tool_calls', usage: { promptTokens: 7 } });
    expect(runner.requests.at(-1)?.body).toMatchObject({ stream: true });
  });

  it('prints plain text without --json, and tool calls as arrows', async () => {
    runner.enqueue({
      body: completion('Checking.', {
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'fs.read', arguments: '{"path":"a"}' } }],
      }),
    });
    const run = await runCli(['complete', 'read a', ...endpoint()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Checking.\n→ fs.read {"path":"a"}\n');
  });

  it('reads a request body from a file, keeping extra fields as passthrough', async () => {
    const requestFile = path.join(folder, 'request.json');
    await writeFile(
      requestFile,
      JSON.stringify({
        messages: [{ role: 'system', content: 'Be brief.' }],
        temperature: 0.2,
        top_k: 20,
      }),
    );
    runner.enqueue({ body: completion('ok') });
    const run = await runCli(['complete', 'go', '--request', requestFile, ...endpoint(), '--json']);
    expect(run.code).toBe(0);
    expect(runner.requests.at(-1)?.body).toMatchObject({
      temperature: 0.2,
      top_k: 20,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'go' },
      ],
    });
  });

  it('exits 1 with a one-line coded error, and the error object with --json', async () => {
    runner.enqueue({ status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } });
    const run = await runCli(['complete', 'hi', ...endpoint(), '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^LLM_AUTH_FAILED: .*bad key/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(run.stdout).error.code).toBe('LLM_AUTH_FAILED');
  });

  it('ends a JSON stream with an error event when the connection drops mid-answer', async () => {
    runner.enqueue({ sse: textStream(['partial answer that goes on']), dropAfterBytes: 120 });
    const run = await runCli(['complete', 'hi', ...endpoint(), '--stream', '--json']);
    expect(run.code).toBe(1);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    expect(last).toMatchObject({ type: 'error', error: { code: 'LLM_CONNECTION' } });
  });

  it('shows each retry on stderr', async () => {
    runner.enqueue({ status: 503, body: { error: 'busy' } }, { body: completion('after retry') });
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      runner.baseUrl,
      '--model',
      'm',
      '--max-retries',
      '1',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^retry 1 in \d+ ms: LLM_SERVER_ERROR/m);
    expect(run.stdout).toBe('after retry\n');
  });

  it('uses a role from spine.yaml in the working folder', async () => {
    const project = await mkdtemp(path.join(folder, 'project-'));
    await writeFile(
      path.join(project, 'spine.yaml'),
      ['models:', '  coding:', '    id: coder-7b', `    endpoint: ${runner.baseUrl}`, ''].join('\n'),
    );
    runner.enqueue({ body: completion('from config') });
    const run = await runCli(['complete', 'hi', '--role', 'coding', '--json'], { cwd: project });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).content).toBe('from config');
    expect(runner.requests.at(-1)?.body).toMatchObject({ model: 'coder-7b' });
  });

  it('names the file, line and key of a config error before sending anything', async () => {
    const project = await mkdtemp(path.join(folder, 'bad-'));
    await writeFile(
      path.join(project, 'spine.yaml'),
      ['models:', '  coding:', '    id: m', `    endpoint: ${runner.baseUrl}`, '    api_type: grpc', ''].join(
        '\n',
      ),
    );
    const before = runner.requests.length;
    const run = await runCli(['complete', 'hi', '--json'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/spine\.yaml:5: models\.coding\.api_type: must be one of/);
    expect(JSON.parse(run.stdout).error.code).toBe('CONFIG_INVALID');
    expect(runner.requests.length).toBe(before);
  });

  it('refuses an unknown --api-type with a usage error', async () => {
    const run = await runCli(['complete', 'hi', ...endpoint(), '--api-type', 'soap']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'CONFIG_INVALID: --api-type must be one of chat_completions, responses, ollama, got soap',
    );
  });
});
