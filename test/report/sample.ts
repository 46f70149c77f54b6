/** Hand-built loop state for report tests (shaped exactly like the engine's PlanState). */
import type { CheckResult, Handoff, IterationRecord, LoopState, PlanState } from '../../src/engine/core/types.js';
import type { ReportInput } from '../../src/report/types.js';

export function check(command: string, passed: boolean, fingerprint: string | null = null, extra: Partial<CheckResult> = {}): CheckResult {
  return {
    index: 0,
    kind: 'command_succeeds',
    command,
    passed,
    exit_code: passed ? 0 : 1,
    signal: null,
    timed_out: false,
    duration_ms: 1000,
    output_tail: passed ? '' : 'Error: boom',
    fingerprint: passed ? null : fingerprint,
    ...extra,
  };
}

export function iteration(n: number, checks: CheckResult[], durationMs: number, extra: Partial<IterationRecord> = {}): IterationRecord {
  const passed = checks.every((c) => c.passed || c.skipped);
  const firstFailing = checks.find((c) => !c.passed && !c.skipped);
  return {
    iteration: n,
    started_at: `2026-03-01T10:0${n}:00.000Z`,
    finished_at: `2026-03-01T10:0${n}:05.000Z`,
    duration_ms: durationMs,
    passed,
    checks,
    fingerprint: firstFailing?.fingerprint ?? null,
    progress: true,
    progress_reasons: [],
    diff_hash: null,
    files_changed: ['src/a.ts'],
    done_confirmed: passed,
    verdict: passed ? 'pass' : 'retry',
    stop_reason: passed ? 'success' : null,
    ...extra,
  };
}

export function loop(n: number | null, name: string, iterations: IterationRecord[], extra: Partial<LoopState> = {}): LoopState {
  const last = iterations.at(-1);
  return {
    scope: n === null ? 'plan' : 'task',
    task_number: n,
    task_name: name,
    status: last?.passed ? 'passed' : iterations.length > 0 ? 'idle' : 'idle',
    stop_reason: last?.passed ? 'success' : null,
    max_iterations: 3,
    iterations,
    fingerprint_streak: 0,
    no_progress_streak: 0,
    start_ref: null,
    started_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:05:00.000Z',
    done_confirmed: last?.passed ?? false,
    escalation: null,
    handoff: null,
    total_duration_ms: iterations.reduce((a, it) => a + it.duration_ms, 0),
    ...extra,
  };
}

export function handoff(l: LoopState, extra: Partial<Handoff> = {}): Handoff {
  const last = l.iterations.at(-1);
  return {
    scope: l.scope,
    task_number: l.task_number,
    task_name: l.task_name,
    stop_reason: l.stop_reason ?? 'max_iterations',
    iterations: l.iterations.length,
    max_iterations: l.max_iterations,
    fingerprints: l.iterations.map((it) => ({ iteration: it.iteration, fingerprint: it.passed ? null : it.fingerprint })),
    auto_fixed: [],
    files_changed: [],
    still_failing: (last?.checks ?? []).filter((c) => !c.passed).map((c) => ({ command: c.command, fingerprint: c.fingerprint, output_tail: c.output_tail })),
    recommended_action: 'manual_investigation',
    recommendation: 'Investigate by hand.',
    escalation: null,
    markdown: '',
    ...extra,
  };
}

/** Fingerprints as the engine writes them: normalized error lines. */
export const FP_A = 'scoring.test.ts: AssertionError: expected <n> to be <n>';
export const FP_B = 'dice.test.ts: TypeError: roll is not a function';

/** A plan with one success after a repair, one repeated-fingerprint stop, one skip, one refusal, one not-run task and a plan loop. */
export function sampleState(): PlanState {
  const t1 = loop(1, 'Task 1: Dice roll engine', [
    iteration(1, [check('npm test', false, FP_B), check('npx tsc --noEmit', true)], 4200),
    iteration(2, [check('npm test', true), check('npx tsc --noEmit', true)], 3900),
  ]);
  const t2Base = loop(2, 'Task 2: Scoring | pipes `and ticks`', [
    iteration(1, [check('npx tsc --noEmit', false, 'tsc-fp'), check('npm test -- scoring', false, FP_A)], 5100),
    iteration(2, [check('npx tsc --noEmit', true), check('npm test -- scoring', false, FP_A)], 4800, { fingerprint: FP_A }),
  ]);
  t2Base.iterations[0]!.fingerprint = FP_A;
  const t2: LoopState = { ...t2Base, status: 'stopped', stop_reason: 'repeated_fingerprint', fingerprint_streak: 2 };
  t2.handoff = handoff(t2, { auto_fixed: ['npx tsc --noEmit'] });
  const plan = loop(null, 'Plan-level verification', [iteration(1, [check('npm test', true)], 21_000)]);
  return {
    schema_version: 2,
    plan_path: '.planning/phases/05-core/05-02-PLAN.md',
    plan_id: '05-02',
    config: { enabled: true, max_iterations: 3, error_fingerprint_repeats: 2, no_progress_repeats: 2, apply_to: { auto_tasks: true, autonomous_plans: true, tdd_tasks: false } },
    config_sources: {
      enabled: 'default',
      max_iterations: '.planning/config.json',
      error_fingerprint_repeats: 'default',
      no_progress_repeats: 'default',
      'apply_to.auto_tasks': 'default',
      'apply_to.autonomous_plans': 'default',
      'apply_to.tdd_tasks': 'default',
    },
    tasks: { '1': t1, '2': t2 },
    plan,
    not_looped: [
      { number: 3, name: 'Task 3: Handicap rules', type: 'auto', decision: 'skip', reason: 'TDD task; apply_to.tdd_tasks is false' },
      { number: 4, name: 'Task 4: Verify game feel', type: 'checkpoint:human-verify', decision: 'refuse', reason: 'checkpoint:human-verify tasks need a human; never wrapped or auto-approved' },
    ],
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:07:12.000Z',
  };
}

export function sampleInput(state: PlanState | null = sampleState()): ReportInput {
  return {
    state,
    plan: {
      id: '05-02',
      path: '.planning/phases/05-core/05-02-PLAN.md',
      autonomous: true,
      tasks: [
        { number: 1, name: 'Task 1: Dice roll engine', type: 'auto', decision: 'loop', reason: '' },
        { number: 2, name: 'Task 2: Scoring | pipes `and ticks`', type: 'auto', decision: 'loop', reason: '' },
        { number: 3, name: 'Task 3: Handicap rules', type: 'auto', decision: 'skip', reason: 'TDD task; apply_to.tdd_tasks is false' },
        { number: 4, name: 'Task 4: Verify game feel', type: 'checkpoint:human-verify', decision: 'refuse', reason: 'checkpoint:human-verify tasks need a human; never wrapped or auto-approved' },
        { number: 5, name: 'Task 5: Wire the store', type: 'auto', decision: 'loop', reason: '' },
      ],
    },
    config: { values: state?.config ?? { enabled: true, max_iterations: 3 }, sources: state?.config_sources ?? {} },
    state_path: '.planning/ralf/05-02.json',
  };
}
