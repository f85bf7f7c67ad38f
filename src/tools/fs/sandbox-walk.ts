import type { Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { descriptorChildPath, directoryFlags, fileFlags } from './descriptor-paths.js';
import { fsError, isErrnoCode, sandboxViolation } from './fs-failure.js';
import type { Mount } from './mount-table.js';

/** An open folder inside a mount: every child is reached through its descriptor, never through its path. */
export interface OpenDirectory {
  handle: FileHandle;
  realPath: string;
}

/** The path of `name` inside an open folder, as the kernel should resolve it. */
export function childPath(directory: OpenDirectory, name: string): string {
  return descriptorChildPath(directory.handle.fd, directory.realPath, name);
}

/** Opens a mount's root and checks it is still the folder it was when the mounts were set up. */
export async function openMountRoot(mount: Mount, display: string): Promise<OpenDirectory> {
  let handle: FileHandle;
  try {
    handle = await open(mount.rootReal, directoryFlags);
  } catch (error) {
    throw sandboxViolation(display, 'mount-root-changed', `the root of ${mount.name} is gone`, {
      errno: (error as NodeJS.ErrnoException).code,
    });
  }
  const stats = await handle.stat();
  if (stats.dev !== mount.dev || stats.ino !== mount.ino) {
    await handle.close();
    throw sandboxViolation(display, 'mount-root-changed', `the root of ${mount.name} was replaced`);
  }
  return { handle, realPath: mount.rootReal };
}

/** Opens the folder at `segments` under the mount root, one component at a time, none of them a symlink. */
export async function openDirectoryChain(
  mount: Mount,
  segments: readonly string[],
  display: string,
  create = false,
): Promise<OpenDirectory> {
  let directory = await openMountRoot(mount, display);
  for (const segment of segments) {
    let next: OpenDirectory;
    try {
      next = await openChildDirectory(directory, segment, display, create);
    } finally {
      await directory.handle.close();
    }
    directory = next;
  }
  return directory;
}

async function openChildDirectory(
  directory: OpenDirectory,
  name: string,
  display: string,
  create: boolean,
): Promise<OpenDirectory> {
  const path = childPath(directory, name);
  try {
    return { handle: await open(path, directoryFlags), realPath: join(directory.realPath, name) };
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT') && create) {
      await mkdir(path).catch((mkdirError: unknown) => {
        if (!isErrnoCode(mkdirError, 'EEXIST')) throw mkdirError;
      });
      return openChildDirectory(directory, name, display, false);
    }
    if (isErrnoCode(error, 'ENOENT'))
      throw fsError('ENOENT', `no such folder: ${display}`, { path: display });
    if (isErrnoCode(error, 'ELOOP', 'ENOTDIR')) {
      const stats = await lstatChild(directory, name);
      if (stats?.isSymbolicLink()) {
        throw sandboxViolation(
          display,
          'symlink-changed',
          'a folder on the path is a symlink that was not resolved',
        );
      }
      throw fsError('ENOENT', `not a folder: ${name} on the path ${display}`, { path: display });
    }
    throw error;
  }
}

/** lstat of a child; undefined when it does not exist. */
export async function lstatChild(directory: OpenDirectory, name: string): Promise<Stats | undefined> {
  try {
    return await lstat(childPath(directory, name));
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  }
}

export interface OpenFile {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Opens a regular file for reading. Special files are refused from their lstat, before any open; the open
 * itself cannot follow a symlink or block, and the descriptor must be the very file that lstat saw.
 */
export async function openChildFile(
  directory: OpenDirectory,
  name: string,
  display: string,
  allowHardLinks: boolean,
): Promise<OpenFile> {
  const before = await lstatChild(directory, name);
  if (before === undefined) throw fsError('ENOENT', `no such file: ${display}`, { path: display });
  refuseNonRegular(before, display);
  const handle = await open(childPath(directory, name), fileFlags).catch((error: unknown) => {
    if (isErrnoCode(error, 'ELOOP')) {
      throw sandboxViolation(display, 'symlink-changed', 'the file was replaced by a symlink');
    }
    if (isErrnoCode(error, 'ENOENT')) throw fsError('ENOENT', `no such file: ${display}`, { path: display });
    throw error;
  });
  const stats = await handle.stat();
  try {
    if (!stats.isFile() || stats.ino !== before.ino || stats.dev !== before.dev) {
      throw sandboxViolation(display, 'symlink-changed', 'the file was replaced while it was opened');
    }
    if (stats.nlink > 1 && !allowHardLinks) throw hardLinkViolation(display, stats.nlink);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { handle, stats };
}

export function hardLinkViolation(display: string, nlink: number) {
  return sandboxViolation(
    display,
    'hard-link',
    'the file has other hard links, which may lie outside the sandbox',
    { nlink },
  );
}

/** Throws for anything but a regular file: symlinks (they changed since resolution), folders, specials. */
export function refuseNonRegular(stats: Stats, display: string): void {
  if (stats.isFile()) return;
  if (stats.isSymbolicLink()) {
    throw sandboxViolation(display, 'symlink-changed', 'the file is a symlink that was not resolved');
  }
  if (stats.isDirectory()) {
    throw fsError('ENOENT', `${display} is a folder, not a file (use fs.list)`, {
      path: display,
      kind: 'folder',
    });
  }
  throw sandboxViolation(display, 'special-file', `refusing a special file (${describeKind(stats)})`, {
    kind: describeKind(stats),
  });
}

export function describeKind(stats: Stats): string {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character-device';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'folder';
  return 'file';
}
