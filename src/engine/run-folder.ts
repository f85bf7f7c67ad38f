import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runFolderMarker } from '../tools/fs/hidden-entries.js';

/** Where runs live inside a project: `<project>/.spine/runs/<run id>`. */
export function runsFolder(project: string): string {
  return join(resolve(project), '.spine', 'runs');
}

/** The run folder: `--run-dir` when given (relative to `cwd`), else under the project's runs folder. */
export function resolveRunDir(options: {
  runDir?: string | undefined;
  project: string;
  runId: string;
  cwd: string;
}): string {
  if (options.runDir !== undefined) return resolve(options.cwd, options.runDir);
  return join(runsFolder(options.project), options.runId);
}

/**
 * Creates `<project>/.spine` with a `.gitignore` of `*` (as pytest and mypy do with their caches): run records
 * stay out of commits, and `fs.search` / `fs.list`, which honour .gitignore, do not wander through earlier
 * runs' transcripts.
 */
export function prepareSpineFolder(project: string): void {
  const folder = join(resolve(project), '.spine');
  mkdirSync(folder, { recursive: true });
  try {
    writeFileSync(join(folder, '.gitignore'), '# Spine run records: turns, audit logs, state\n*\n', {
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Creates the run folder with its marker now, before any tool runs (see `markRunFolder`). */
export function markRunFolderSync(runDir: string): void {
  mkdirSync(runDir, { recursive: true });
  try {
    writeFileSync(join(runDir, runFolderMarker), 'A Spine run record: hidden from the tools.\n', {
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export const auditLogFileName = 'audit.jsonl';
