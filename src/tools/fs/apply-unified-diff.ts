import { fsError } from './fs-failure.js';

interface Hunk {
  oldStart: number;
  oldLines: string[];
  newLines: string[];
  newEndsWithoutNewline: boolean;
}

const hunkHeader = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

/**
 * Applies a unified diff for one file. Each hunk's old lines must match: at the stated line, or else at
 * exactly one place after the previous hunk (line numbers from a model are often off).
 */
export function applyUnifiedDiff(text: string, diff: string, display: string): string {
  const hunks = parseHunks(diff);
  if (hunks.length === 0)
    throw fsError('E_SCHEMA_VALIDATION', 'the diff has no hunks (lines starting with @@)');
  const endsWithNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsWithNewline) lines.pop();
  const output: string[] = [];
  const index = new LineIndex(lines);
  let cursor = 0;
  let finalNewline = endsWithNewline;
  hunks.forEach((hunk, number) => {
    const at = locateHunk(lines, index, hunk, cursor, number, display);
    // Loops, not push(...slice): a spread of millions of lines overflows the call stack.
    for (let line = cursor; line < at; line += 1) output.push(lines[line]!);
    for (const line of hunk.newLines) output.push(line);
    cursor = at + hunk.oldLines.length;
    if (cursor === lines.length)
      finalNewline = !hunk.newEndsWithoutNewline && (endsWithNewline || hunk.newLines.length > 0);
  });
  for (let line = cursor; line < lines.length; line += 1) output.push(lines[line]!);
  const joined = output.join('\n');
  return finalNewline && output.length > 0 ? `${joined}\n` : joined;
}

/** Where each distinct line occurs, built once per file: a hunk is looked up, not slid along the file. */
class LineIndex {
  private positions: Map<string, number[]> | undefined;

  constructor(private readonly lines: readonly string[]) {}

  /** Ascending line numbers holding exactly `text`. */
  occurrences(text: string): readonly number[] {
    if (this.positions === undefined) {
      this.positions = new Map();
      this.lines.forEach((line, at) => {
        const list = this.positions!.get(line);
        if (list === undefined) this.positions!.set(line, [at]);
        else list.push(at);
      });
    }
    return this.positions.get(text) ?? [];
  }
}

function locateHunk(
  lines: readonly string[],
  index: LineIndex,
  hunk: Hunk,
  cursor: number,
  number: number,
  display: string,
): number {
  const size = hunk.oldLines.length;
  const matchesAt = (start: number) =>
    start >= cursor &&
    start + size <= lines.length &&
    hunk.oldLines.every((line, offset) => lines[start + offset] === line);
  const stated = Math.max(0, hunk.oldStart - (size === 0 ? 0 : 1));
  if (matchesAt(stated)) return stated;
  const places = size === 0 ? [] : findPlaces(index, hunk.oldLines, cursor, matchesAt);
  if (places.length !== 1) {
    const count = places.length > 1 ? 'more than one place' : size === 0 ? 'no stated place' : 'no place';
    throw fsError(
      'E_PRECONDITION_FAILED',
      `hunk ${number + 1}: its old lines match ${count} in ${display}; they must match exactly one (read the file again)`,
      { path: display, hunk: number + 1, occurrences: places.length },
    );
  }
  return places[0]!;
}

/**
 * Up to two places where the old lines match, found from the occurrences of their rarest line: the cost is
 * that line's occurrences, not the file's length times the hunk's; two are enough to know it is ambiguous.
 */
function findPlaces(
  index: LineIndex,
  oldLines: readonly string[],
  cursor: number,
  matchesAt: (start: number) => boolean,
): number[] {
  let anchor = 0;
  let anchorPositions = index.occurrences(oldLines[0]!);
  for (let offset = 1; offset < oldLines.length && anchorPositions.length > 0; offset += 1) {
    const positions = index.occurrences(oldLines[offset]!);
    if (positions.length < anchorPositions.length) {
      anchor = offset;
      anchorPositions = positions;
    }
  }
  const places: number[] = [];
  for (const position of anchorPositions) {
    const start = position - anchor;
    if (start >= cursor && matchesAt(start)) places.push(start);
    if (places.length === 2) break;
  }
  return places;
}

function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let lastKind = '';
  const rows = diff.split('\n');
  if (rows.at(-1) === '') rows.pop();
  for (const line of rows) {
    const header = hunkHeader.exec(line);
    if (header !== null) {
      current = { oldStart: Number(header[1]), oldLines: [], newLines: [], newEndsWithoutNewline: false };
      hunks.push(current);
      continue;
    }
    if (current === undefined || line.startsWith('--- ') || line.startsWith('+++ ')) continue;
    const kind = line[0] ?? ' ';
    const body = line.slice(1);
    if (kind === '\\') {
      if (lastKind === '+' || lastKind === ' ') current.newEndsWithoutNewline = true;
      continue;
    }
    if (kind === ' ' || line === '') {
      current.oldLines.push(body);
      current.newLines.push(body);
    } else if (kind === '-') current.oldLines.push(body);
    else if (kind === '+') current.newLines.push(body);
    else
      throw fsError(
        'E_SCHEMA_VALIDATION',
        `the diff has a line that is not context, + or -: ${JSON.stringify(line.slice(0, 80))}`,
      );
    lastKind = line === '' ? ' ' : kind;
  }
  return hunks;
}
