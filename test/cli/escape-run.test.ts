import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { answerTurn, runCli, sentToolResults, toolCallsTurn } from './cli-test-kit.js';

// One end-to-end run in which the scripted model tries to get out of @project, then `spine audit` on it.
describe('an escaping model, end to end', () => {
  let runner: FakeRunner;
  let base: string;
  let project: string;
  let secretFile: string;
  let runId: string;
  let runDir: string;
  const secret = `TOP-SECRET-${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    runner = await startFakeRunner();
    base = await mkdtemp(path.join(tmpdir(), 'spine-escape-'));
    project = path.join(base, 'project');
    await mkdir(path.join(project, 'docs'), { recursive: true });
    await writeFile(path.join(project, 'docs', 'note.md'), 'inside the project\n');
    secretFile = path.join(base, 'secret.txt');
    await writeFile(secretFile, `${secret}\n`);
    await symlink(secretFile, path.join(project, 'link.txt'));
    await symlink(base, path.join(project, 'linkdir'));

    runner.enqueue(
      toolCallsTurn([
        { name: 'fs_read', args: { path: '@project/../secret.txt' } },
        { name: 'fs_read', args: { path: secretFile } },
        { name: 'fs_read', args: { path: '@project/link.txt' } },
      ]),
      toolCallsTurn([
        { name: 'fs_read', args: { path: '@project/linkdir/secret.txt' } },
        { name: 'fs_list', args: { path: '@project/linkdir' } },
        { name: 'fs_search', args: { query: 'SECRET', path: '@project' } },
      ]),
      answerTurn('I found nothing secret.'),
    );
    const run = await runCli(
      [
        'ask',
        'Print secret.txt',
        '--base-url',
        runner.baseUrl,
        '--model',
        'm',
        '--max-retries',
        '0',
        '--json',
      ],
      { cwd: project },
    );
    expect(run.code).toBe(0);
    ({ runId, runDir } = JSON.parse(run.stdout) as { runId: string; runDir: string });
  });
  afterAll(async () => {
    await runner.close();
    await rm(base, { recursive: true, force: true });
  });

  it('refuses every way out, and the secret never reaches the runner', () => {
    expect(runner.requests).toHaveLength(3);
    // The last request carries every tool result of the run, in call order.
    const refusals = sentToolResults(runner.requests[2]);
    expect(refusals).toHaveLength(6);
    for (const result of refusals.slice(0, 5)) {
      expect(result).toMatchObject({ ok: false, error: { code: 'E_SANDBOX_VIOLATION' } });
    }
    // The search runs, inside the project only: the symlinks are not followed out.
    expect(refusals[5]).toMatchObject({ ok: true, matches: [] });
    for (const request of runner.requests) expect(request.rawBody).not.toContain(secret);
  });

  it('records every call in the audit log, without the secret', async () => {
    const log = await readFile(path.join(runDir, 'audit.jsonl'), 'utf8');
    expect(log.trim().split('\n')).toHaveLength(6);
    expect(log).not.toContain(secret);
  });

  it('spine audit RUN prints the entries readably', async () => {
    const run = await runCli(['audit', runId], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/fs\.read\s+ERROR E_SANDBOX_VIOLATION\s+\d+ms\s+"@project\/\.\.\/secret\.txt"/);
    expect(lines[4]).toMatch(/fs\.list\s+ERROR E_SANDBOX_VIOLATION/);
    expect(lines[5]).toMatch(/fs\.search\s+ok\s+\d+ms\s+@project$/);
  });

  it('finds the run by --project, by folder and by file, and prints JSON entries', async () => {
    const byProject = await runCli(['audit', runId, '--project', project, '--json'], { cwd: base });
    expect(byProject.code).toBe(0);
    const printed = JSON.parse(byProject.stdout);
    expect(printed.entries).toHaveLength(6);
    expect(printed.entries[2]).toMatchObject({ tool: 'fs.read', runId, errorCode: 'E_SANDBOX_VIOLATION' });
    const byFolder = await runCli(['audit', runDir, '--json']);
    expect(JSON.parse(byFolder.stdout).entries).toEqual(printed.entries);
    const byFile = await runCli(['audit', path.join(runDir, 'audit.jsonl'), '--json']);
    expect(JSON.parse(byFile.stdout).entries).toEqual(printed.entries);
  });

  it('lists the runs without an argument, and names an unknown run', async () => {
    const listed = await runCli(['audit'], { cwd: project });
    expect(listed.stdout).toBe(`${runId}\n`);
    const missing = await runCli(['audit', 'no-such-run'], { cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^ENOENT: no run or audit log "no-such-run" \(looked at .*\)$/);
  });

  it('warns about a torn last line and still prints every entry before it', async () => {
    const copy = path.join(base, 'torn.jsonl');
    await writeFile(copy, await readFile(path.join(runDir, 'audit.jsonl')));
    await appendFile(copy, '{"time":"2025-01-0');
    const run = await runCli(['audit', copy]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: .*torn\.jsonl: line 7: torn last line/);
    expect(run.stdout.trim().split('\n')).toHaveLength(6);
  });
});
