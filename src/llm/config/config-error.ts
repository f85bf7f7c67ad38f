import { SpineError } from '../../core/spine-error.js';

/** One mistake in a config file: where, which key, what is wrong. */
export interface ConfigProblem {
  line: number;
  /** Dotted key path, e.g. `models.coding.api_type`; empty for the file as a whole. */
  path: string;
  message: string;
}

/** `spine.yaml:5: models.coding.api_type: must be one of …` (DECISIONS §8: file, line, key path). */
export function formatConfigProblem(file: string, problem: ConfigProblem): string {
  const where = `${file}:${problem.line}:`;
  return problem.path === '' ? `${where} ${problem.message}` : `${where} ${problem.path}: ${problem.message}`;
}

/**
 * A CONFIG_INVALID error for one or more problems. The message lists them all, first one first; `details`
 * names the first (`file`, `line`, `path`) and carries every one in `problems`.
 */
export function createConfigError(file: string, problems: ConfigProblem[]): SpineError {
  const first = problems[0] ?? { line: 1, path: '', message: 'invalid configuration' };
  return new SpineError({
    code: 'CONFIG_INVALID',
    message: problems.map((problem) => formatConfigProblem(file, problem)).join('\n'),
    details: { file, line: first.line, path: first.path, problems: problems.length > 0 ? problems : [first] },
  });
}

/** The closest known word, when it is close enough to be a likely typo. */
export function suggestClosest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = measureEditDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return best !== undefined && bestDistance <= allowed ? best : undefined;
}

function measureEditDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
