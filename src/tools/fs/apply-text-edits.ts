import { fsError } from './fs-failure.js';

export interface TextEdit {
  search: string;
  replace: string;
}

/** Applies exact search/replace blocks in order; each search text must occur exactly once. */
export function applyTextEdits(text: string, edits: readonly TextEdit[], display: string): string {
  let result = text;
  edits.forEach((edit, index) => {
    if (typeof edit?.search !== 'string' || typeof edit.replace !== 'string' || edit.search === '') {
      throw fsError(
        'E_SCHEMA_VALIDATION',
        `edit ${index + 1}: search (non-empty) and replace must be strings`,
      );
    }
    const count = countOccurrences(result, edit.search);
    if (count !== 1) {
      throw fsError(
        'E_PRECONDITION_FAILED',
        `edit ${index + 1}: the search text occurs ${count} times in ${display}; it must occur exactly once` +
          (count === 0 ? ' (check whitespace and read the file again)' : ' (include more surrounding lines)'),
        { path: display, edit: index + 1, occurrences: count },
      );
    }
    const at = result.indexOf(edit.search);
    result = result.slice(0, at) + edit.replace + result.slice(at + edit.search.length);
  });
  return result;
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count += 1;
  return count;
}
