import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { markRunFolderSync, prepareSpineFolder, runsFolder } from '../../engine/run-folder.js';
import { newRunId } from '../../engine/run-id.js';
import { isProcessAlive } from '../../tools/fs/target-lock.js';
import { PromptComposer } from '../prompt/prompt-composer.js';
import { defaultToolPolicy, type EffectiveToolPolicy } from '../prompt/tool-policy.js';
import { initialStateDocument } from './initial-state.js';
import { acquireRunLock } from './run-lock.js';
import type { RunPackage } from './run-package.js';
import { type RunRecord, writeRunRecord } from './run-record.js';
import { WorkflowRun, type WorkflowRunOptions } from './workflow-run.js';
import { stateFileName } from './workflow-tools.js';

export interface CreateRunOptions extends WorkflowRunOptions {
  /** The project folder, mounted as `@project`; runs live in its `.spine/runs/`. */
  project: string;
  /** The agent the run starts with (default: the entry node's agent, else the first in agents.json). */
  agentId?: string;
  /** `@project` writable. */
  write?: boolean;
  autopilot?: boolean;
  /** The settings' tool policy, before each agent tightens it. */
  toolPolicy?: EffectiveToolPolicy;
}

/**
 * Creates a run of a package's selected workflow (docs/workflows.md §2.3) and returns it locked, ready to
 * pump. The run folder is built under a temporary name and renamed into place, so a run either exists whole —
 * state, record, marker — or not at all, whatever kills the process.
 */
export async function createRun(pkg: RunPackage, options: CreateRunOptions): Promise<WorkflowRun> {
  const project = resolve(options.project);
  await checkProject(project);
  const { graph } = pkg.workflow;
  const activeAgentId =
    options.agentId ??
    graph.nodes.find((node) => node.id === graph.entryNodeId)?.agentId ??
    pkg.agents[0]?.id ??
    '';
  const composer = new PromptComposer({
    agents: pkg.agents,
    activeAgentId,
    systemPolicy: options.toolPolicy ?? defaultToolPolicy,
    workflow: {
      id: pkg.workflow.id,
      graphPath: pkg.workflow.graphPath,
      graph,
      stepFiles: pkg.workflow.stepFiles,
    },
    autopilot: options.autopilot ?? false,
  });
  const now = new Date();
  const runId = newRunId(now);
  const stateText = initialStateDocument({
    template: pkg.workflow.template,
    runId,
    workflowId: pkg.workflow.id,
    activeAgentId,
    entryNodeId: graph.entryNodeId,
    now,
  });
  const record: RunRecord = {
    version: 1,
    runId,
    package: { source: pkg.source, ...(pkg.sha256 ? { sha256: pkg.sha256 } : {}) },
    workflowId: pkg.workflow.id,
    activeAgentId,
    autopilot: options.autopilot ?? false,
    write: options.write ?? false,
    phase: 'waiting-user',
    currentNodeId: graph.entryNodeId,
    stepsDone: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  prepareSpineFolder(project);
  const runs = runsFolder(project);
  const runDir = join(runs, runId);
  await removeAbandonedRunFolders(runs);
  const building = join(runs, `.creating-${process.pid}-${runId}`);
  try {
    markRunFolderSync(building);
    await writeFile(join(building, stateFileName), stateText);
    await writeRunRecord(building, record);
    await rename(building, runDir);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  if (record.write) await mkdir(join(project, 'artifacts'), { recursive: true });
  const lock = acquireRunLock(runDir, runId);
  try {
    return new WorkflowRun({
      runId,
      runDir,
      project,
      pkg,
      record,
      composer,
      lock,
      firstIntent: 'start',
      options,
    });
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Run folders whose creation a killed process never finished: never a run, safe to remove. */
async function removeAbandonedRunFolders(runs: string): Promise<void> {
  const names = await readdir(runs).catch(() => [] as string[]);
  for (const name of names) {
    const owner = /^\.creating-(\d+)-/.exec(name);
    if (owner !== null && !isProcessAlive(Number(owner[1])))
      await rm(join(runs, name), { recursive: true, force: true });
  }
}

async function checkProject(project: string): Promise<void> {
  const stats = await stat(project).catch(() => undefined);
  if (stats?.isDirectory() !== true) {
    throw new SpineError({
      code: 'PROJECT_ROOT_INVALID',
      message: `the project folder ${project} does not exist or is not a folder`,
      details: { project },
    });
  }
}
