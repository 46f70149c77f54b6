import type { LoopContext, LoopEvent } from '../../src/engine/core/events.js';
import { newLoopState } from '../../src/engine/core/loop-state.js';
import { reduce } from '../../src/engine/core/reducer.js';
import type { CheckResult, LoopState } from '../../src/engine/core/types.js';

/** A check result; `fp` set means failing with that fingerprint. */
export function check(index: number, opts: { fp?: string | null; passed?: boolean; command?: string; tests?: string[]; skipped?: boolean; output?: string } = {}): CheckResult {
  const passed = opts.passed ?? opts.fp === undefined;
  return {
    index,
    kind: 'command_succeeds',
    command: opts.command ?? `node check${index + 1}.js`,
    passed,
    ...(opts.skipped ? { skipped: true } : {}),
    exit_code: passed ? 0 : opts.skipped ? null : 1,
    signal: null,
    timed_out: false,
    duration_ms: 5,
    output_tail: opts.output ?? (passed ? 'ok' : `Error: ${opts.fp ?? 'boom'}\n    at x (check${index + 1}.js:1:1)`),
    fingerprint: passed || opts.skipped ? null : (opts.fp ?? null),
    ...(opts.tests ? { failing_tests: opts.tests } : {}),
  };
}

export const T0 = Date.parse('2026-01-01T00:00:00.000Z');
export const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

export function ctx(limits: Partial<LoopContext['limits']> = {}): LoopContext {
  return {
    limits: { max_iterations: 3, error_fingerprint_repeats: 2, no_progress_repeats: 2, ...limits },
    plan_id: '01-02',
    plan_path: '.planning/phases/01-x/01-02-PLAN.md',
    plan_progress: { completed: 1, total: 3 },
  };
}

export function verified(checks: CheckResult[], opts: Partial<Extract<LoopEvent, { type: 'iteration_verified' }>> & { t?: number } = {}): Extract<LoopEvent, { type: 'iteration_verified' }> {
  const t = opts.t ?? 0;
  return {
    type: 'iteration_verified',
    now: at(t + 1),
    started_at: at(t),
    duration_ms: 1000,
    checks,
    diff_hash: null,
    tree: null,
    files_changed: [],
    rule4_findings: [],
    done_confirmed: false,
    requires_confirmation: false,
    start_ref: 'start-tree',
    ...opts,
  };
}

export function freshLoop(): LoopState {
  return newLoopState({ scope: 'task', task_number: 2, task_name: 'Add the parser', max_iterations: 3 });
}

/** Reduces events in order; returns every decision and the final state. */
export function run(events: LoopEvent[], c = ctx(), start = freshLoop()) {
  let state = start;
  const decisions = [];
  for (const e of events) {
    const r = reduce(state, e, c);
    state = r.state;
    decisions.push(r.decision);
  }
  return { state, decisions, last: decisions.at(-1)! };
}
