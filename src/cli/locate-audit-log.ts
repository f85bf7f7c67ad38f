import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SpineError } from '../core/spine-error.js';
import { auditLogFileName, runsFolder } from '../engine/run-folder.js';

/**
 * The audit log `spine audit RUN` means: a path to an `audit.jsonl` or to a run folder, else a run id under
 * `<project>/.spine/runs`. Throws `ENOENT` naming every place it looked.
 */
export async function locateAuditLog(
  run: string,
  options: { project: string; cwd: string },
): Promise<string> {
  const asPath = resolve(options.cwd, run);
  const pathKind = await kindOf(asPath);
  if (pathKind === 'file') return asPath;
  if (pathKind === 'folder') return join(asPath, auditLogFileName);
  const looked = [asPath];
  // A run id is one plain name; anything with a separator was meant as a path.
  if (!/[\\/]/.test(run) && run !== '.' && run !== '..') {
    const runDir = join(runsFolder(options.project), run);
    if ((await kindOf(runDir)) === 'folder') return join(runDir, auditLogFileName);
    looked.push(runDir);
  }
  throw new SpineError({
    code: 'ENOENT',
    message: `no run or audit log "${run}" (looked at ${looked.join(' and ')})`,
    details: { looked },
  });
}

/** The run ids under a project's runs folder, oldest first (ids sort by start time). */
export async function listRunIds(project: string): Promise<string[]> {
  const entries = await readdir(runsFolder(project), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The run folder `RUN` means: a path to a run folder, else a run id under `<project>/.spine/runs`. Throws
 * `ENOENT` naming every place it looked.
 */
export async function locateRunFolder(
  run: string,
  options: { project: string; cwd: string },
): Promise<string> {
  const asPath = resolve(options.cwd, run);
  if ((await kindOf(asPath)) === 'folder') return asPath;
  const looked = [asPath];
  if (!/[\\/]/.test(run) && run !== '.' && run !== '..') {
    const runDir = join(runsFolder(options.project), run);
    if ((await kindOf(runDir)) === 'folder') return runDir;
    looked.push(runDir);
  }
  throw new SpineError({
    code: 'ENOENT',
    message: `no run "${run}" (looked at ${looked.join(' and ')})`,
    details: { looked },
  });
}

async function kindOf(path: string): Promise<'file' | 'folder' | undefined> {
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) return undefined;
  return found.isDirectory() ? 'folder' : 'file';
}
