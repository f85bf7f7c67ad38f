import { availableParallelism } from 'node:os';

/** Size and time limits of the `fs.*` tools. Every one is reported in the error or hint that it causes. */
export interface FsLimits {
  /** Largest content `fs.read` returns whole (bytes); a larger file gets a preview and a hint. */
  readBytes: number;
  /** Size of the preview of a file over `readBytes` (bytes). */
  previewBytes: number;
  /** Largest file `fs.read` will scan for line windows or hash (bytes). */
  scanBytes: number;
  /** Largest content `fs.write` and `fs.apply_patch` will write (bytes). */
  writeBytes: number;
  /** Default and highest `maxMatches` of `fs.search`. */
  searchMatches: number;
  searchMatchesMax: number;
  /** Total size of the text `fs.search` returns (bytes). */
  searchOutputBytes: number;
  /** Time budget of one `fs.search` call (ms); on expiry the matches so far are returned, truncated. */
  searchTimeMs: number;
  /** Files larger than this are not searched (bytes). */
  searchFileBytes: number;
  /** Longest matched line returned (characters); longer ones are cut around the match. */
  searchLineChars: number;
  /** Highest context lines before/after a match. */
  searchContextLines: number;
  /**
   * Threads that read and match files in a folder search: with 2 or more, that many helper threads do it while
   * the calling thread walks the folders; 1 searches on the calling thread alone. Default: the cores, at most 4.
   */
  searchThreads: number;
  /** Entries `fs.list` returns before it truncates. */
  listEntries: number;
  /** Deepest `depth` of `fs.list`. */
  listDepthMax: number;
}

export const defaultFsLimits: Readonly<FsLimits> = Object.freeze({
  readBytes: 256 * 1024,
  previewBytes: 8 * 1024,
  scanBytes: 64 * 1024 * 1024,
  writeBytes: 4 * 1024 * 1024,
  searchMatches: 100,
  searchMatchesMax: 2000,
  searchOutputBytes: 128 * 1024,
  searchTimeMs: 10_000,
  searchFileBytes: 16 * 1024 * 1024,
  searchLineChars: 400,
  searchContextLines: 10,
  searchThreads: Math.min(4, availableParallelism()),
  listEntries: 1000,
  listDepthMax: 10,
});

/** The defaults with the caller's overrides; a non-positive or non-finite override is ignored. */
export function resolveFsLimits(overrides: Partial<FsLimits> = {}): FsLimits {
  const limits: FsLimits = { ...defaultFsLimits };
  for (const key of Object.keys(limits) as (keyof FsLimits)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}
