import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerTurn, runCli, sentToolResults, toolCallTurn } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { makeSkillsFolder } from './skills-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'fake-model', '--max-retries', '0'];

describe('skills through the CLI', () => {
  it('the spec’s flow: list → get → run → answer for "compute 25 * 4", each call shown live', async () => {
    const skills = makeSkillsFolder();
    const project = mkdtempSync(join(tmpdir(), 'spine-skills-project-'));
    runner.enqueue(
      toolCallTurn('list_skills', {}, 'call_1'),
      toolCallTurn('get_skill', { skill_name: 'calculator' }, 'call_2'),
      toolCallTurn(
        'run_python_script',
        { skill_name: 'calculator', script: 'result = 25 * 4\nprint(result)' },
        'call_3',
      ),
      answerTurn('25 * 4 = 100'),
    );
    const run = await runCli(
      ['ask', 'compute 25 * 4', '--skills', skills, '--project', project, ...endpoint()],
      {
        cwd: project,
      },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('25 * 4 = 100');
    // The tools were offered, called in turn, and each result went back to the model.
    const offered = (runner.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools.map(
      (tool) => tool.function.name,
    );
    expect(offered).toEqual(expect.arrayContaining(['list_skills', 'get_skill', 'run_python_script']));
    expect(sentToolResults(runner.requests[1])).toEqual([
      { ok: true, skills: [{ name: 'calculator', description: 'Basic arithmetic with Python' }] },
    ]);
    expect(sentToolResults(runner.requests[3]).at(-1)).toEqual(
      expect.objectContaining({
        ok: true,
        skill_name: 'calculator',
        stdout: '100\n',
        returncode: 0,
        timed_out: false,
      }),
    );
    expect(run.stderr).toContain('→ list_skills {}');
    expect(run.stderr).toContain('→ run_python_script {"skill_name":"calculator"');
    expect(run.stderr).toMatch(/← ok .*stdout=100/);
  });

  it('skills: in spine.yaml is read relative to the file, and spine skills list names each problem', async () => {
    const project = mkdtempSync(join(tmpdir(), 'spine-skills-config-'));
    const skills = makeSkillsFolder({ nodesc: '---\nname: nodesc\n---\n' });
    writeFileSync(
      join(project, 'spine.yaml'),
      `models:\n  default:\n    id: fake-model\n    endpoint: ${runner.baseUrl}\nskills:\n  - ${skills}\n`,
    );
    const listed = await runCli(['skills', 'list'], { cwd: project });
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/calculator\s+Basic arithmetic with Python/);
    expect(listed.stdout).toContain(
      `problem: ${join(skills, 'nodesc/SKILL.md')}: no description: the model picks skills by it`,
    );
    expect(listed.stdout).toMatch(/scripts run (inside bubblewrap|WITHOUT a sandbox)/);
  });
});
