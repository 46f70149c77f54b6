/**
 * The run's budgets: `--duration` (wall time of this `ralf run`) and `--max-tokens`
 * (tokens the agents reported in this `ralf run`). Pure: pass `now` and the counts in.
 * A budget is checked between iterations (an iteration in flight is also cut short by the
 * time budget: its timeout is the smaller of the iteration timeout and the time left).
 */
export interface Budgets {
  /** Wall-clock budget in ms; null: none. */
  duration_ms: number | null;
  max_tokens: number | null;
}

export interface BudgetUse {
  started_at_ms: number;
  now_ms: number;
  tokens: number;
}

export type BudgetStop = { budget: 'time'; reason: 'time_budget'; detail: string } | { budget: 'token'; reason: 'token_budget'; detail: string };

export function exhaustedBudget(b: Budgets, use: BudgetUse): BudgetStop | null {
  if (b.duration_ms !== null && use.now_ms - use.started_at_ms >= b.duration_ms) {
    return { budget: 'time', reason: 'time_budget', detail: `--duration ${Math.round(b.duration_ms / 1000)}s used up after ${Math.round((use.now_ms - use.started_at_ms) / 1000)}s` };
  }
  if (b.max_tokens !== null && use.tokens >= b.max_tokens) {
    return { budget: 'token', reason: 'token_budget', detail: `--max-tokens ${b.max_tokens} used up (${use.tokens} tokens)` };
  }
  return null;
}

/** The timeout for the next agent process: the iteration timeout, capped by the time left. */
export function iterationTimeoutMs(b: Budgets, use: BudgetUse, iterationTimeoutMs: number): number {
  if (b.duration_ms === null) return iterationTimeoutMs;
  const left = b.duration_ms - (use.now_ms - use.started_at_ms);
  return Math.max(1, Math.min(iterationTimeoutMs, left));
}
