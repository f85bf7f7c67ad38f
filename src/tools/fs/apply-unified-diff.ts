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
  let cursor = 0;
  let finalNewline = endsWithNewline;
  hunks.forEach((hunk, index) => {
    const at = locateHunk(lines, hunk, cursor, index, display);
    output.push(...lines.slice(cursor, at), ...hunk.newLines);
    cursor = at + hunk.oldLines.length;
    if (cursor === lines.length)
      finalNewline = !hunk.newEndsWithoutNewline && (endsWithNewline || hunk.newLines.length > 0);
  });
  output.push(...lines.slice(cursor));
  const joined = output.join('\n');
  return finalNewline && output.length > 0 ? `${joined}\n` : joined;
}

function locateHunk(lines: string[], hunk: Hunk, cursor: number, index: number, display: string): number {
  const matchesAt = (start: number) =>
    start >= cursor &&
    start + hunk.oldLines.length <= lines.length &&
    hunk.oldLines.every((line, offset) => lines[start + offset] === line);
  const stated = Math.max(0, hunk.oldStart - (hunk.oldLines.length === 0 ? 0 : 1));
  if (matchesAt(stated)) return stated;
  const places: number[] = [];
  for (let start = cursor; start + hunk.oldLines.length <= lines.length; start += 1) {
    if (matchesAt(start)) places.push(start);
  }
  if (places.length !== 1) {
    throw fsError(
      'E_PRECONDITION_FAILED',
      `hunk ${index + 1}: its old lines match ${places.length} places in ${display}; they must match exactly one (read the file again)`,
      { path: display, hunk: index + 1, occurrences: places.length },
    );
  }
  return places[0]!;
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
