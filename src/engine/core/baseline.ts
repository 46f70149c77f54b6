/**
 * The pre-existing-failure baseline: which checks (and tests) already failed before the agent's
 * first edit. Recorded by `ralf task start` (it runs the task's checks on the untouched tree), or
 * by the first verify when the tree has not changed since the start point. The handoff and the
 * Loop Report list those failures as "already failing before the task", apart from the ones the
 * task introduced; with `preexisting_failures: "allow"` a check failing only the way it already
 * failed does not block the task. Pure.
 */
import { failed } from './check-status.js';
import type { CheckResult } from './types.js';

export interface BaselineFailure {
  command: string;
  fingerprint: string | null;
  failing_tests?: string[];
}

export interface Baseline {
  at: string;
  /** `task_start`: ralf task start ran the checks; `first_verify`: the first verify saw an untouched tree. */
  source: 'task_start' | 'first_verify';
  failing: BaselineFailure[];
  /** Skipped tests each check's summary counted on the untouched tree (command → count; core/skips.ts). */
  skipped?: Record<string, number>;
  /** Tests each check's summary said ran on the untouched tree (command → count; core/skips.ts). */
  tests?: Record<string, number>;
}

export function baselineOf(checks: CheckResult[], at: string, source: Baseline['source']): Baseline {
  const failing = checks
    .filter(failed)
    .map((c) => ({ command: c.command, fingerprint: c.fingerprint, ...(c.failing_tests?.length ? { failing_tests: c.failing_tests } : {}) }));
  const counted = checks.filter((c) => c.skipped_tests !== undefined);
  const ran = checks.filter((c) => c.tests_run !== undefined);
  return {
    at,
    source,
    failing,
    ...(counted.length > 0 ? { skipped: Object.fromEntries(counted.map((c) => [c.command, c.skipped_tests!])) } : {}),
    ...(ran.length > 0 ? { tests: Object.fromEntries(ran.map((c) => [c.command, c.tests_run!])) } : {}),
  };
}

/**
 * A failing check that fails only as it did before the task: the same command failed at the
 * baseline, and its failing tests are a subset of the baseline's (or, without test names, the
 * fingerprint is the same).
 */
export function failsAsBefore(check: CheckResult, baseline: Baseline | null | undefined): boolean {
  if (!baseline || check.passed || check.skipped) return false;
  const before = baseline.failing.find((f) => f.command === check.command);
  if (!before) return false;
  const now = check.failing_tests ?? [];
  if (now.length > 0 && before.failing_tests?.length) return now.every((t) => before.failing_tests!.includes(t));
  return check.fingerprint !== null && check.fingerprint === before.fingerprint;
}

/** One pre-existing failure for people: its command (first line), and what is known about it now. */
export interface AlreadyFailingEntry {
  command: string;
  /** ` — test a, test b (still failing as before)`: the tests it failed at the baseline and its state now ('' when none). */
  note: string;
}

/** What already failed before the task, and whether it still does (markdown renders the command as code, the note as text). */
export function alreadyFailingEntries(baseline: Baseline | null | undefined, last: CheckResult[] | undefined): AlreadyFailingEntry[] {
  if (!baseline) return [];
  return baseline.failing.map((f) => {
    const nowCheck = last?.find((c) => c.command === f.command);
    const tests = f.failing_tests?.length ? ` — ${listed(f.failing_tests)}` : '';
    return { command: f.command.split('\n')[0]!, note: `${tests}${stateNow(nowCheck, f, baseline)}` };
  });
}

function listed(tests: string[]): string {
  return `${tests.slice(0, 5).join(', ')}${tests.length > 5 ? ` +${tests.length - 5}` : ''}`;
}

/**
 * How a pre-existing failure stands now. Some of its tests fixed is not "as before": the agent
 * reads this line next to its own progress (fixed mul and sub, only add fails) and must not be
 * told that all three still fail.
 */
function stateNow(nowCheck: CheckResult | undefined, before: BaselineFailure, baseline: Baseline): string {
  if (nowCheck === undefined) return '';
  if (nowCheck.passed) return ' (now passes)';
  if (!failsAsBefore(nowCheck, baseline)) return ' (still failing, differently)';
  const now = nowCheck.failing_tests ?? [];
  const fixed = now.length > 0 ? (before.failing_tests ?? []).filter((t) => !now.includes(t)) : [];
  return fixed.length > 0 ? ` (still failing: ${listed(now)}; now passing: ${listed(fixed)})` : ' (still failing as before)';
}

/** The same as one line each (the `already_failing` strings of the verify answer and the handoff). */
export function alreadyFailing(baseline: Baseline | null | undefined, last: CheckResult[] | undefined): string[] {
  return alreadyFailingEntries(baseline, last).map((e) => `${e.command}${e.note}`);
}
