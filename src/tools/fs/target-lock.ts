import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readFile, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fsError, isErrnoCode } from './fs-failure.js';
import { childPath, type OpenDirectory } from './sandbox-walk.js';

const draftFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** How long a writer waits for another one before giving up. */
const lockWaitMs = 10_000;
/** A lock this old is left over, whoever wrote it (a process id can be reused after a crash). */
const staleLockMs = 10 * 60_000;

/** The name of the lock beside a file; ends in `.spine-lock` so it is recognised as Spine's own. */
export function lockNameFor(name: string): string {
  return `.${name.slice(0, 80)}.spine-lock`;
}

/**
 * Holds `<folder>/.<name>.spine-lock` while `task` runs: a file created with O_EXCL, holding the writer's process
 * id, so writers in other processes (another Spine, a second agent on the same project) take turns on one file.
 * A check of the current content and the rename that replaces it therefore happen as one step against every
 * other Spine writer. A lock whose process is gone, or that is very old, is taken over.
 */
export async function withTargetLock<T>(
  directory: OpenDirectory,
  name: string,
  display: string,
  task: () => Promise<T>,
): Promise<T> {
  const lockPath = childPath(directory, lockNameFor(name));
  // The lock is written whole under a private name and then linked into place: link() fails if the lock exists,
  // and a lock never exists without the process id in it, even when its writer is killed half way.
  const draftPath = childPath(
    directory,
    `${lockNameFor(name)}.${process.pid}-${randomBytes(6).toString('hex')}.spine-tmp`,
  );
  const draft = await open(draftPath, draftFlags, 0o600);
  try {
    await draft.writeFile(String(process.pid));
  } finally {
    await draft.close();
  }
  const started = Date.now();
  try {
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        await link(draftPath, lockPath);
        break;
      } catch (error) {
        if (!isErrnoCode(error, 'EEXIST')) throw error;
      }
      if (await isStale(lockPath)) {
        await unlink(lockPath).catch(() => undefined);
        continue;
      }
      if (Date.now() - started > lockWaitMs) {
        throw fsError('E_LOCKED', `${display} is being written by another process; try again`, {
          path: display,
          waitedMs: Date.now() - started,
        });
      }
      await sleep(wait);
    }
  } finally {
    await unlink(draftPath).catch(() => undefined);
  }
  try {
    return await task();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [content, stats] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    if (Date.now() - stats.mtimeMs > staleLockMs) return true;
    const pid = Number(content);
    if (!Number.isInteger(pid) || pid <= 0) return true;
    return !isProcessAlive(pid);
  } catch (error) {
    // Gone already: the next attempt will find out.
    if (isErrnoCode(error, 'ENOENT')) return false;
    throw error;
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrnoCode(error, 'EPERM');
  }
}
