import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { descriptorChildPath, directoryFlags, fileFlags } from './descriptor-paths.js';

/** A folder open by descriptor: what is inside it is opened through the descriptor, not by path. */
export interface FolderHandle {
  fd: number;
  realPath: string;
}

/** The path of a folder's entry through the folder's descriptor (see descriptor-paths.ts). */
export function childPathSync(folder: FolderHandle, name: string): string {
  return descriptorChildPath(folder.fd, folder.realPath, name);
}

/** Opens a child folder without following a symlink; undefined when it is not a folder any more. */
export function openFolderSync(parent: FolderHandle, name: string): number | undefined {
  try {
    return openSync(childPathSync(parent, name), directoryFlags);
  } catch {
    return undefined;
  }
}

/** Reads a small text file (a .gitignore) through its folder; undefined when absent or not regular. */
export function readSmallFileSync(folder: FolderHandle, name: string): string | undefined {
  const content = readRegularFileSync(folder, name, 1024 * 1024, false);
  return content?.toString('utf8');
}

let pool = Buffer.allocUnsafe(1 << 16);

/**
 * Opens and reads a regular file through its folder's descriptor: never a symlink (O_NOFOLLOW), never a
 * blocking open (O_NONBLOCK), never a special file or a hard-linked one (fstat of the descriptor itself).
 * The content is a view of a buffer shared by the thread, valid until the next call.
 */
export function readRegularFileSync(
  folder: FolderHandle,
  name: string,
  maxBytes: number,
  allowHardLinks: boolean,
): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(childPathSync(folder, name), fileFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes || (stats.nlink > 1 && !allowHardLinks)) return undefined;
    if (pool.length < stats.size + 1) pool = Buffer.allocUnsafe(Math.max(stats.size + 1, pool.length * 2));
    let length = 0;
    // Read to EOF, not just stats.size: the file may have grown; the pool is never overrun.
    for (;;) {
      const read = readSync(fd, pool, length, pool.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) return undefined;
      if (length === pool.length) pool = Buffer.concat([pool, Buffer.allocUnsafe(pool.length)]);
    }
    return pool.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
