import { closeSync, type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventLoopPacer } from './event-loop-pacer.js';
import type { FsContext, FsOperation } from './fs-context.js';
import { fsError } from './fs-failure.js';
import { isHiddenEntry } from './hidden-entries.js';
import { picomatch } from './lazy-picomatch.js';
import { openSearchStart } from './open-search-start.js';
import { childPathSync, openFolderSync, readSmallFileSync } from './read-through-folder.js';
import { resolveMountPath } from './resolve-mount-path.js';
import type { SearchFolder } from './search-tree.js';

const parameters = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'e.g. @project' },
    depth: { type: 'integer', minimum: 1, description: 'levels (default 1)' },
    glob: { type: 'string', description: 'e.g. *.md' },
  },
  required: ['path'],
  additionalProperties: false,
};

/** `fs.list`: a folder's entries (folders end with `/`), skipping .git and what .gitignore ignores. */
export function createFsList(context: FsContext): FsOperation {
  return {
    name: 'fs.list',
    description: 'List a folder (folders end with /).',
    parameters,
    writes: false,
    run: async (args, toolContext) => {
      const { limits } = context;
      const depth = Math.min(
        limits.listDepthMax,
        typeof args.depth === 'number' && args.depth >= 1 ? Math.floor(args.depth) : 1,
      );
      const resolved = await resolveMountPath(context.mounts, args.path);
      const start = openSearchStart(resolved);
      if (start.kind === 'file') {
        closeSync(start.folder.fd);
        throw fsError('ENOENT', `${resolved.display} is a file, not a folder (use fs.read)`, {
          path: resolved.display,
        });
      }
      const match =
        typeof args.glob === 'string' && args.glob !== ''
          ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') })
          : undefined;
      const entries: string[] = [];
      const deadline = Date.now() + limits.searchTimeMs;
      const state: ListState = {
        entries,
        limit: limits.listEntries,
        match,
        pacer: new EventLoopPacer(),
        shouldStop: () => toolContext.signal?.aborted === true || Date.now() > deadline,
      };
      const outcome = await listFolder(start.folder, '', depth, state);
      const path = resolved.display;
      if (outcome === 'complete') return { result: { ok: true, path, entries }, audit: { path } };
      return {
        result: {
          ok: true,
          path,
          entriesPreview: entries,
          truncated: true,
          hint:
            outcome === 'limit'
              ? `More than ${limits.listEntries} entries (the list limit): list a subfolder, lower depth, or filter with glob.`
              : `Listing stopped after ${limits.searchTimeMs} ms or on cancel: list a subfolder or lower depth.`,
        },
        audit: { path },
      };
    },
  };
}

interface ListState {
  entries: string[];
  limit: number;
  match?: ((path: string) => boolean) | undefined;
  pacer: EventLoopPacer;
  /** The time budget is spent or the call was cancelled. */
  shouldStop(): boolean;
}

type ListOutcome = 'complete' | 'limit' | 'stopped';

/** Depth-first, name order, yielding to the event loop as it goes; closes the folder. */
async function listFolder(
  folder: SearchFolder,
  prefix: string,
  depth: number,
  state: ListState,
): Promise<ListOutcome> {
  try {
    let entries: Dirent[];
    try {
      entries = readdirSync(childPathSync(folder, '.'), { withFileTypes: true });
    } catch {
      return 'complete';
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      if (state.pacer.due()) {
        await state.pacer.yield();
        if (state.shouldStop()) return 'stopped';
      }
      const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
      const isFolder = entry.isDirectory();
      if (isHiddenEntry(folder.hidden, childPathSync(folder, '.'), entry.name, relative, isFolder)) continue;
      if (folder.ignores.isIgnored(relative, isFolder)) continue;
      const shown = `${prefix}${entry.name}${isFolder ? '/' : ''}`;
      if (state.match === undefined || state.match(shown.replace(/\/$/, ''))) {
        if (state.entries.length >= state.limit) return 'limit';
        state.entries.push(shown);
      }
      if (isFolder && depth > 1) {
        const inner = await enterAndList(folder, entry.name, relative, shown, depth - 1, state);
        if (inner !== 'complete') return inner;
      }
    }
    return 'complete';
  } finally {
    closeSync(folder.fd);
  }
}

async function enterAndList(
  parent: SearchFolder,
  name: string,
  relative: string,
  prefix: string,
  depth: number,
  state: ListState,
): Promise<ListOutcome> {
  const fd = openFolderSync(parent, name);
  if (fd === undefined) return 'complete';
  const opened = { fd, realPath: join(parent.realPath, name) };
  const child: SearchFolder = {
    ...opened,
    relative,
    ignores: parent.ignores.withFile(relative, readSmallFileSync(opened, '.gitignore')),
    hidden: parent.hidden,
  };
  return listFolder(child, prefix, depth, state);
}
