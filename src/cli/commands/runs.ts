import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { runsFolder } from '../../engine/run-folder.js';
import { formatTable } from '../format-table.js';
import { reportError } from '../report-error.js';

export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description('list the workflow runs of a project: id, workflow, phase, node, steps done, last update')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--json', 'print the run records as a JSON array')
    .action(async (flags: { project?: string; json?: boolean }) => {
      try {
        // Loaded when the command runs: `spine --help` lists every command without loading them.
        const { listRuns } = await import('../../workflow/run/list-runs.js');
        const { isRunLockLive } = await import('../../workflow/run/run-lock.js');
        const project = resolve(flags.project ?? '.');
        const records = await listRuns(project);
        // A record left `running` by a process that is gone is a run to resume, not a live one.
        const runs = records.map((record) => ({
          ...record,
          phase:
            record.phase === 'running' && !isRunLockLive(join(runsFolder(project), record.runId))
              ? ('interrupted' as const)
              : record.phase,
        }));
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(runs)}\n`);
          return;
        }
        if (runs.length === 0) {
          process.stdout.write('no workflow runs in this project\n');
          return;
        }
        const rows = runs.map((run) => [
          run.runId,
          run.workflowId,
          run.phase,
          run.currentNodeId,
          String(run.stepsDone),
          run.updatedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
        ]);
        process.stdout.write(
          `${formatTable(['RUN', 'WORKFLOW', 'PHASE', 'NODE', 'STEPS', 'UPDATED'], rows)}\n`,
        );
      } catch (error) {
        reportError(error, Boolean(flags.json));
      }
    });
}
