import type { Usage } from '../../../core/types.js';

// Ollama reports durations in nanoseconds (RUNNER-QUIRKS §61); Usage carries milliseconds.
const durationFields: ReadonlyArray<[wire: string, name: string]> = [
  ['total_duration', 'totalMs'],
  ['load_duration', 'loadMs'],
  ['prompt_eval_duration', 'promptEvalMs'],
  ['eval_duration', 'evalMs'],
];

/**
 * Usage from Ollama's final `done:true` object: `prompt_eval_count` / `eval_count` (either may be missing,
 * e.g. a fully cached prompt), and the nanosecond durations as `timings` in milliseconds.
 */
export function readOllamaUsage(final: Record<string, unknown> | undefined, latencyMs: number): Usage {
  const promptTokens = readCount(final?.prompt_eval_count);
  const completionTokens = readCount(final?.eval_count);
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens === null || completionTokens === null ? null : promptTokens + completionTokens,
    latencyMs,
  };
  const timings: Record<string, number> = {};
  for (const [wire, name] of durationFields) {
    const nanoseconds = readCount(final?.[wire]);
    if (nanoseconds !== null) timings[name] = nanoseconds / 1e6;
  }
  if (Object.keys(timings).length > 0) usage.timings = timings;
  return usage;
}

function readCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** True when the final object carried any count or duration (a `load` answer carries none). */
export function hasOllamaUsage(final: Record<string, unknown>): boolean {
  return ['prompt_eval_count', 'eval_count', ...durationFields.map(([wire]) => wire)].some(
    (key) => readCount(final[key]) !== null,
  );
}
