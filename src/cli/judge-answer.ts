import type { EngineResult } from '../engine/engine-types.js';

/** The exit status of `spine ask` when the run ended but its answer was cut or empty (README: exit statuses). */
export const incompleteAnswerExitCode = 3;

export type AnswerVerdict = 'complete' | 'cut' | 'empty';

/**
 * Whether a run that ended without an error gave a usable answer: one cut by the token limit, or one with
 * reasoning and no text, is not a success, however the runner finished it.
 */
export function judgeAnswer(result: EngineResult): { verdict: AnswerVerdict; note?: string } {
  if (result.error !== undefined || result.phase === 'Running') return { verdict: 'complete' };
  if (result.finishReason === 'length') {
    return {
      verdict: 'cut',
      note: 'the answer was cut off at its token limit (finish length): raise --max-tokens, or the runner’s context or output cap (llama-server -c / -n)',
    };
  }
  if (result.assistantText.trim() === '' && result.turns > 0) {
    return {
      verdict: 'empty',
      note: 'the model gave no answer text (only reasoning, or nothing): ask again, or raise --max-tokens if its reasoning used the budget',
    };
  }
  return { verdict: 'complete' };
}
