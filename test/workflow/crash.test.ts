import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsFolder } from '../../src/engine/run-folder.js';
import { listRuns } from '../../src/workflow/run/list-runs.js';
import { readRunState } from '../../src/workflow/run/run-state-file.js';
import type { WorkflowGraph } from '../../src/workflow/workflow-types.js';
import { spawnCli } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { autopilotAnswer, digestArtifacts } from './autopilot-model.js';
import { digestPackage } from './workflow-test-kit.js';

// The crash suite of issue 11: SIGKILL the CLI at random moments of a scripted multi-step run (during model
// calls, tool runs, state writes), then resume until the run completes. Every run must end in the same state
// and artifacts as an uninterrupted one. CI runs a short version; `npm run crash-test` runs 100 kills.
const kills = Number(process.env.SPINE_CRASH_KILLS ?? 8);
const seed = Number(process.env.SPINE_CRASH_SEED ?? Date.now() % 100_000);
const graph = JSON.parse(readFileSync(join(digestPackage, 'workflow.graph.json'), 'utf8')) as WorkflowGraph;

let runner: FakeRunner;
beforeAll(async () => {
  runner = await startFakeRunner();
  runner.enqueue(...Array.from({ length: 20_000 }, () => autopilotAnswer));
});
afterAll(async () => {
  await runner.close();
});

const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'fake-model', '--max-retries', '0'];

function newProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'spine-crash-'));
  mkdirSync(join(project, 'notes'));
  writeFileSync(join(project, 'notes/a.md'), 'Alpha\n');
  return project;
}

/** A small deterministic generator (mulberry32): a failing seed can be replayed with SPINE_CRASH_SEED. */
function random(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function runId(project: string): Promise<string | undefined> {
  return (await listRuns(project))[0]?.runId;
}

function commandFor(project: string, id: string | undefined): string[] {
  const common = ['--project', project, '--json', ...endpoint()];
  return id === undefined
    ? ['run', digestPackage, '--write', '--autopilot', ...common]
    : ['resume', id, ...common];
}

interface Outcome {
  state: ReturnType<typeof readRunState>;
  files: Record<string, string>;
}

function outcomeOf(project: string, id: string): Outcome {
  const state = readRunState(join(runsFolder(project), id), graph);
  const files = Object.fromEntries(
    digestArtifacts.map((path) => [path, readFileSync(join(project, path), 'utf8')]),
  );
  return { state, files };
}

/** What must be equal between runs: everything but the run's own id and times. */
function comparable(outcome: Outcome) {
  const { runId: _id, updatedAt: _at, ...frontmatter } = outcome.state.frontmatter;
  return { frontmatter, files: outcome.files };
}

function leftovers(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.name.endsWith('.spine-tmp') || entry.name.startsWith('.creating-') || entry.name === 'run.lock')
      found.push(join(entry.parentPath, entry.name));
  }
  return found;
}

async function finish(project: string): Promise<string> {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const id = await runId(project);
    const cli = spawnCli(commandFor(project, id), { cwd: project });
    const code = await cli.exited;
    const line = cli.stdout.trim().split('\n').at(-1) ?? '';
    if (code === 0 && line.includes('"phase":"Completed"')) return JSON.parse(line).runId as string;
    if (code !== 0) throw new Error(`exit ${code}: ${cli.stderr}`);
  }
  throw new Error('the run did not complete in four resumes');
}

describe('crash safety of workflow runs', () => {
  it(
    `${kills} SIGKILLs at random moments; every run resumes to the uninterrupted run's state and artifacts`,
    async () => {
      const referenceProject = newProject();
      const started = Date.now();
      const referenceId = await finish(referenceProject);
      const lifetime = Date.now() - started;
      const reference = comparable(outcomeOf(referenceProject, referenceId));
      expect(reference.frontmatter).toMatchObject({ variables: { workflowStatus: 'complete' } });

      const next = random(seed);
      let done = 0;
      let trials = 0;
      let finishedBeforeKill = 0;
      let killedBeforeRun = 0;
      while (done < kills) {
        trials += 1;
        const project = newProject();
        const killsThisRun = 1 + Math.floor(next() * 3);
        for (let k = 0; k < killsThisRun && done < kills; k += 1) {
          const id = await runId(project);
          if (id === undefined && k > 0) killedBeforeRun += 1;
          const cli = spawnCli(commandFor(project, id), { cwd: project });
          // Anywhere in the process's life: start-up, model calls, tool runs, state writes.
          const delay = lifetime * (0.4 + next() * 0.7);
          const exited = await Promise.race([
            cli.exited.then(() => true),
            new Promise<false>((resolve) => setTimeout(() => resolve(false), delay)),
          ]);
          if (exited) {
            finishedBeforeKill += 1;
            continue;
          }
          cli.child.kill('SIGKILL');
          await cli.exited;
          done += 1;
          const killedId = await runId(project);
          // After every kill the state file parses and is a valid state on the graph.
          if (killedId !== undefined)
            expect(() => readRunState(join(runsFolder(project), killedId), graph)).not.toThrow();
        }
        const id = await finish(project);
        const outcome = outcomeOf(project, id);
        expect(comparable(outcome), `seed ${seed}, trial ${trials}`).toEqual(reference);
        expect(new Set(outcome.state.artifacts).size).toBe(outcome.state.artifacts.length);
        expect(leftovers(project), `seed ${seed}, trial ${trials}`).toEqual([]);
        expect(existsSync(join(project, 'artifacts/digest/summary.md'))).toBe(true);
      }
      process.stdout.write(
        `crash suite: ${done} kills over ${trials} runs (seed ${seed}); ${finishedBeforeKill} processes ended before their kill, ${killedBeforeRun} kills came before the run existed; uninterrupted run ${lifetime} ms; every run ended in the reference state\n`,
      );
    },
    kills * 6_000 + 60_000,
  );
});
