import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCliInTerminal } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { autopilotAnswer, digestArtifacts } from './autopilot-model.js';
import { firstPump, s01, secondPump, storyKey } from './reference-run-script.js';
import { digestPackage, makeReferenceProject, referencePackage } from './workflow-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'fake-model', '--max-retries', '0'];

function digestProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'spine-wf-cli-'));
  mkdirSync(join(project, 'notes'));
  writeFileSync(join(project, 'notes/a.md'), 'Alpha\n');
  return project;
}

describe('spine run, runs and resume', () => {
  it('spine run drives a package to Completed and shows each node change and tool call live', async () => {
    const project = digestProject();
    runner.enqueue(...Array.from({ length: 20 }, () => autopilotAnswer));
    const run = await runCli(
      ['run', digestPackage, '--project', project, '--write', '--autopilot', '--json', ...endpoint()],
      { cwd: project },
    );
    expect(run.stderr).not.toMatch(/E_INTERNAL/);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      phase: 'Completed',
      currentNodeId: 'end-99',
      state: {
        stepsCompleted: ['step-01-collect', 'decide-02-length', 'step-03b-long', 'end-99'],
        artifacts: digestArtifacts,
        decisionLog: [{ from: 'decide-02-length', to: 'step-03b-long', label: 'long' }],
      },
    });
    for (const artifact of digestArtifacts) expect(existsSync(join(project, artifact))).toBe(true);
    expect(run.stderr).toContain('→ fs.write {"path":"@project/artifacts/digest/collected.md"');
    expect(run.stderr).toContain('◆ at decide-02-length (1 of 5 steps done');
    expect(run.stderr).toContain('◆ workflow complete (4 of 5 steps done, 4 artifacts)');

    const listed = await runCli(['runs', '--project', project], { cwd: project });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${result.runId}\\s+notes-digest\\s+completed\\s+end-99\\s+4`));
    const audit = readFileSync(join(project, '.spine/runs', result.runId, 'audit.jsonl'), 'utf8');
    expect(audit.trim().split('\n').length).toBeGreaterThanOrEqual(8);
  });

  it('without a terminal, a run waiting for the user exits with its state; spine resume --input goes on', async () => {
    const project = makeReferenceProject();
    runner.enqueue(...firstPump());
    const first = await runCli(
      ['run', referencePackage, '--project', project, '--write', '--autopilot', '--json', ...endpoint()],
      { cwd: project },
    );
    expect(first.code).toBe(0);
    const waiting = JSON.parse(first.stdout);
    expect(waiting).toMatchObject({ phase: 'WaitingUser', currentNodeId: s01 });
    expect(waiting.assistantText).toContain(storyKey);
    expect(first.stderr).toContain(`spine resume ${waiting.runId} --input`);

    runner.enqueue(...secondPump());
    const resumed = await runCli(
      ['resume', waiting.runId, '--project', project, '--input', storyKey, '--json', ...endpoint()],
      { cwd: project },
    );
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ phase: 'Completed', currentNodeId: 'end-99' });
  });

  it('names a missing run and a package that is not one', async () => {
    const project = digestProject();
    const missing = await runCli(['resume', 'no-such-run', '--project', project, ...endpoint()], {
      cwd: project,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^RUN_NOT_FOUND: /m);
    const empty = await runCli(['runs', '--project', project], { cwd: project });
    expect(empty.stdout).toBe('no workflow runs in this project\n');
  });
});

describe('spine run on a terminal', () => {
  it('prompts at WaitingUser and goes on with the answer as USER_INPUT', async () => {
    const project = makeReferenceProject();
    runner.enqueue(...firstPump(), ...secondPump());
    const cli = spawnCliInTerminal(
      ['run', referencePackage, '--project', project, '--write', '--autopilot', ...endpoint()],
      { cwd: project },
    );
    await cli.waitForStdout(/you> /, 20_000);
    expect(cli.stdout).toContain(`Which story should I prepare? For example: ${storyKey}`);
    cli.child.stdin.write(`${storyKey}\n`);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout).toMatch(/run \S+: Completed at end-99 \(6 steps done\)/);
    expect(runner.requests).toHaveLength(10);
    const answer = (runner.requests[2]!.body as { messages: Array<{ content: string }> }).messages.at(-1);
    expect(answer?.content).toBe(`USER_INPUT\n- forNodeId: ${s01}\n${storyKey}`);
  });
});
