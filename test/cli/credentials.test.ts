import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { answerTurn, runCli } from './cli-test-kit.js';

// What a hostile or careless runner does with credentials, seen through the CLI.
describe('credentials never leave the configured origin and are never printed or recorded', () => {
  const key = 'sk-test-7c1d9e55b0a4';
  const headerSecret = 'hdr-secret-41f0aa92';
  let runner: FakeRunner;
  let elsewhere: FakeRunner;
  let project: string;

  beforeAll(async () => {
    runner = await startFakeRunner();
    elsewhere = await startFakeRunner();
  });
  afterAll(async () => {
    await runner.close();
    await elsewhere.close();
  });
  beforeEach(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'spine-credentials-'));
    return () => rm(project, { recursive: true, force: true });
  });

  const echoKey = {
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${key}; header was ${headerSecret}` } },
  };

  it('a key echoed in an error body is redacted on stderr and in --json', async () => {
    runner.enqueue(echoKey, echoKey);
    const flags = ['--base-url', runner.baseUrl, '--model', 'm', '--api-key', key, '--max-retries', '0'];
    const human = await runCli(['complete', 'hi', ...flags]);
    expect(human.code).not.toBe(0);
    expect(human.stderr).toContain('LLM_AUTH_FAILED');
    expect(human.stderr).toContain('[REDACTED]');
    expect(human.stderr).not.toContain(key);
    const json = await runCli(['complete', 'hi', ...flags, '--json']);
    expect(json.stdout + json.stderr).toContain('[REDACTED]');
    expect(json.stdout + json.stderr).not.toContain(key);
  });

  it('a key the model repeats is redacted in the answer, --json and turns.jsonl', async () => {
    runner.enqueue(answerTurn(`Your key is ${key}.`));
    const run = await runCli(
      ['ask', 'what is my key?', '--base-url', runner.baseUrl, '--model', 'm', '--api-key', key, '--json'],
      { cwd: project },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.assistantText).toBe('Your key is [REDACTED].');
    const turns = await readFile(path.join(result.runDir, 'turns.jsonl'), 'utf8');
    expect(turns).toContain('[REDACTED]');
    expect(turns).not.toContain(key);
  });

  it('spine doctor reports a redirect with its Location and sends nothing to the other origin', async () => {
    const before = elsewhere.requests.length;
    runner.enqueue({ status: 307, headers: { location: `${elsewhere.baseUrl}/models` }, body: '' });
    const run = await runCli(['doctor', '--base-url', runner.baseUrl, '--model', 'm', '--api-key', key]);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(`redirects to ${elsewhere.baseUrl}/models`);
    expect(elsewhere.requests.length).toBe(before);
    expect(runner.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
  });

  it('a model call that is redirected fails with the Location, and the other origin sees no request', async () => {
    const before = elsewhere.requests.length;
    runner.enqueue({ status: 308, headers: { location: `${elsewhere.baseUrl}/chat/completions` }, body: '' });
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      runner.baseUrl,
      '--model',
      'm',
      '--api-key',
      key,
      '--max-retries',
      '0',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`redirects to ${elsewhere.baseUrl}/chat/completions`);
    expect(elsewhere.requests.length).toBe(before);
  });

  it('user:password@ in the base URL is sent as Basic auth and never printed', async () => {
    runner.enqueue({ status: 500, body: { error: { message: 'boom' } } });
    const url = new URL(runner.baseUrl);
    url.username = 'alice';
    url.password = 'pa55-word-91xz';
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      url.toString(),
      '--model',
      'm',
      '--max-retries',
      '0',
    ]);
    expect(run.code).not.toBe(0);
    const sent = runner.requests.at(-1);
    expect(sent?.headers.authorization).toBe(
      `Basic ${Buffer.from('alice:pa55-word-91xz').toString('base64')}`,
    );
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(run.stderr).toContain('HTTP 500');
    expect(run.stderr).not.toContain('pa55-word-91xz');
  });

  it('a ?query in the base URL is kept on every request; a #fragment is refused', async () => {
    runner.enqueue({
      body: { choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] },
    });
    const kept = await runCli([
      'complete',
      'hi',
      '--base-url',
      `${runner.baseUrl}?tenant=acme`,
      '--model',
      'm',
    ]);
    expect(kept.code).toBe(0);
    expect(runner.requests.at(-1)?.url).toBe('/v1/chat/completions?tenant=acme');
    const before = runner.requests.length;
    const refused = await runCli(['complete', 'hi', '--base-url', `${runner.baseUrl}#v2`, '--model', 'm']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('CONFIG_INVALID');
    expect(refused.stderr).toContain('#fragment');
    expect(runner.requests.length).toBe(before);
  });

  it('a configured header value is redacted like the key', async () => {
    await writeFile(
      path.join(project, 'spine.yaml'),
      [
        'models:',
        '  default:',
        '    id: m',
        `    endpoint: ${runner.baseUrl}`,
        '    headers:',
        `      x-api-key: ${headerSecret}`,
        '',
      ].join('\n'),
    );
    runner.enqueue(echoKey);
    const run = await runCli(['complete', 'hi', '--max-retries', '0'], { cwd: project });
    expect(runner.requests.at(-1)?.headers['x-api-key']).toBe(headerSecret);
    expect(run.stderr).toContain('LLM_AUTH_FAILED');
    expect(run.stderr).not.toContain(headerSecret);
  });
});
