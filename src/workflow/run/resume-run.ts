import { join, resolve } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { runsFolder } from '../../engine/run-folder.js';
import { PromptComposer } from '../prompt/prompt-composer.js';
import { defaultToolPolicy, type EffectiveToolPolicy } from '../prompt/tool-policy.js';
import { acquireRunLock } from './run-lock.js';
import type { PackageOpener } from './run-package.js';
import { readRunRecord } from './run-record.js';
import { sweepTemporaries } from './sweep-temporaries.js';
import { WorkflowRun, type WorkflowRunOptions } from './workflow-run.js';

export interface ResumeRunOptions extends WorkflowRunOptions {
  project: string;
  /** Opens the run's package again from the source its record names. */
  openPackage: PackageOpener;
  toolPolicy?: EffectiveToolPolicy;
}

/**
 * Reopens a run that is not running (docs/workflows.md §4.5). Its position comes from `@state/workflow.md` and
 * the graph alone; the conversation log, when readable, is context. A lock left by a killed process is taken
 * over; what killed writers left behind (temporary files) is removed first.
 */
export async function resumeRun(runId: string, options: ResumeRunOptions): Promise<WorkflowRun> {
  const project = resolve(options.project);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(runId)) {
    throw new SpineError({
      code: 'RUN_NOT_FOUND',
      message: `"${runId}" is not a run id`,
      details: { runId },
    });
  }
  const runDir = join(runsFolder(project), runId);
  const record = await readRunRecord(runDir);
  const lock = acquireRunLock(runDir, runId);
  try {
    await sweepTemporaries(runDir);
    await sweepTemporaries(join(project, 'artifacts'));
    const pkg = await options.openPackage(record.package.source, record.workflowId);
    const composer = new PromptComposer({
      agents: pkg.agents,
      activeAgentId: record.activeAgentId,
      systemPolicy: options.toolPolicy ?? defaultToolPolicy,
      workflow: {
        id: pkg.workflow.id,
        graphPath: pkg.workflow.graphPath,
        graph: pkg.workflow.graph,
        stepFiles: pkg.workflow.stepFiles,
      },
      autopilot: record.autopilot,
    });
    return new WorkflowRun({
      runId,
      runDir,
      project,
      pkg,
      record,
      composer,
      lock,
      firstIntent: 'resume',
      options,
    });
  } catch (error) {
    lock.release();
    throw error;
  }
}
