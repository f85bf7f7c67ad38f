import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completion } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { runCli } from './cli-test-kit.js';

// Issue 13: with a spine.yaml in the working folder, every setting still goes flag > environment > the role >
// default. One test per setting, through the CLI, against loopback runners.
describe('a flag never loses to spine.yaml', () => {
  let runner: FakeRunner;
  let other: FakeRunner;
  let project: string;
  const ok = () => ({ body: completion('ok') });
  const lastBody = (target: FakeRunner = runner) => target.requests.at(-1)?.body as Record<string, unknown>;

  beforeAll(async () => {
    runner = await startFakeRunner();
    other = await startFakeRunner();
  });
  afterAll(async () => {
    await runner.close();
    await other.close();
  });
  beforeEach(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'spine-flags-'));
    await writeFile(
      path.join(project, 'spine.yaml'),
      [
        'models:',
        '  default:',
        '    id: from-config',
        `    endpoint: ${runner.baseUrl}`,
        '    timeout_s: 30',
        '    context_length: 4096',
        '    api_key_env: CONFIG_KEY',
        '',
      ].join('\n'),
    );
    return () => rm(project, { recursive: true, force: true });
  });

  const complete = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['complete', 'hi', ...args], { cwd: project, env: { CONFIG_KEY: 'key-from-config', ...env } });

  it('model: --model, then SPINE_MODEL, then the role', async () => {
    runner.enqueue(ok(), ok(), ok());
    await complete(['--model', 'from-flag'], { SPINE_MODEL: 'from-env' });
    expect(lastBody().model).toBe('from-flag');
    await complete([], { SPINE_MODEL: 'from-env' });
    expect(lastBody().model).toBe('from-env');
    await complete([]);
    expect(lastBody().model).toBe('from-config');
  });

  it('retries: --max-retries 0 sends one request where the role would retry twice', async () => {
    const before = runner.requests.length;
    runner.enqueue({ status: 500, body: { error: { message: 'down' } } });
    const run = await complete(['--max-retries', '0']);
    expect(run.code).toBe(1);
    expect(runner.requests.length - before).toBe(1);
  });

  it('base URL: --base-url sends to that runner, with the role’s other settings', async () => {
    other.enqueue(ok());
    const run = await complete(['--base-url', other.baseUrl]);
    expect(run.code).toBe(0);
    expect(lastBody(other).model).toBe('from-config');
  });

  it('API key: --api-key wins over the role’s api_key_env', async () => {
    runner.enqueue(ok(), ok());
    await complete(['--api-key', 'key-from-flag']);
    expect(runner.requests.at(-1)?.headers.authorization).toBe('Bearer key-from-flag');
    await complete([]);
    expect(runner.requests.at(-1)?.headers.authorization).toBe('Bearer key-from-config');
  });

  it('API type and provider: --api-type responses speaks the Responses API to the role’s endpoint', async () => {
    runner.enqueue({
      body: {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        model: 'from-config',
        output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }],
      },
    });
    const run = await complete(['--api-type', 'responses']);
    expect(run.code).toBe(0);
    expect(runner.requests.at(-1)?.url).toBe('/v1/responses');
  });

  it('timeouts: --first-byte-timeout bounds the wait for headers though the role allows 30 s', async () => {
    runner.enqueue({ ...ok(), headersDelayMs: 3_000 });
    const run = await complete(['--first-byte-timeout', '200', '--max-retries', '0']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('LLM_TIMEOUT');
    expect(run.stderr).toContain('first-byte');
  });

  it('context length: the role’s context_length (or --context-length) reaches the engine, which checks each request', async () => {
    const before = runner.requests.length;
    const run = await runCli(['ask', 'hi', '--context-length', '300'], {
      cwd: project,
      env: { CONFIG_KEY: 'k' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/LLM_CONTEXT_OVERFLOW: the request does not fit the model's context/);
    expect(runner.requests.length).toBe(before);
  });

  it('spine models shows each value with its origin; --context-length and --timeout win', async () => {
    const run = await runCli(
      ['models', '--json', '--context-length', '8192', '--timeout', '5000', '--model', 'x'],
      {
        cwd: project,
        env: { CONFIG_KEY: 'k' },
      },
    );
    const [row] = JSON.parse(run.stdout);
    expect(row).toMatchObject({ model: 'x', contextLength: 8192, timeoutMs: 5000 });
    expect(row.origins).toMatchObject({
      model: 'flag --model',
      contextLength: 'flag --context-length',
      timeout: 'flag --timeout',
      baseUrl: 'spine.yaml:4',
      apiKey: 'spine.yaml:7',
      maxRetries: 'default',
    });
    const plain = await runCli(['models'], { cwd: project, env: { CONFIG_KEY: 'k' } });
    expect(plain.stdout).toMatch(/contextLength spine\.yaml:6/);
  });
});
