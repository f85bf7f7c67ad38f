import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import type { FsContext } from './fs-context.js';
import { fsError, sandboxViolation } from './fs-failure.js';
import type { ResolvedPath } from './resolve-mount-path.js';
import { isInside } from './resolve-mount-path.js';
import {
  childPath,
  hardLinkViolation,
  lstatChild,
  type OpenDirectory,
  openChildFile,
  openDirectoryChain,
  refuseNonRegular,
} from './sandbox-walk.js';
import { sha256Hex } from './sha256-hex.js';
import { removeStaleTemporaries, temporaryNameFor } from './stale-temporaries.js';
import { withTargetLock } from './target-lock.js';

export interface AtomicWriteOptions {
  context: FsContext;
  resolved: ResolvedPath;
  /** The new content, from the current one when `needsCurrentContent` (else, and for a new file, null). */
  produce(current: Buffer | null): Buffer;
  /** Patches read the current content (up to the scan limit); plain writes only hash it, streamed. */
  needsCurrentContent?: boolean;
  ifMatchSha256?: string;
  /** The file must exist already (patches); otherwise ENOENT. */
  mustExist?: boolean;
}

export interface AtomicWriteResult {
  bytesWritten: number;
  sha256Before: string | null;
  sha256After: string;
}

const locks = new Map<string, Promise<unknown>>();
const temporaryFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Replaces a file atomically: a temporary file in the same folder is written and fsynced, renamed over the
 * target (rename never follows a symlink at the target), and the folder fsynced, so after a crash the file
 * holds the old or the new content, never a mix. Writes to one path in this process are serialized, so an
 * `ifMatchSha256` check and the rename that follows it cannot interleave with another write.
 */
export async function writeFileAtomically(options: AtomicWriteOptions): Promise<AtomicWriteResult> {
  const { resolved } = options;
  checkWritable(options.context, resolved);
  const previous = locks.get(resolved.realPath) ?? Promise.resolve();
  const running = previous.catch(() => undefined).then(() => writeLocked(options));
  locks.set(resolved.realPath, running);
  try {
    return await running;
  } finally {
    if (locks.get(resolved.realPath) === running) locks.delete(resolved.realPath);
  }
}

function checkWritable(context: FsContext, resolved: ResolvedPath): void {
  const { display, mount, realSegments } = resolved;
  if (!mount.writable) {
    throw sandboxViolation(display, 'read-only-mount', `${mount.name} is read-only`, { mount: mount.name });
  }
  // A model writing .git/hooks or .git/config could run code outside the sandbox; the audit log must not be forged.
  const inProtectedFolder = context.protectedFolders.some((folder) => isInside(folder, resolved.realPath));
  if (realSegments.includes('.git') || context.protectedPaths.has(resolved.realPath) || inProtectedFolder) {
    throw sandboxViolation(display, 'protected-path', 'this path may not be written');
  }
  if (realSegments.length === 0) {
    throw fsError('ENOENT', `${display} is a folder, not a file`, { path: display, kind: 'folder' });
  }
}

async function writeLocked(options: AtomicWriteOptions): Promise<AtomicWriteResult> {
  const { context, resolved } = options;
  const { display, realSegments } = resolved;
  const name = realSegments.at(-1)!;
  const parents = realSegments.slice(0, -1);
  const directory = await openDirectoryChain(resolved.mount, parents, display, options.mustExist !== true);
  try {
    // Under the lock, the hash compared below is the content the rename replaces: no other Spine writer, in
    // this process or another, can slip a write in between.
    return await withTargetLock(directory, name, display, async () => {
      await removeStaleTemporaries(directory);
      const keepContent = options.needsCurrentContent === true ? context.limits.scanBytes : 0;
      const current = await inspectCurrent(directory, name, display, keepContent);
      if (current === null && options.mustExist)
        throw fsError('ENOENT', `no such file: ${display}`, { path: display });
      const sha256Before = current?.sha256 ?? null;
      if (options.ifMatchSha256 !== undefined && options.ifMatchSha256 !== sha256Before) {
        throw fsError(
          'E_PRECONDITION_FAILED',
          `${display} does not have the expected sha256 (it changed since it was read)`,
          { path: display, expected: options.ifMatchSha256, actual: sha256Before },
        );
      }
      const next = options.produce(current?.content ?? null);
      if (next.length > context.limits.writeBytes) {
        throw fsError(
          'E_WRITE_LIMIT',
          `${next.length} bytes is over the write limit of ${context.limits.writeBytes}`,
          { path: display, limit: context.limits.writeBytes, bytes: next.length },
        );
      }
      await replaceFile(directory, name, next, current?.mode ?? 0o666);
      return { bytesWritten: next.length, sha256Before, sha256After: sha256Hex(next) };
    });
  } finally {
    await closeDirectory(directory);
  }
}

async function closeDirectory(directory: OpenDirectory): Promise<void> {
  await directory.handle.close();
}

interface CurrentFile {
  sha256: string;
  mode: number;
  /** The content, when the caller needs it to make the new one (patches). */
  content: Buffer | null;
}

const hashChunkBytes = 1 << 20;

/**
 * The file being replaced: its hash, streamed in 1 MiB pieces so a file of any size (over 2 GiB too) is hashed
 * without holding it in memory; its content only when `keepContent` bytes allow (0: never kept).
 */
async function inspectCurrent(
  directory: OpenDirectory,
  name: string,
  display: string,
  keepContent: number,
): Promise<CurrentFile | null> {
  const stats = await lstatChild(directory, name);
  if (stats === undefined) return null;
  refuseNonRegular(stats, display);
  if (stats.nlink > 1) throw hardLinkViolation(display, stats.nlink);
  const file = await openChildFile(directory, name, display, false);
  try {
    const size = file.stats.size;
    if (keepContent > 0 && size > keepContent) {
      throw fsError(
        'E_READ_LIMIT',
        `${display} is ${size} bytes, over the ${keepContent}-byte limit for a patch`,
        {
          path: display,
          bytes: size,
          limit: keepContent,
        },
      );
    }
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(Math.min(hashChunkBytes, Math.max(size, 1)));
    for (;;) {
      const { bytesRead } = await file.handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      if (keepContent > 0) kept.push(Buffer.from(buffer.subarray(0, bytesRead)));
    }
    return {
      sha256: hash.digest('hex'),
      mode: file.stats.mode & 0o777,
      content: keepContent > 0 ? Buffer.concat(kept) : null,
    };
  } finally {
    await file.handle.close();
  }
}

async function replaceFile(
  directory: OpenDirectory,
  name: string,
  content: Buffer,
  mode: number,
): Promise<void> {
  const temporaryName = temporaryNameFor(name);
  const temporaryPath = childPath(directory, temporaryName);
  const handle = await open(temporaryPath, temporaryFlags, mode);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporaryPath, childPath(directory, name));
  } catch (error) {
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
  await directory.handle.sync();
}
