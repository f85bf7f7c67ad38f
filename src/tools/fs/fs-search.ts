import { closeSync } from 'node:fs';
import type { ToolContext } from '../define-tool.js';
import type { FsContext, FsOperation, FsOperationOutcome } from './fs-context.js';
import { fsError } from './fs-failure.js';
import { picomatch } from './lazy-picomatch.js';
import { createLineMatcher, type MatcherOptions } from './line-matcher.js';
import { openSearchStart } from './open-search-start.js';
import { resolveMountPath } from './resolve-mount-path.js';
import type { SearchMatch } from './search-file-batch.js';
import { type SearchProgress, type SearchTreeOptions, searchSingleFile, searchTree } from './search-tree.js';
import type { SearchWorkerPool } from './search-worker-pool.js';

const parameters = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    regex: { type: 'boolean', description: 'query is a regular expression (RE2)' },
    ignoreCase: { type: 'boolean' },
    path: { type: 'string', description: 'folder or file (default @project)' },
    glob: { type: 'string', description: 'e.g. *.ts' },
    maxMatches: { type: 'integer', minimum: 1, description: 'default 100' },
    before: { type: 'integer', minimum: 0, description: 'context lines' },
    after: { type: 'integer', minimum: 0, description: 'context lines' },
  },
  required: ['query'],
  additionalProperties: false,
};

/** `fs.search`: matching lines across a folder, bounded in matches, output size and time. */
export function createFsSearch(context: FsContext): FsOperation {
  return {
    name: 'fs.search',
    description: 'Find lines matching text in files (skips .gitignore’d and binary files).',
    parameters,
    writes: false,
    run: (args, toolContext) => searchTool(context, args, toolContext),
  };
}

interface Collected {
  matches: SearchMatch[];
  outputBytes: number;
  reason?: 'matches' | 'output' | 'time' | 'aborted';
}

async function searchTool(
  context: FsContext,
  args: Record<string, unknown>,
  toolContext: ToolContext,
): Promise<FsOperationOutcome> {
  const { limits } = context;
  if (typeof args.query !== 'string' || args.query === '')
    throw fsError('E_SCHEMA_VALIDATION', 'query must be a non-empty string');
  const maxMatches = Math.min(limits.searchMatchesMax, positive(args.maxMatches) ?? limits.searchMatches);
  const matcherOptions: MatcherOptions = {
    query: args.query,
    regex: args.regex === true,
    ignoreCase: args.ignoreCase === true,
    before: Math.min(limits.searchContextLines, positive(args.before) ?? 0),
    after: Math.min(limits.searchContextLines, positive(args.after) ?? 0),
    lineChars: limits.searchLineChars,
  };
  const matcher = createLineMatcher(matcherOptions);
  const resolved = await resolveMountPath(context.mounts, args.path ?? '@project');
  // Before the start is opened: nothing awaited between its open and the search that closes it.
  const helpers = await searchHelpers(limits.searchThreads);
  const start = openSearchStart(resolved);
  const deadline = Date.now() + limits.searchTimeMs;
  const collected: Collected = { matches: [], outputBytes: 0 };
  const options: SearchTreeOptions = {
    matcher,
    matcherOptions,
    mountName: resolved.mount.name,
    startRelative: start.folder.relative,
    glob: createGlob(args.glob),
    allowHardLinks: context.allowHardLinkReads,
    maxFileBytes: limits.searchFileBytes,
    maxHits: maxMatches + 1,
    ...(start.kind === 'folder' && helpers !== undefined ? { helpers } : {}),
    onMatch: (match) => collect(collected, match, maxMatches, limits.searchOutputBytes),
    shouldStop: () => {
      if (toolContext.signal?.aborted) collected.reason = 'aborted';
      else if (Date.now() > deadline) collected.reason = 'time';
      return collected.reason !== undefined;
    },
  };
  let progress: SearchProgress;
  if (start.kind === 'file') {
    try {
      progress = searchSingleFile(start.folder, start.name, resolved.display, options);
    } finally {
      closeSync(start.folder.fd);
    }
  } else progress = await searchTree(start.folder, options);
  return {
    result: describeResult(collected, progress, maxMatches, limits.searchTimeMs),
    audit: { path: resolved.display },
  };
}

function collect(collected: Collected, match: SearchMatch, maxMatches: number, maxOutput: number): boolean {
  if (collected.matches.length >= maxMatches) {
    collected.reason = 'matches';
    return false;
  }
  const size =
    match.path.length + match.text.length + 40 + sumLengths(match.before) + sumLengths(match.after);
  if (collected.outputBytes + size > maxOutput) {
    collected.reason = 'output';
    return false;
  }
  collected.outputBytes += size;
  collected.matches.push(match);
  return true;
}

function describeResult(collected: Collected, progress: SearchProgress, maxMatches: number, timeMs: number) {
  const stats = { filesScanned: progress.filesScanned, matchesFound: collected.matches.length };
  if (collected.reason === undefined)
    return { ok: true as const, matches: collected.matches, truncated: false, stats };
  const hints = {
    matches: `More than ${maxMatches} matches: narrow the search with path or glob, or raise maxMatches.`,
    output:
      'The matches filled the output limit: narrow the search with path or glob, or ask for less context.',
    time: `The search stopped after its time limit of ${timeMs} ms: narrow it with path or glob.`,
    aborted: 'The search was cancelled.',
  };
  return {
    ok: true as const,
    matches: collected.matches,
    truncated: true,
    hint: hints[collected.reason],
    stats,
  };
}

/** The helper threads, loaded and started on the first search (a single-file search runs on this thread). */
async function searchHelpers(threads: number): Promise<SearchWorkerPool | undefined> {
  if (threads < 2) return undefined;
  const { searchWorkerPool } = await import('./search-worker-pool.js');
  return searchWorkerPool(threads);
}

function createGlob(glob: unknown): ((path: string) => boolean) | undefined {
  if (typeof glob !== 'string' || glob === '') return undefined;
  return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function sumLengths(lines: string[] | undefined): number {
  return lines === undefined ? 0 : lines.reduce((total, line) => total + line.length + 4, 0);
}
