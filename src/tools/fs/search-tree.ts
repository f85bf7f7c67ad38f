import {
  closeSync,
  constants,
  type Dirent,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
} from 'node:fs';
import { join } from 'node:path';
import { isBinaryContent } from './detect-binary.js';
import { EventLoopPacer } from './event-loop-pacer.js';
import type { GitignoreStack } from './gitignore-stack.js';
import { isHiddenEntry } from './hidden-entries.js';
import type { LineMatcher, SearchHit } from './line-matcher.js';

/** A folder open by descriptor, with the .gitignore rules that apply inside it. */
export interface SearchFolder {
  fd: number;
  realPath: string;
  /** Relative to the mount root ('' for the root). */
  relative: string;
  ignores: GitignoreStack;
  /** The mount's hidden paths, relative to its root: skipped whatever the ignore rules say. */
  hidden: readonly string[];
}

export interface SearchTreeOptions {
  matcher: LineMatcher;
  /** Mount name for the reported paths (`@project`). */
  mountName: string;
  /** Relative to the mount root: the folder the search starts at, for glob matching. */
  startRelative: string;
  glob?: (relativeToStart: string) => boolean;
  allowHardLinks: boolean;
  maxFileBytes: number;
  /** Called with each hit; returns false to stop the whole search. */
  onMatch(path: string, hit: SearchHit): boolean;
  /** Polled between files; returning true stops the search (time budget, abort). */
  shouldStop(): boolean;
}

export interface SearchProgress {
  filesScanned: number;
  stopped: boolean;
}

const useDescriptorPaths = existsSync('/proc/self/fd');
const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const fileFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export function childPathSync(folder: { fd: number; realPath: string }, name: string): string {
  return useDescriptorPaths ? `/proc/self/fd/${folder.fd}/${name}` : join(folder.realPath, name);
}

/** Opens a child folder without following a symlink; undefined when it is not a folder any more. */
export function openFolderSync(parent: { fd: number; realPath: string }, name: string): number | undefined {
  try {
    return openSync(childPathSync(parent, name), directoryFlags);
  } catch {
    return undefined;
  }
}

/** Reads a small text file (a .gitignore) through its folder; undefined when absent or not regular. */
export function readSmallFileSync(
  folder: { fd: number; realPath: string },
  name: string,
): string | undefined {
  const content = readRegularFileSync(folder, name, 1024 * 1024, false);
  return content?.toString('utf8');
}

let pool = Buffer.allocUnsafe(1 << 16);

/**
 * Opens and reads a regular file through its folder's descriptor: never a symlink (O_NOFOLLOW), never a
 * blocking open (O_NONBLOCK), never a special file or a hard-linked one (fstat of the descriptor itself).
 * The content is a view of a shared buffer, valid until the next call.
 */
function readRegularFileSync(
  folder: { fd: number; realPath: string },
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

interface Frame {
  folder: SearchFolder;
  pendingFolders: string[];
  filesDone: boolean;
}

/**
 * Searches every text file under a folder, depth first in name order, skipping `.git`, ignored paths,
 * symlinks, special files and binaries. Holds one descriptor per level; yields to the event loop every
 * few milliseconds. Closes every descriptor it opened, the root's included.
 */
export async function searchTree(root: SearchFolder, options: SearchTreeOptions): Promise<SearchProgress> {
  const progress: SearchProgress = { filesScanned: 0, stopped: false };
  const stack: Frame[] = [{ folder: root, pendingFolders: [], filesDone: false }];
  const pacer = new EventLoopPacer();
  try {
    while (stack.length > 0 && !progress.stopped) {
      const frame = stack.at(-1)!;
      if (!frame.filesDone) {
        frame.filesDone = true;
        frame.pendingFolders = await searchFolderFiles(frame.folder, options, progress, pacer);
        continue;
      }
      const next = frame.pendingFolders.shift();
      if (next === undefined) {
        closeSync(stack.pop()!.folder.fd);
        continue;
      }
      const child = enterFolder(frame.folder, next);
      if (child !== undefined) stack.push({ folder: child, pendingFolders: [], filesDone: false });
      if (pacer.due()) await pacer.yield();
    }
  } finally {
    for (const frame of stack) closeSync(frame.folder.fd);
  }
  return progress;
}

function enterFolder(parent: SearchFolder, name: string): SearchFolder | undefined {
  const fd = openFolderSync(parent, name);
  if (fd === undefined) return undefined;
  const relative = parent.relative === '' ? name : `${parent.relative}/${name}`;
  const folder = { fd, realPath: join(parent.realPath, name) };
  return {
    ...folder,
    relative,
    ignores: parent.ignores.withFile(relative, readSmallFileSync(folder, '.gitignore')),
    hidden: parent.hidden,
  };
}

/** Searches the files of one folder (yielding inside it: one folder may hold 100,000 files); returns its subfolders. */
async function searchFolderFiles(
  folder: SearchFolder,
  options: SearchTreeOptions,
  progress: SearchProgress,
  pacer: EventLoopPacer,
): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = readdirSync(childPathSync(folder, '.'), { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const folders: string[] = [];
  for (const entry of entries) {
    if (progress.stopped) break;
    if (pacer.due()) await pacer.yield();
    // Checked on every entry, not only before a file is read: a folder of ignored entries costs time too.
    if (options.shouldStop()) {
      progress.stopped = true;
      break;
    }
    const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
    const isFolder = entry.isDirectory();
    if (isHiddenEntry(folder.hidden, childPathSync(folder, '.'), entry.name, relative, isFolder)) continue;
    if (isFolder) {
      if (!folder.ignores.isIgnored(relative, true)) folders.push(entry.name);
      continue;
    }
    // Symlinks and special files are skipped from the folder listing itself, without an open.
    if (!entry.isFile() || folder.ignores.isIgnored(relative, false)) continue;
    if (options.glob !== undefined && !options.glob(relativeTo(options.startRelative, relative))) continue;
    searchFile(folder, entry.name, `${options.mountName}/${relative}`, options, progress);
  }
  return folders;
}

function searchFile(
  folder: SearchFolder,
  name: string,
  display: string,
  options: SearchTreeOptions,
  progress: SearchProgress,
): void {
  const content = readRegularFileSync(folder, name, options.maxFileBytes, options.allowHardLinks);
  if (content === undefined || isBinaryContent(content)) return;
  progress.filesScanned += 1;
  const completed = options.matcher(content, (hit) => options.onMatch(display, hit));
  if (!completed) progress.stopped = true;
}

/** Searches a single file given by path (not subject to .gitignore, as with grep). */
export function searchSingleFile(
  folder: SearchFolder,
  name: string,
  display: string,
  options: SearchTreeOptions,
): SearchProgress {
  const progress: SearchProgress = { filesScanned: 0, stopped: false };
  searchFile(folder, name, display, options, progress);
  return progress;
}

function relativeTo(start: string, path: string): string {
  return start === '' ? path : path.slice(start.length + 1);
}
