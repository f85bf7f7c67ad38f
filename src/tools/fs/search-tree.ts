import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventLoopPacer } from './event-loop-pacer.js';
import { FileSearchQueue, type QueuedFolder } from './file-search-queue.js';
import type { GitignoreStack } from './gitignore-stack.js';
import { isHiddenEntry } from './hidden-entries.js';
import type { LineMatcher, MatcherOptions } from './line-matcher.js';
import {
  childPathSync,
  type FolderHandle,
  openFolderSync,
  readSmallFileSync,
} from './read-through-folder.js';
import { type SearchMatch, searchFile } from './search-file-batch.js';
import type { SearchWorkerPool } from './search-worker-pool.js';

/** A folder open by descriptor, with the .gitignore rules that apply inside it. */
export interface SearchFolder extends FolderHandle {
  /** Relative to the mount root ('' for the root). */
  relative: string;
  ignores: GitignoreStack;
  /** The mount's hidden paths, relative to its root: skipped whatever the ignore rules say. */
  hidden: readonly string[];
}

export interface SearchTreeOptions {
  matcher: LineMatcher;
  /** What `matcher` was made from: a helper thread makes its own from it. */
  matcherOptions: MatcherOptions;
  /** Mount name for the reported paths (`@project`). */
  mountName: string;
  /** Relative to the mount root: the folder the search starts at, for glob matching. */
  startRelative: string;
  glob?: (relativeToStart: string) => boolean;
  allowHardLinks: boolean;
  maxFileBytes: number;
  /** Hits the search can take at most (its match limit plus one): files after that many are not read. */
  maxHits: number;
  /** Helper threads that read and match files; undefined searches on the calling thread alone. */
  helpers?: SearchWorkerPool;
  /** Called with each hit, in walk order; returns false to stop the whole search. */
  onMatch(match: SearchMatch): boolean;
  /** Polled between files; returning true stops the search (time budget, abort). */
  shouldStop(): boolean;
}

export interface SearchProgress {
  filesScanned: number;
  stopped: boolean;
}

interface Frame {
  folder: SearchFolder;
  queued: QueuedFolder;
  pendingFolders: string[];
  filesDone: boolean;
}

/**
 * Searches every text file under a folder, depth first in name order, skipping `.git`, ignored paths,
 * symlinks, special files and binaries. The walk holds one descriptor per level (and those of folders whose
 * files a helper is still reading); it yields to the event loop every few milliseconds. Closes every
 * descriptor it opened, the root's included.
 */
export async function searchTree(root: SearchFolder, options: SearchTreeOptions): Promise<SearchProgress> {
  const queue = new FileSearchQueue(
    {
      matcher: options.matcher,
      matcherOptions: options.matcherOptions,
      rules: fileRules(options),
      mountName: options.mountName,
      onMatch: options.onMatch,
      shouldStop: options.shouldStop,
    },
    options.helpers,
  );
  const stack: Frame[] = [frameOf(root)];
  const pacer = new EventLoopPacer();
  try {
    while (stack.length > 0 && !queue.stopped) {
      const frame = stack.at(-1)!;
      if (!frame.filesDone) {
        frame.filesDone = true;
        frame.pendingFolders = await searchFolderFiles(frame, options, queue, pacer);
        continue;
      }
      const next = frame.pendingFolders.shift();
      if (next === undefined) {
        queue.leave(stack.pop()!.queued);
        continue;
      }
      const child = enterFolder(frame.folder, next);
      if (child !== undefined) stack.push(frameOf(child));
      if (pacer.due()) await pacer.yield();
    }
  } finally {
    for (const frame of stack) queue.leave(frame.queued);
    await queue.finish();
  }
  return { filesScanned: queue.filesScanned, stopped: queue.stopped };
}

function frameOf(folder: SearchFolder): Frame {
  // The handle is a plain object: it is what a helper thread receives.
  const handle = { fd: folder.fd, realPath: folder.realPath };
  return { folder, queued: { handle, users: 0, left: false }, pendingFolders: [], filesDone: false };
}

function fileRules(options: SearchTreeOptions) {
  return {
    maxFileBytes: options.maxFileBytes,
    allowHardLinks: options.allowHardLinks,
    maxHits: options.maxHits,
  };
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

/** Queues the files of one folder (yielding inside it: one folder may hold 100,000 files); returns its subfolders. */
async function searchFolderFiles(
  frame: Frame,
  options: SearchTreeOptions,
  queue: FileSearchQueue,
  pacer: EventLoopPacer,
): Promise<string[]> {
  const { folder } = frame;
  const folderPath = childPathSync(folder, '.');
  let entries: Dirent[];
  try {
    entries = readdirSync(folderPath, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  const folders: string[] = [];
  for (const entry of entries) {
    if (queue.stopped) break;
    if (pacer.due()) await pacer.yield();
    // Checked on every entry, not only before a file is read: a folder of ignored entries costs time too.
    if (options.shouldStop()) {
      queue.stop();
      break;
    }
    const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
    const isFolder = entry.isDirectory();
    if (isHiddenEntry(folder.hidden, folderPath, entry.name, relative, isFolder)) continue;
    if (isFolder) {
      if (!folder.ignores.isIgnored(relative, true)) folders.push(entry.name);
      continue;
    }
    // Symlinks and special files are skipped from the folder listing itself, without an open.
    if (!entry.isFile() || folder.ignores.isIgnored(relative, false)) continue;
    if (options.glob !== undefined && !options.glob(relativeTo(options.startRelative, relative))) continue;
    await queue.add(frame.queued, entry.name, relative);
  }
  return folders;
}

/** Searches a single file given by path (not subject to .gitignore, as with grep), on the calling thread. */
export function searchSingleFile(
  folder: SearchFolder,
  name: string,
  display: string,
  options: SearchTreeOptions,
): SearchProgress {
  let stopped = false;
  const scanned = searchFile({ folder, name }, options.matcher, fileRules(options), (hit) => {
    stopped = !options.onMatch({ path: display, ...hit });
    return !stopped;
  });
  return { filesScanned: scanned ? 1 : 0, stopped };
}

function relativeTo(start: string, path: string): string {
  return start === '' ? path : path.slice(start.length + 1);
}
