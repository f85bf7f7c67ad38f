import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finishChunk, textChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { answerTurn, runCli, sentMessages, spawnCli, toolCallTurn } from './cli-test-kit.js';

describe('spine chat', () => {
  let runner: FakeRunner;
  let base: string;
  let project: string;
  let firstRequest: number;
  const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'qwen3', '--max-retries', '0'];
  const requestsOfThisRun = () => runner.requests.slice(firstRequest);

  beforeAll(async () => {
    runner = await startFakeRunner();
    base = await mkdtemp(path.join(tmpdir(), 'spine-chat-'));
  });
  afterAll(async () => {
    await runner.close();
    await rm(base, { recursive: true, force: true });
  });
  beforeEach(async () => {
    project = await mkdtemp(path.join(base, 'project-'));
    await writeFile(path.join(project, 'README.md'), 'Spine reads this file.\n');
    firstRequest = runner.requests.length;
  });

  it('runs commands and a conversation from piped input, keeping it until /reset', async () => {
    runner.enqueue(
      toolCallTurn('fs_read', { path: '@project/README.md' }),
      answerTurn('It says Spine reads it.'),
      answerTurn('You asked about the README.'),
      answerTurn('Hello, fresh start.'),
    );
    const input = [
      '/tools',
      '/model',
      'What is in the README?',
      'What did I ask?',
      '/reset',
      'Hello',
      '/exit',
      'never sent',
      '',
    ].join('\n');
    const run = await runCli(['chat', ...endpoint()], { cwd: project, stdin: input });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^fs\.read\s+\S/m);
    expect(out).toMatch(/^fs\.list\s+\S/m);
    expect(out).toContain(`qwen3 at ${runner.baseUrl} (openai-compatible)`);
    expect(out).toContain('→ fs.read {"path":"@project/README.md"}\n← ok ');
    expect(out).toContain('It says Spine reads it.\n');
    expect(out).toContain('You asked about the README.\n');
    expect(out).toMatch(/new conversation \(run \S+\)/);
    expect(out).toContain('Hello, fresh start.\n');
    // The answers appear in the order of the questions, after the tool lines.
    expect(out.indexOf('← ok')).toBeLessThan(out.indexOf('It says Spine reads it.'));

    const requests = requestsOfThisRun();
    expect(requests).toHaveLength(4);
    expect(sentMessages(requests[2]).map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(sentMessages(requests[3]).map((message) => [message.role, message.content])).toEqual([
      ['system', expect.stringContaining('@project/')],
      ['user', 'Hello'],
    ]);
  });

  it('cancels a stalled turn on Ctrl+C, answers the next question, and exits 0 when input ends', async () => {
    const partial = textChunk('Thinking about ');
    runner.enqueue(
      {
        sse: [partial, textChunk('this forever'), finishChunk('stop')],
        // Stops after the first event and holds the connection open: the model hangs mid-answer.
        stallAfterBytes: Buffer.byteLength(`data: ${JSON.stringify(partial)}\n\n`),
      },
      answerTurn('Second answer.'),
    );
    const chat = spawnCli(['chat', ...endpoint(), '--no-fs'], { cwd: project });
    await chat.waitForStdout(/spine chat/);
    chat.child.stdin.write('first question\n');
    await chat.waitForStdout(/Thinking about /);
    chat.child.kill('SIGINT');
    await chat.waitForStdout(/\(turn cancelled\)/);
    chat.child.stdin.write('second question\n');
    await chat.waitForStdout(/Second answer\./);
    chat.child.stdin.end();
    expect(await chat.exited).toBe(0);
    expect(chat.stdout).not.toContain('this forever');
    expect(chat.stderr).toBe('');
    const second = requestsOfThisRun()[1];
    expect(sentMessages(second).map((message) => [message.role, message.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'first question'],
      ['user', 'second question'],
    ]);
  });

  it('exits on a second Ctrl+C at the idle prompt', async () => {
    const chat = spawnCli(['chat', ...endpoint(), '--no-fs'], { cwd: project });
    await chat.waitForStdout(/spine chat/);
    chat.child.kill('SIGINT');
    await chat.waitForStdout(/press Ctrl\+C again/);
    chat.child.kill('SIGINT');
    expect(await chat.exited).toBe(0);
    expect(requestsOfThisRun()).toHaveLength(0);
  });

  it('prints a failed turn as one coded line and carries on', async () => {
    runner.enqueue({ status: 500, body: { error: { message: 'model crashed' } } }, answerTurn('Back again.'));
    const run = await runCli(['chat', ...endpoint(), '--no-fs'], {
      cwd: project,
      stdin: 'first\nsecond\n',
    });
    expect(run.code).toBe(0);
    expect(run.stderr.trim()).toMatch(/^LLM_SERVER_ERROR: .*model crashed$/);
    expect(run.stdout).toContain('Back again.\n');
  });
});
