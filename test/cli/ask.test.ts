import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finishChunk, textChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import {
  answerTurn,
  runCli,
  sentMessages,
  sentToolNames,
  sentToolResults,
  spawnCli,
  toolCallTurn,
} from './cli-test-kit.js';

describe('spine ask', () => {
  let runner: FakeRunner;
  let base: string;
  let project: string;
  let firstRequest: number;
  const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'qwen3', '--max-retries', '0'];
  const requestsOfThisRun = () => runner.requests.slice(firstRequest);

  beforeAll(async () => {
    runner = await startFakeRunner();
    base = await mkdtemp(path.join(tmpdir(), 'spine-ask-'));
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

  it('reads a project file through fs.read, shows the call on stderr and prints the answer', async () => {
    runner.enqueue(
      toolCallTurn('fs_read', { path: '@project/README.md' }),
      answerTurn('The README says Spine reads it.'),
    );
    const run = await runCli(['ask', 'What does the README say?', ...endpoint()], { cwd: project });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('The README says Spine reads it.\n');
    expect(run.stderr).toContain('→ fs.read {"path":"@project/README.md"}');
    expect(run.stderr).toMatch(/^← ok path=@project\/README.md bytes=23 /m);

    const [first, second] = requestsOfThisRun();
    // Without --write only the read tools are offered: their definitions are what a small context can afford.
    expect(sentToolNames(first).sort()).toEqual(['fs_list', 'fs_read', 'fs_search']);
    const system = sentMessages(first)[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toMatch(/@project\/.*read-only/);
    expect(sentToolResults(second)[0]).toMatchObject({ ok: true, content: 'Spine reads this file.\n' });
  });

  it('prints one JSON object with --json and keeps the run folder under .spine/runs', async () => {
    runner.enqueue(toolCallTurn('fs_read', { path: '@project/README.md' }), answerTurn('Done.'));
    const run = await runCli(['ask', 'Read the README', ...endpoint(), '--json'], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result).sort()).toEqual(
      [
        'answer',
        'assistantText',
        'error',
        'finishReason',
        'messages',
        'phase',
        'runDir',
        'runId',
        'turns',
      ].sort(),
    );
    expect(result).toMatchObject({
      phase: 'Completed',
      assistantText: 'Done.',
      finishReason: 'stop',
      answer: 'complete',
      error: null,
      turns: 2,
    });
    expect(result.messages.map((message: { role: string }) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    // The live tool lines still go to stderr, so stdout stays one parseable object.
    expect(run.stderr).toContain('→ fs.read');
    const runDir = await realRunDir(project, result.runId);
    expect(result.runDir).toBe(runDir);
    const turns = (await readFile(path.join(runDir, 'turns.jsonl'), 'utf8')).trim().split('\n');
    expect(turns).toHaveLength(2);
    const audit = (await readFile(path.join(runDir, 'audit.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(audit[0] ?? '{}')).toMatchObject({
      tool: 'fs.read',
      outcome: 'ok',
      runId: result.runId,
    });
  });

  it('writes turns and the audit log to --run-dir when given', async () => {
    const runDir = path.join(base, `chosen-${path.basename(project)}`);
    runner.enqueue(toolCallTurn('fs_list', { path: '@project' }), answerTurn('Listed.'));
    const run = await runCli(['ask', 'List', ...endpoint(), '--json', '--run-dir', runDir], { cwd: project });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).runDir).toBe(runDir);
    expect(existsSync(path.join(runDir, 'turns.jsonl'))).toBe(true);
    expect(existsSync(path.join(runDir, 'audit.jsonl'))).toBe(true);
    // Marked as a run record, so that no later run's tools can reach it wherever it lies.
    expect(existsSync(path.join(runDir, '.spine-run'))).toBe(true);
    expect(existsSync(path.join(project, '.spine'))).toBe(false);
  });

  it('sends a preview of a huge tool result and keeps the whole of it, read-only, in the run folder', async () => {
    await writeFile(
      path.join(project, 'huge.mjs'),
      [
        'export default [{',
        "  name: 'dump',",
        "  description: 'Returns a lot.',",
        "  parameters: { type: 'object', properties: {} },",
        "  execute: () => ({ text: 'x'.repeat(1024 * 1024) + 'END' }),",
        '}];',
        '',
      ].join('\n'),
    );
    runner.enqueue(
      toolCallTurn('dump', {}),
      toolCallTurn('fs_write', { path: '@state/tool-results/call_1.json', content: 'forged' }, 'call_2'),
      answerTurn('Seen.'),
    );
    const run = await runCli(
      ['ask', 'Dump', ...endpoint(), '--tools-module', 'huge.mjs', '--json', '--write'],
      {
        cwd: project,
      },
    );
    expect(run.code).toBe(0);
    const [, second, third] = requestsOfThisRun();
    const sent = sentToolResults(second)[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ ok: true, truncated: true, savedAs: '@state/tool-results/call_1.json' });
    expect(String(sent.hint)).toMatch(/over the 131072-byte limit/);
    expect(JSON.stringify(sent).length).toBeLessThan(16 * 1024);
    expect(sentToolResults(third).at(-1)).toMatchObject({
      ok: false,
      error: { code: 'E_SANDBOX_VIOLATION' },
    });
    const saved = await readFile(
      path.join(JSON.parse(run.stdout).runDir, 'tool-results', 'call_1.json'),
      'utf8',
    );
    expect(JSON.parse(saved).data.text.endsWith('END')).toBe(true);
  });

  it('shows each piece of text once when a later model call fails', async () => {
    runner.enqueue(
      {
        sse: [textChunk('Let me check.\n'), ...toolCallTurn('fs_list', { path: '@project' }).sse!],
        omitDone: true,
      },
      { status: 500, body: { error: { message: 'slot crashed' } } },
    );
    const run = await runCli(['ask', 'List', ...endpoint()], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout.split('Let me check.').length - 1).toBe(1);
    expect(run.stderr).toContain('slot crashed');
  });

  it('an answer cut by the token limit is not a success: a note, exit 3, finishReason length in --json', async () => {
    runner.enqueue(
      { sse: [textChunk('La la la'), finishChunk('length')] },
      { sse: [textChunk('La la la'), finishChunk('length')] },
    );
    const human = await runCli(['ask', 'Sing', ...endpoint(), '--max-tokens', '3'], { cwd: project });
    expect(human.code).toBe(3);
    expect(human.stdout).toBe('La la la\n');
    expect(human.stderr).toMatch(/cut off at its token limit.*--max-tokens/);
    expect(requestsOfThisRun()[0]?.body).toMatchObject({ max_tokens: 3 });
    const json = await runCli(['ask', 'Sing', ...endpoint(), '--json'], { cwd: project });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      finishReason: 'length',
      answer: 'cut',
      phase: 'Completed',
    });
  });

  it('an answer with reasoning and no text is not a success either', async () => {
    runner.enqueue({ sse: [textChunk('<think> Hmm</think>'), finishChunk('stop')] });
    const run = await runCli(['ask', '/think', ...endpoint()], { cwd: project });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no answer text/);
  });

  it('calls a tool from --tools-module', async () => {
    const moduleFile = path.join(project, 'tools.mjs');
    await writeFile(
      moduleFile,
      [
        'export default [{',
        "  name: 'math.add',",
        "  description: 'Adds two numbers.',",
        "  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },",
        '  execute: ({ a, b }) => ({ sum: a + b }),',
        '}];',
        '',
      ].join('\n'),
    );
    runner.enqueue(toolCallTurn('math_add', { a: 2, b: 3 }), answerTurn('2 + 3 = 5'));
    const run = await runCli(['ask', 'Add 2 and 3', ...endpoint(), '--tools-module', 'tools.mjs'], {
      cwd: project,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('2 + 3 = 5\n');
    expect(run.stderr).toContain('→ math.add {"a":2,"b":3}');
    const [first, second] = requestsOfThisRun();
    expect(sentToolNames(first)).toEqual(expect.arrayContaining(['fs_read', 'math_add']));
    expect(sentToolResults(second)[0]).toEqual({ ok: true, data: { sum: 5 } });
  });

  it('leaves the fs tools out with --no-fs', async () => {
    runner.enqueue(answerTurn('No files here.'));
    const run = await runCli(['ask', 'Hi', ...endpoint(), '--no-fs'], { cwd: project });
    expect(run.code).toBe(0);
    const [first] = requestsOfThisRun();
    expect(sentToolNames(first)).toEqual([]);
    expect(sentMessages(first)[0]?.content).not.toContain('@project');
  });

  it('offers no write tool without --write, and writes with it', async () => {
    const readme = path.join(project, 'README.md');
    runner.enqueue(answerTurn('I cannot write here.'));
    const refused = await runCli(['ask', 'Overwrite the README', ...endpoint()], { cwd: project });
    expect(refused.code).toBe(0);
    expect(sentToolNames(requestsOfThisRun()[0])).not.toContain('fs_write');
    expect(await readFile(readme, 'utf8')).toBe('Spine reads this file.\n');

    runner.enqueue(
      toolCallTurn('fs_write', { path: '@project/README.md', content: 'overwritten' }),
      answerTurn('Written.'),
    );
    const allowed = await runCli(['ask', 'Overwrite the README', ...endpoint(), '--write'], { cwd: project });
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/^← ok /m);
    expect(await readFile(readme, 'utf8')).toBe('overwritten');
  });

  it('exits 1 with a one-line coded error when the model call fails', async () => {
    runner.enqueue({ status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } });
    const run = await runCli(['ask', 'Hi', ...endpoint(), '--json'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(
      /^LLM_AUTH_FAILED: HTTP 401 from POST http:\/\/127.0.0.1:\d+\/v1\/chat\/completions: bad key \(check the API key: --api-key.*\)$/,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ phase: 'Failed', error: { code: 'LLM_AUTH_FAILED' } });
  });

  it('stops at --max-turns and exits 1: the task is not finished', async () => {
    runner.enqueue(toolCallTurn('fs_list', { path: '@project' }));
    const run = await runCli(['ask', 'Look around', ...endpoint(), '--max-turns', '1', '--json'], {
      cwd: project,
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      phase: 'WaitingUser',
      error: { code: 'ENGINE_MAX_TURNS' },
    });
    expect(requestsOfThisRun()).toHaveLength(1);
  });

  it('ends the run Failed with ENGINE_ABORTED on Ctrl+C, exit 1', async () => {
    const partial = textChunk('Working on ');
    runner.enqueue({
      sse: [partial, textChunk('it')],
      stallAfterBytes: Buffer.byteLength(`data: ${JSON.stringify(partial)}\n\n`),
    });
    const ask = spawnCli(['ask', 'Take your time', ...endpoint(), '--json'], { cwd: project });
    while (requestsOfThisRun().length === 0) await sleep(20);
    ask.child.kill('SIGINT');
    expect(await ask.exited).toBe(1);
    expect(JSON.parse(ask.stdout)).toMatchObject({ phase: 'Failed', error: { code: 'ENGINE_ABORTED' } });
    expect(ask.stderr).toMatch(/^ENGINE_ABORTED: /m);
  });

  it('refuses a --project that does not exist, and creates nothing', async () => {
    const missing = path.join(project, 'no-such-folder');
    const run = await runCli(['ask', 'Hi', ...endpoint(), '--project', missing]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`CONFIG_INVALID: --project ${missing}: no such folder (${missing})`);
    expect(existsSync(missing)).toBe(false);
    expect(requestsOfThisRun()).toHaveLength(0);
  });

  it('keeps run folders out of git and out of fs.search', async () => {
    runner.enqueue(answerTurn('First run.'));
    expect((await runCli(['ask', 'Remember the word zebra', ...endpoint()], { cwd: project })).code).toBe(0);
    expect(await readFile(path.join(project, '.spine', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    runner.enqueue(toolCallTurn('fs_search', { query: 'zebra', path: '@project' }), answerTurn('None.'));
    const run = await runCli(['ask', 'Search', ...endpoint(), '--project', project]);
    expect(run.code).toBe(0);
    // The first run's turns.jsonl holds "zebra", but .spine is ignored like any git-ignored folder.
    expect(sentToolResults(runner.requests.at(-1))[0]).toMatchObject({ ok: true, matches: [] });
  });

  it('names a --tools-module whose default export is not a list of tools, before any request', async () => {
    await writeFile(path.join(project, 'bad.mjs'), 'export default { name: "x" };\n');
    const run = await runCli(['ask', 'Hi', ...endpoint(), '--tools-module', 'bad.mjs'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'CONFIG_INVALID: --tools-module bad.mjs: the default export must be an array of tool definitions, got an object',
    );
    expect(requestsOfThisRun()).toHaveLength(0);
  });
});

/** The run folder as the CLI names it (the temp folder may sit behind a symlink such as /tmp). */
async function realRunDir(project: string, runId: string): Promise<string> {
  const runDir = path.join(project, '.spine', 'runs', runId);
  expect(existsSync(runDir)).toBe(true);
  return runDir;
}
