import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { runsFolder } from '../../engine/run-folder.js';
import { readAuditLog } from '../../tools/audit-log-reader.js';
import { formatAuditLog } from '../../tools/format-audit-log.js';
import { listRunIds, locateAuditLog } from '../locate-audit-log.js';
import { reportError } from '../report-error.js';

interface AuditFlags {
  project?: string;
  json?: boolean;
}

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description("print a run's tool audit log; without RUN, list the runs")
    .argument('[run]', 'a run id under <project>/.spine/runs, a run folder, or an audit.jsonl file')
    .option('--project <dir>', 'the project whose runs to look in (default: the current folder)')
    .option('--json', 'print {path, entries, warnings} as one JSON object')
    .action(async (run: string | undefined, flags: AuditFlags) => {
      try {
        const cwd = process.cwd();
        const project = resolve(cwd, flags.project ?? '.');
        if (run === undefined) await printRunList(project, Boolean(flags.json));
        else await printAuditLog(await locateAuditLog(run, { project, cwd }), Boolean(flags.json));
      } catch (error) {
        reportError(error, Boolean(flags.json));
      }
    });
}

async function printAuditLog(path: string, json: boolean): Promise<void> {
  const { entries, warnings } = await readAuditLog(path);
  // Skipped lines are reported, never fatal: a crash may tear the last line and the rest is still good.
  for (const warning of warnings) process.stderr.write(`warning: ${path}: ${warning}\n`);
  if (json) {
    process.stdout.write(`${JSON.stringify({ path, entries, warnings })}\n`);
    return;
  }
  if (entries.length === 0) {
    const exists = await access(path).then(
      () => true,
      () => false,
    );
    process.stderr.write(
      exists ? `${path}: no tool calls recorded\n` : `${path} does not exist: the run made no tool call\n`,
    );
    return;
  }
  for (const line of formatAuditLog(entries)) process.stdout.write(`${line}\n`);
}

async function printRunList(project: string, json: boolean): Promise<void> {
  const runs = await listRunIds(project);
  if (json) process.stdout.write(`${JSON.stringify({ runs })}\n`);
  else if (runs.length === 0) process.stderr.write(`no runs under ${runsFolder(project)}\n`);
  else for (const run of runs) process.stdout.write(`${run}\n`);
}
