import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { followBrief } from './brief-following-model.js';

// The README's walk-through of the example package, through the CLI: validate, run, list.
const examplePackage = resolve('examples/release-notes');
const sampleProject = resolve('examples/sample-project');

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

describe('the example package', () => {
  it('validates clean', async () => {
    const result = await runCli(['validate', examplePackage]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('ok: release-notes 1.0.0: release-notes (6 nodes, 6 edges)\n');
  });

  it('runs on the sample project to Completed, along the breaking branch, with every artifact written', async () => {
    const project = mkdtempSync(join(tmpdir(), 'spine-example-'));
    cpSync(sampleProject, project, { recursive: true });
    runner.enqueue(...Array.from({ length: 30 }, () => followBrief));
    const run = await runCli(
      [
        'run',
        examplePackage,
        '--project',
        project,
        '--write',
        '--autopilot',
        '--json',
        '--base-url',
        runner.baseUrl,
        '--model',
        'm',
      ],
      { cwd: project },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      phase: 'Completed',
      state: {
        stepsCompleted: [
          'step-01-gather',
          'decide-02-audience',
          'step-03a-migration',
          'step-04-notes',
          'end-99',
        ],
        decisionLog: [{ from: 'decide-02-audience', to: 'step-03a-migration', label: 'breaking' }],
        artifacts: [
          'artifacts/release/changes.md',
          'artifacts/release/migration.md',
          'artifacts/release/RELEASE_NOTES.md',
          'artifacts/release/summary.md',
        ],
      },
    });
    for (const artifact of result.state.artifacts) expect(existsSync(join(project, artifact))).toBe(true);
    // The persona follows the node's agent: the scribe gathers, the editor decides.
    const personas = runner.requests.map(
      (request) => /You are (\w+) \(/.exec(JSON.stringify(request.body))?.[1],
    );
    expect(personas[0]).toBe('Ines');
    expect(personas).toContain('Tomas');
    // The scribe's own read limit is the policy it is told about.
    expect(JSON.stringify(runner.requests[0]!.body)).toContain('maxReadBytes=262144');
  });

  it('a broken copy fails validation with every problem listed, and never starts a run', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'spine-example-broken-'));
    cpSync(examplePackage, copy, { recursive: true });
    const graphPath = join(copy, 'workflow.graph.json');
    const graph = JSON.parse(readFileSync(graphPath, 'utf8'));
    graph.edges.push({ from: 'end-99', to: 'nowhere', label: 'lost' });
    graph.nodes[1].file = '../outside.md';
    writeFileSync(graphPath, JSON.stringify(graph));
    writeFileSync(
      join(copy, 'steps/end-99.md'),
      '---\nschemaVersion: "1.1"\nnodeId: end-98\ntype: end\n---\n',
    );
    const validated = await runCli(['validate', copy]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain('workflow.graph.json#/edges/6/to  PKG_EDGE_UNKNOWN_NODE');
    expect(validated.stdout).toContain('workflow.graph.json#/nodes/1/file  PKG_PATH_OUTSIDE_PACKAGE');
    expect(validated.stdout).toContain('steps/end-99.md#/nodeId  PKG_STEP_NODE_ID_MISMATCH');
    expect(validated.stdout).toContain('3 problems in release-notes 1.0.0');
    const project = mkdtempSync(join(tmpdir(), 'spine-example-'));
    const run = await runCli([
      'run',
      copy,
      '--project',
      project,
      '--base-url',
      runner.baseUrl,
      '--model',
      'm',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^PACKAGE_INVALID: /m);
    expect(runner.requests).toHaveLength(0);
    expect(existsSync(join(project, '.spine/runs'))).toBe(false);
  });
});
