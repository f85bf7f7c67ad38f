import { describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import type { Usage } from '../../core/types.js';
import { type BudgetWarning, createBudgetGuard } from './budget-guard.js';

const usage = (promptTokens: number, completionTokens: number): Usage => ({
  promptTokens,
  completionTokens,
  totalTokens: null,
  latencyMs: 1,
});

function errorOf(run: () => void): SpineError | undefined {
  try {
    run();
  } catch (error) {
    if (SpineError.is(error)) return error;
    throw error;
  }
  return undefined;
}

describe('createBudgetGuard', () => {
  it('stops calls past max_calls with LLM_BUDGET_EXCEEDED', () => {
    const guard = createBudgetGuard({ maxCalls: 2 }, () => {});
    guard.admit('router');
    guard.admit('router');
    const error = errorOf(() => guard.admit('coding'));
    expect(error?.code).toBe('LLM_BUDGET_EXCEEDED');
    expect(error?.details).toEqual({ role: 'coding', metric: 'calls', used: 2, limit: 2 });
    expect(guard.usage.calls).toBe(2);
  });

  it('stops the call after the one that crossed max_total_tokens', () => {
    const guard = createBudgetGuard({ maxTotalTokens: 100 }, () => {});
    guard.admit('r');
    guard.record(usage(60, 30));
    guard.admit('r');
    guard.record(usage(20, 5));
    expect(guard.usage).toEqual({ calls: 2, promptTokens: 80, completionTokens: 35, totalTokens: 115 });
    expect(errorOf(() => guard.admit('r'))?.details).toMatchObject({
      metric: 'tokens',
      used: 115,
      limit: 100,
    });
  });

  it('warns once per metric when a soft threshold is crossed, and never stops for it', () => {
    const warnings: BudgetWarning[] = [];
    const guard = createBudgetGuard({ softCalls: 2, softTotalTokens: 10, maxTotalTokens: 1000 }, (warning) =>
      warnings.push(warning),
    );
    for (let call = 0; call < 4; call++) {
      guard.admit('r');
      guard.record({ ...usage(3, 3), totalTokens: 6 });
    }
    expect(warnings).toEqual([
      { metric: 'calls', used: 2, threshold: 2 },
      { metric: 'tokens', used: 12, threshold: 10, limit: 1000 },
    ]);
  });

  it('counts nothing without limits and never refuses', () => {
    const guard = createBudgetGuard({}, () => {});
    for (let call = 0; call < 50; call++) guard.admit('r');
    expect(guard.usage.calls).toBe(50);
  });
});
