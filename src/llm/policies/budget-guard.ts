import { SpineError } from '../../core/spine-error.js';
import type { Usage } from '../../core/types.js';
import type { BudgetConfig } from '../config/spine-config.js';

export interface BudgetUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface BudgetWarning {
  metric: 'calls' | 'tokens';
  used: number;
  threshold: number;
  limit?: number;
}

export interface BudgetGuard {
  /** Counts a call about to be made, or throws LLM_BUDGET_EXCEEDED when a hard limit is reached. */
  admit(role: string): void;
  /** Adds a finished call's tokens. */
  record(usage: Usage): void;
  readonly usage: BudgetUsage;
}

/**
 * Session budget (spec 001 §7): hard limits stop further calls, soft thresholds raise one warning each.
 * Calls are counted when admitted, so concurrent calls cannot overshoot `maxCalls`; tokens are known only
 * afterwards, so the call that crosses `maxTotalTokens` completes and the next one is refused.
 */
export function createBudgetGuard(
  budget: BudgetConfig,
  onWarning: (warning: BudgetWarning) => void,
): BudgetGuard {
  const usage: BudgetUsage = { calls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const warned = new Set<BudgetWarning['metric']>();

  const warnIfCrossed = (
    metric: BudgetWarning['metric'],
    used: number,
    threshold: number | undefined,
    limit?: number,
  ) => {
    if (threshold === undefined || used < threshold || warned.has(metric)) return;
    warned.add(metric);
    onWarning(limit === undefined ? { metric, used, threshold } : { metric, used, threshold, limit });
  };

  return {
    get usage() {
      return { ...usage };
    },
    admit(role) {
      if (budget.maxCalls !== undefined && usage.calls >= budget.maxCalls) {
        throw createBudgetError(role, 'calls', usage.calls, budget.maxCalls);
      }
      if (budget.maxTotalTokens !== undefined && usage.totalTokens >= budget.maxTotalTokens) {
        throw createBudgetError(role, 'tokens', usage.totalTokens, budget.maxTotalTokens);
      }
      usage.calls += 1;
      warnIfCrossed('calls', usage.calls, budget.softCalls, budget.maxCalls);
    },
    record(callUsage) {
      const prompt = callUsage.promptTokens ?? 0;
      const completion = callUsage.completionTokens ?? 0;
      usage.promptTokens += prompt;
      usage.completionTokens += completion;
      usage.totalTokens += callUsage.totalTokens ?? prompt + completion;
      warnIfCrossed('tokens', usage.totalTokens, budget.softTotalTokens, budget.maxTotalTokens);
    },
  };
}

function createBudgetError(
  role: string,
  metric: 'calls' | 'tokens',
  used: number,
  limit: number,
): SpineError {
  const what = metric === 'calls' ? 'calls' : 'total tokens';
  return new SpineError({
    code: 'LLM_BUDGET_EXCEEDED',
    message: `the session budget of ${limit} ${what} is used up (${used} used); no further calls are made`,
    details: { role, metric, used, limit },
  });
}
