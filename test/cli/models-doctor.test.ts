import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { runCli } from './run-cli.js';

describe('spine models and spine doctor', () => {
  let runner: FakeRunner;
  let project: string;

  beforeAll(async () => {
    runner = await startFakeRunner();
    project = await mkdtemp(path.join(tmpdir(), 'spine-doctor-'));
    await writeFile(
      path.join(project, 'spine.yaml'),
      [
        'models:',
        '  router:',
        '    id: small-1b',
        `    endpoint: ${runner.baseUrl}`,
        '  coding:',
        '    id: coder-7b',
        `    endpoint: ${runner.baseUrl}/chat/completions`,
        '    context_length: 32768',
        '    api_key_env: SPINE_TEST_MISSING_KEY',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await runner.close();
    await rm(project, { recursive: true, force: true });
  });

  it('lists roles with their resolved settings and never a key', async () => {
    const run = await runCli(['models', '--json'], {
      cwd: project,
      env: { SPINE_TEST_MISSING_KEY: 'sk-secret' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('sk-secret');
    const roles = JSON.parse(run.stdout);
    expect(roles).toEqual([
      expect.objectContaining({
        role: 'router',
        model: 'small-1b',
        apiType: 'chat_completions',
        timeoutMs: 5000,
      }),
      expect.objectContaining({
        role: 'coding',
        model: 'coder-7b',
        contextLength: 32768,
        timeoutMs: 45000,
        key: 'set',
      }),
    ]);
  });

  it('prints a readable table, marking a missing key variable', async () => {
    const run = await runCli(['models'], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ROLE\s+MODEL\s+API/m);
    expect(run.stdout).toMatch(/^coding\s+coder-7b\s+chat_completions.*missing \(SPINE_TEST_MISSING_KEY\)/m);
  });

  it('gives every role a verdict: served model ok, missing model named', async () => {
    const listing = { object: 'list', data: [{ id: 'small-1b', object: 'model' }] };
    runner.enqueue({ body: listing }, { body: listing });
    const run = await runCli(['doctor', '--json'], { cwd: project });
    expect(run.code).toBe(1);
    const byRole = Object.fromEntries(JSON.parse(run.stdout).map((row: { role: string }) => [row.role, row]));
    expect(byRole.router).toMatchObject({ reachable: true, modelPresent: true, verdict: 'ok' });
    expect(byRole.coding).toMatchObject({ reachable: true, modelPresent: false, verdict: 'model-missing' });
    expect(byRole.coding.detail).toContain('small-1b');
    expect(runner.requests.slice(-2).map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v1/models',
      'GET /v1/models',
    ]);
  });

  it("probes with the headers a call sends: a key and the role's own headers", async () => {
    const gated = await startFakeRunner();
    const folder = await mkdtemp(path.join(tmpdir(), 'spine-doctor-headers-'));
    try {
      await writeFile(
        path.join(folder, 'spine.yaml'),
        [
          'models:',
          '  default:',
          '    id: small-1b',
          `    endpoint: ${gated.baseUrl}`,
          '    api_key_env: SPINE_TEST_PROXY_KEY',
          '    headers:',
          '      X-Proxy-Tenant: team-a',
          '',
        ].join('\n'),
      );
      // The runner answers only a request that carries both, as a proxy in front of it would.
      const gate = (request: { headers: Record<string, string | string[] | undefined> }) =>
        request.headers.authorization === 'Bearer k-123' && request.headers['x-proxy-tenant'] === 'team-a'
          ? { body: { object: 'list', data: [{ id: 'small-1b', object: 'model' }] } }
          : { status: 401, body: { error: { message: 'no key' } } };
      gated.enqueue(gate, gate);
      const run = await runCli(['doctor', '--json'], { cwd: folder, env: { SPINE_TEST_PROXY_KEY: 'k-123' } });
      expect(JSON.parse(run.stdout)).toEqual([expect.objectContaining({ reachable: true, verdict: 'ok' })]);
      expect(run.code).toBe(0);
      const withoutKey = await runCli(['doctor', '--json'], {
        cwd: folder,
        env: { SPINE_TEST_PROXY_KEY: 'wrong' },
      });
      expect(JSON.parse(withoutKey.stdout)[0].verdict).not.toBe('ok');
    } finally {
      await gated.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reports an endpoint nobody listens on as unreachable', async () => {
    const closed = await startFakeRunner();
    const url = closed.baseUrl;
    await closed.close();
    const run = await runCli(['doctor', '--base-url', url, '--model', 'm']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^default\s+m\s+no\s+-\s+UNREACHABLE/m);
    expect(run.stdout).toMatch(/default: cannot connect: ECONNREFUSED/);
  });

  it('with --probe-tools, sends a tool and the tool result back, and passes when the call round-trips', async () => {
    runner.enqueue(
      { body: { data: [{ id: 'small-1b' }] } },
      {
        body: completion(null, {
          toolCalls: [
            { id: 'call_9', type: 'function', function: { name: 'echo', arguments: '{"text":"ping"}' } },
          ],
        }),
      },
      { body: completion('ping') },
    );
    const run = await runCli(['doctor', '--role', 'router', '--probe-tools'], { cwd: project });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^router\s+small-1b\s+yes\s+yes\s+yes\s+OK/m);
    const [, firstCall, secondCall] = runner.requests.slice(-3);
    expect(firstCall?.body).toMatchObject({ tools: [{ function: { name: 'echo' } }] });
    expect(secondCall?.body).toMatchObject({
      messages: expect.arrayContaining([expect.objectContaining({ role: 'tool', tool_call_id: 'call_9' })]),
    });
  });

  it('fails the tool probe when the model answers in prose', async () => {
    runner.enqueue({ body: { data: [{ id: 'small-1b' }] } }, { body: completion('I cannot use tools.') });
    const run = await runCli(['doctor', '--role', 'router', '--probe-tools', '--json'], { cwd: project });
    expect(run.code).toBe(1);
    const [row] = JSON.parse(run.stdout);
    expect(row).toMatchObject({ toolsRoundTrip: false, verdict: 'tools-failed' });
    expect(row.detail).toContain('I cannot use tools.');
  });

  it('a server that lists one model and answers to any name is not MODEL-MISSING (llama-server)', async () => {
    runner.enqueue(
      { body: { data: [{ id: 'spine-tiny-qwen2', owned_by: 'llamacpp' }] } },
      { body: completion('H') },
    );
    const run = await runCli(['doctor', '--base-url', runner.baseUrl, '--model', 'whatever', '--json']);
    expect(run.code).toBe(0);
    const [row] = JSON.parse(run.stdout);
    expect(row).toMatchObject({ verdict: 'ok', modelPresent: true });
    expect(row.detail).toContain('serves one model (spine-tiny-qwen2) under any name');
    expect(runner.requests.at(-1)?.body).toMatchObject({ model: 'whatever', max_tokens: 1 });
  });

  it('a tool probe cut at its token limit says so and what to raise, not "answered in prose"', async () => {
    runner.enqueue(
      { body: { data: [{ id: 'small-1b' }] } },
      {
        body: completion('Let me think about which', {
          toolCalls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: '{"te' } }],
          finishReason: 'length',
        }),
      },
    );
    const run = await runCli(['doctor', '--role', 'router', '--probe-tools', '--json'], { cwd: project });
    expect(run.code).toBe(1);
    const [row] = JSON.parse(run.stdout);
    expect(row).toMatchObject({ verdict: 'tools-failed' });
    expect(row.detail).toMatch(/cut at its limit of 512 tokens/);
    expect(row.detail).not.toContain('prose');
  });

  it('lists Ollama models through /api/tags and suggests ollama pull', async () => {
    runner.enqueue({ body: { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest' }] } });
    const run = await runCli(
      ['doctor', '--base-url', runner.origin, '--provider', 'ollama', '--model', 'qwen3:8b', '--json'],
      { cwd: project },
    );
    expect(runner.requests.at(-1)?.url).toBe('/api/tags');
    const [row] = JSON.parse(run.stdout);
    expect(row).toMatchObject({ verdict: 'model-missing' });
    expect(row.detail).toContain('ollama pull qwen3:8b');
  });
});
