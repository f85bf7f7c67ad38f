import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, textChunk, textStream } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { answerTurn, sentMessages, toolCallTurn } from './cli-test-kit.js';
import { runCli } from './run-cli.js';

// What a new user meets in the first minutes: pipes, missing settings, typos in request files, timeouts and
// network errors that say what to do next.

let runner: FakeRunner;
let folder: string;
const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'qwen3', '--max-retries', '0'];

beforeAll(async () => {
  runner = await startFakeRunner();
  folder = await mkdtemp(path.join(tmpdir(), 'spine-first-'));
});
afterAll(async () => {
  await runner.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs the CLI with stdout read only up to its first newline, then closed, as `| head -1` does. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  const main = path.resolve('src/cli/main.ts');
  const loader = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, main, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let first = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    first += text;
    if (first.includes('\n')) child.stdout.destroy();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, first })));
}

const slowStream = () => ({
  sse: textStream(Array.from({ length: 40 }, (_, index) => `line ${index}\n`)),
  chunkSize: 'event' as const,
  delayMsBetweenChunks: 15,
});

describe('a closed stdout (| head)', () => {
  it('complete --stream --json | head -1 ends quietly', async () => {
    runner.enqueue(slowStream());
    const run = await runIntoClosedPipe(['complete', 'hi', ...endpoint(), '--stream', '--json']);
    expect(JSON.parse(run.first.split('\n')[0] ?? '')).toMatchObject({ type: 'text-delta' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(141);
  });

  it('ask | head ends quietly too', async () => {
    runner.enqueue(slowStream());
    const run = await runIntoClosedPipe(['ask', 'hi', ...endpoint(), '--project', folder, '--no-fs']);
    expect(run.first.startsWith('line 0')).toBe(true);
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.code).toBe(141);
  });
});

describe('settings a new user leaves out or gets wrong', () => {
  it('no model is an error that says how to give one, and nothing is sent', async () => {
    const before = runner.requests.length;
    const run = await runCli(['complete', 'hi', '--base-url', runner.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^CONFIG_INVALID: no model given: pass --model NAME/);
    expect(run.stderr).toContain('SPINE_MODEL');
    expect(runner.requests.length).toBe(before);
  });

  it('SPINE_MODEL is enough', async () => {
    runner.enqueue({ body: completion('from env') });
    const run = await runCli(['complete', 'hi', '--base-url', runner.baseUrl], {
      env: { SPINE_MODEL: 'envy' },
    });
    expect(run.stdout).toBe('from env\n');
    expect(runner.requests.at(-1)?.body).toMatchObject({ model: 'envy' });
  });

  it('--max-turns 0 is refused', async () => {
    const run = await runCli(['ask', 'hi', ...endpoint(), '--max-turns', '0', '--project', folder]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-turns must be an integer of at least 1, got 0');
  });

  it.each([
    ['messages', { messages: 'hello' }, '"messages" must be an array of chat messages'],
    ['messages', { messages: [{ content: 'no role' }] }, '"messages" must be an array of chat messages'],
    ['max_tokens', { messages: [{ role: 'user', content: 'hi' }], max_tokens: '50' }, '"max_tokens" must be'],
    ['tools', { messages: [{ role: 'user', content: 'hi' }], tools: {} }, '"tools" must be an array'],
  ])('a --request file with a wrongly typed %s is refused, naming the key', async (_key, body, expected) => {
    const file = path.join(folder, 'request.json');
    await writeFile(file, JSON.stringify(body));
    const before = runner.requests.length;
    const run = await runCli(['complete', ...endpoint(), '--request', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(runner.requests.length).toBe(before);
  });
});

describe('small things a command line is expected to do', () => {
  it('--version prints the package version', async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(manifest.version);
  });

  it('takes the prompt from stdin when none is given', async () => {
    runner.enqueue({ body: completion('read you') });
    const run = await runCli(['complete', ...endpoint()], { stdin: 'hi from a pipe\n' });
    expect(run.stdout).toBe('read you\n');
    expect(sentMessages(runner.requests.at(-1))).toEqual([{ role: 'user', content: 'hi from a pipe' }]);
  });

  it('without a prompt anywhere it says how to give one', async () => {
    const run = await runCli(['complete', ...endpoint()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give a PROMPT, pipe one in on stdin');
  });

  it('a streamed answer cut by an error ends its line before the error', async () => {
    const partial = `data: ${JSON.stringify(textChunk('Half an ans'))}\n\n`;
    runner.enqueue({
      sse: [textChunk('Half an ans'), textChunk('wer')],
      dropAfterBytes: Buffer.byteLength(partial),
    });
    const run = await runCli(['complete', 'hi', ...endpoint(), '--stream']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('Half an ans\n');
    expect(run.stderr).toMatch(/^LLM_CONNECTION: /);
  });

  it('--stream --json shows retries as events on stdout, not as lines on stderr', async () => {
    runner.enqueue(
      { status: 503, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'Loading model' } } },
      { sse: textStream(['ok']) },
    );
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      runner.baseUrl,
      '--model',
      'q',
      '--stream',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; retry?: { attempt: number; code: string } });
    expect(events[0]).toMatchObject({ type: 'retry', retry: { attempt: 1, code: 'LLM_SERVER_ERROR' } });
    expect(events.at(-1)?.type).toBe('done');
    expect(run.stderr).toBe('');
  });

  it('a stopped ask run can be continued where it stopped', async () => {
    const project = await mkdtemp(path.join(tmpdir(), 'spine-continue-'));
    try {
      await writeFile(path.join(project, 'notes.md'), 'remember the milk\n');
      runner.enqueue(toolCallTurn('fs_read', { path: '@project/notes.md' }));
      const first = await runCli(['ask', 'What do my notes say?', ...endpoint(), '--max-turns', '1'], {
        cwd: project,
      });
      expect(first.code).toBe(1);
      expect(first.stderr).toContain('ENGINE_MAX_TURNS');
      const runId = /spine ask --continue (\S+) "continue"/.exec(first.stderr)?.[1];
      expect(runId).toBeDefined();

      runner.enqueue(answerTurn('They say to remember the milk.'));
      const second = await runCli(['ask', '--continue', runId as string, 'go on', ...endpoint()], {
        cwd: project,
      });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('They say to remember the milk.\n');
      const sent = sentMessages(runner.requests.at(-1));
      expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
      expect(sent[1]?.content).toBe('What do my notes say?');
      expect(sent[3]?.content).toContain('remember the milk');
      expect(sent[4]?.content).toBe('go on');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });

  it('--continue with an unknown run names where it looked', async () => {
    const run = await runCli([
      'ask',
      '--continue',
      'no-such-run',
      'go on',
      ...endpoint(),
      '--project',
      folder,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ENOENT: no run "no-such-run" \(looked at /);
  });
});

describe('timeouts and network errors say what happened and what to do', () => {
  it('--timeout bounds the whole call: a silent server fails once, at the total', async () => {
    runner.enqueue({ headersDelayMs: 10_000, body: completion('late') });
    const before = runner.requests.length;
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      runner.baseUrl,
      '--model',
      'q',
      '--timeout',
      '800',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^LLM_TIMEOUT: total timeout: the call did not complete within 800 ms/);
    expect(runner.requests.length).toBe(before + 1);
  });

  it('--help prints the timeout defaults', async () => {
    const run = await runCli(['complete', '--help']);
    expect(run.stdout).toMatch(/--timeout <ms>[\s\S]*default 600000/);
    expect(run.stdout).toMatch(/--first-byte-timeout <ms>[\s\S]*default 60000/);
    expect(run.stdout).toMatch(/--idle-timeout <ms>[\s\S]*default 30000/);
  });

  it('a wrong base URL answered by a web page gives the status, the URL and the fix, not the markup', async () => {
    runner.enqueue({
      status: 404,
      headers: { 'content-type': 'text/html' },
      body: '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>nginx</body></html>',
    });
    const run = await runCli(['complete', 'hi', ...endpoint()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`HTTP 404 from POST ${runner.baseUrl}/chat/completions`);
    expect(run.stderr).toContain('an HTML page ("404 Not Found")');
    expect(run.stderr).toContain('check --base-url');
    expect(run.stderr).not.toContain('<html');
  });

  it('a 401 says where the key goes', async () => {
    runner.enqueue({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const run = await runCli(['complete', 'hi', ...endpoint()]);
    expect(run.stderr).toContain('--api-key');
    expect(run.stderr).toContain('api_key_env');
  });

  it('a refused connection names the address and asks whether the runner is started', async () => {
    const port = await closedPort();
    const run = await runCli([
      'complete',
      'hi',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--model',
      'q',
      '--max-retries',
      '0',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^LLM_CONNECTION: connection to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed/,
    );
    expect(run.stderr).toContain(`nothing listens on 127.0.0.1:${port}: is the runner started`);
  });
});

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
