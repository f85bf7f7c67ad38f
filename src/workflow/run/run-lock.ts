import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { isProcessAlive } from '../../tools/fs/target-lock.js';

export const runLockFileName = 'run.lock';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

// Locks this process holds: a second engine on the same run in this process is refused too.
const heldHere = new Set<string>();

/** A held run lock; `release` is idempotent and also runs when the process exits normally. */
export interface RunLock {
  release(): void;
}

/**
 * One engine per run: takes `run.lock` in the run folder, created exclusively. A lock whose process is gone
 * (killed, crashed) on this host is taken over; a live one is `RUN_LOCKED`, naming its owner.
 */
export function acquireRunLock(runDir: string, runId: string): RunLock {
  const path = join(runDir, runLockFileName);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, `${JSON.stringify(owner)}\n`);
      } finally {
        closeSync(fd);
      }
      return holdLock(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readOwner(path);
    if (holder !== undefined && isLive(holder, path)) {
      throw new SpineError({
        code: 'RUN_LOCKED',
        message: `run ${runId} is in use by process ${holder.pid} since ${holder.since}; wait for it to stop, or stop it`,
        details: { runId, pid: holder.pid, host: holder.host, since: holder.since },
      });
    }
    // Left by a process that no longer runs (or torn by a kill mid-write): take it over.
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new SpineError({
    code: 'RUN_LOCKED',
    message: `run ${runId}: another process keeps taking its lock`,
    details: { runId },
  });
}

function holdLock(path: string): RunLock {
  let held = true;
  heldHere.add(path);
  const release = () => {
    if (!held) return;
    held = false;
    heldHere.delete(path);
    process.off('exit', release);
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
  process.on('exit', release);
  return { release };
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host, since: String(owner.since ?? '') }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A lock from another host cannot be checked: it counts as live. */
function isLive(owner: LockOwner, path: string): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return heldHere.has(path);
  return isProcessAlive(owner.pid);
}

/** Whether a live process holds the run's lock (a `running` record without one was interrupted). */
export function isRunLockLive(runDir: string): boolean {
  const path = join(runDir, runLockFileName);
  const owner = readOwner(path);
  return owner !== undefined && isLive(owner, path);
}
