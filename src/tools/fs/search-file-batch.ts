import { isBinaryContent } from './detect-binary.js';
import type { LineMatcher, SearchHit } from './line-matcher.js';
import { type FolderHandle, readRegularFileSync } from './read-through-folder.js';

/**
 * Files to search, in order, grouped by the folder they are named in (that folder stays open until the batch
 * is answered). Plain arrays of strings: a batch crosses to a helper thread and back.
 */
export interface FileBatch {
  groups: Array<{ folder: FolderHandle; names: string[] }>;
}

/**
 * What searching a batch found, in columns rather than objects (they cross between threads several times
 * faster). `scanned[i]` is 1 when the batch's i-th file was read as text (0 for a binary, special,
 * hard-linked, vanished or too large file); files past `scanned.length` were not searched at all. File
 * `hitFiles[k]` has `hitCounts[k]` hits; the hits follow each other in `lines`, `columns`, `texts` (and
 * `before`, `after` when context lines were asked for).
 */
export interface BatchAnswer {
  scanned: Uint8Array;
  hitFiles: number[];
  hitCounts: number[];
  lines: number[];
  columns: number[];
  texts: string[];
  before: Array<string[] | undefined>;
  after: Array<string[] | undefined>;
}

/** A hit with the path of its file, as `fs.search` reports it. */
export type SearchMatch = { path: string } & SearchHit;

/** The `index`-th hit of an answer, reported as found in `path`. */
export function matchAt(answer: BatchAnswer, index: number, path: string): SearchMatch {
  const match: SearchMatch = {
    path,
    line: answer.lines[index]!,
    column: answer.columns[index]!,
    text: answer.texts[index]!,
  };
  const before = answer.before[index];
  const after = answer.after[index];
  if (before !== undefined) match.before = before;
  if (after !== undefined) match.after = after;
  return match;
}

export interface FileRules {
  maxFileBytes: number;
  allowHardLinks: boolean;
  /**
   * Hits a batch returns at most: the search can take no more than this (its match limit plus one, the hit
   * that tells it the limit was passed), so the files after the one that reaches it are not read.
   */
  maxHits: number;
}

/**
 * Reads one file through its folder and passes its hits to `onHit` (which returns false to stop); false when
 * the file was not read as text (binary, special, hard-linked, vanished or too large).
 */
export function searchFile(
  file: { folder: FolderHandle; name: string },
  matcher: LineMatcher,
  rules: FileRules,
  onHit: (hit: SearchHit) => boolean,
): boolean {
  const content = readRegularFileSync(file.folder, file.name, rules.maxFileBytes, rules.allowHardLinks);
  if (content === undefined || isBinaryContent(content)) return false;
  matcher(content, onHit);
  return true;
}

function batchSize(batch: FileBatch): number {
  let size = 0;
  for (const group of batch.groups) size += group.names.length;
  return size;
}

/** Searches a batch's files in order, until they are done, `stopped()` turns true or `maxHits` is reached. */
export function searchFileBatch(
  batch: FileBatch,
  matcher: LineMatcher,
  rules: FileRules,
  stopped: () => boolean,
): BatchAnswer {
  const scanned = new Uint8Array(batchSize(batch));
  const answer: BatchAnswer = {
    scanned,
    hitFiles: [],
    hitCounts: [],
    lines: [],
    columns: [],
    texts: [],
    before: [],
    after: [],
  };
  const onHit = (hit: SearchHit) => {
    answer.lines.push(hit.line);
    answer.columns.push(hit.column);
    answer.texts.push(hit.text);
    answer.before.push(hit.before);
    answer.after.push(hit.after);
    return answer.lines.length < rules.maxHits;
  };
  let index = 0;
  for (const { folder, names } of batch.groups) {
    for (const name of names) {
      if (answer.lines.length >= rules.maxHits || stopped()) {
        answer.scanned = scanned.subarray(0, index);
        return answer;
      }
      const before = answer.lines.length;
      if (searchFile({ folder, name }, matcher, rules, onHit)) scanned[index] = 1;
      if (answer.lines.length > before) {
        answer.hitFiles.push(index);
        answer.hitCounts.push(answer.lines.length - before);
      }
      index += 1;
    }
  }
  return answer;
}
