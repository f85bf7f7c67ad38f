import { randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import { childPath, type OpenDirectory } from './sandbox-walk.js';
import { isProcessAlive } from './target-lock.js';

// `.<name>.<pid>-<random>.spine-tmp`: the writer's process id says whether the file can still be in use.
const ownTemporary = /^\..*\.(\d+)-[0-9a-f]{12}\.spine-tmp$/;
// Names from before the process id was part of them, and locks (which hold it inside): judged by age.
const legacyTemporary = /^\..*\.[0-9a-f]{12}\.spine-tmp$/;
const legacyStaleMs = 10 * 60_000;

/** The temporary file a write goes through before its rename. */
export function temporaryNameFor(name: string): string {
  return `.${name.slice(0, 80)}.${process.pid}-${randomBytes(6).toString('hex')}.spine-tmp`;
}

/** A temporary file name whose writer process is gone: safe to remove. */
export function isOrphanedTemporary(name: string): boolean {
  const owner = ownTemporary.exec(name);
  return owner !== null && !isProcessAlive(Number(owner[1]));
}

/**
 * Removes what killed writers left in a folder: temporary files whose process is gone (or, for older names,
 * that are older than ten minutes). Called on the next write to the folder, under that file's lock; a
 * temporary of a live writer is never touched. Best effort: a failure here never fails the write.
 */
export async function removeStaleTemporaries(directory: OpenDirectory): Promise<void> {
  let names: string[];
  try {
    names = await readdir(childPath(directory, '.'));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.spine-tmp')) continue;
    const owner = ownTemporary.exec(name);
    if (owner !== null) {
      if (!isProcessAlive(Number(owner[1]))) await unlink(childPath(directory, name)).catch(() => undefined);
    } else if (legacyTemporary.test(name)) {
      const stats = await stat(childPath(directory, name)).catch(() => undefined);
      if (stats && Date.now() - stats.mtimeMs > legacyStaleMs)
        await unlink(childPath(directory, name)).catch(() => undefined);
    }
  }
}
