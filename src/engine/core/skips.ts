/**
 * Tests skipped or deleted during the loop. A test the agent marks skipped (or todo, pending,
 * xfail) or deletes verifies nothing, and a green run that got there that way is work the
 * checks did not verify. Test runners count their tests and skips in their summary
 * (src/verify/summary-counts.ts); a check that now skips more tests than where the
 * loop started, or runs fewer tests than it did earlier in the loop, is named in the verify
 * answer, the iteration and the Loop Report, and while it passes it is **held as failing**
 * (`holdWeakened`): the loop never passes on it. A human who meant the change resets the loop
 * (`ralf task reset`), which starts counting again from the tree as it is. Pure.
 */
import type { Baseline } from './baseline.js';
import type { CheckResult } from './types.js';

export interface MoreSkipped {
  command: string;
  /** Skipped where the loop started (the untouched tree's run, else the first iteration that counted); for fewer_tests: the most tests it ran before in the loop. */
  before: number;
  now: number;
}

type Earlier = ReadonlyArray<{ checks: readonly CheckResult[] }>;

/** Checks of this verify that skip more tests than where the loop started. */
export function moreSkipped(checks: readonly CheckResult[], baseline: Baseline | null | undefined, earlier: Earlier): MoreSkipped[] {
  const out: MoreSkipped[] = [];
  for (const c of checks) {
    if (c.skipped_tests === undefined) continue;
    const before = baseline?.skipped?.[c.command] ?? firstCount(earlier, c.command);
    if (before !== undefined && c.skipped_tests > before) out.push({ command: c.command, before, now: c.skipped_tests });
  }
  return out;
}

/**
 * Checks of this verify whose run counts fewer tests than the most it counted before in this
 * loop (the untouched tree's run or any earlier iteration): a test was deleted (or no longer
 * collected). The most, not the first: a test added during the loop and then deleted is
 * deleted too.
 */
export function fewerTests(checks: readonly CheckResult[], baseline: Baseline | null | undefined, earlier: Earlier): MoreSkipped[] {
  const out: MoreSkipped[] = [];
  for (const c of checks) {
    if (c.tests_run === undefined) continue;
    let most = baseline?.tests?.[c.command];
    for (const it of earlier) {
      const n = it.checks.find((e) => e.command === c.command)?.tests_run;
      if (n !== undefined && (most === undefined || n > most)) most = n;
    }
    if (most !== undefined && c.tests_run < most) out.push({ command: c.command, before: most, now: c.tests_run });
  }
  return out;
}

/**
 * Passing checks that skip more or run fewer tests are held as failing: exit 0 there means less
 * than it meant where the loop started. The fingerprint names the counts (not the run's output,
 * which is green), so an agent that leaves the skip in place repeats it and is stopped.
 */
export function holdWeakened(checks: CheckResult[], skipped: readonly MoreSkipped[], fewer: readonly MoreSkipped[]): CheckResult[] {
  return checks.map((c) => {
    if (!c.passed) return c;
    const why = [...skipped.filter((m) => m.command === c.command).map(skipsText), ...fewer.filter((m) => m.command === c.command).map(runsText)];
    if (why.length === 0) return c;
    const held = `passes only by ${skipped.some((m) => m.command === c.command) ? 'skipping' : 'running fewer'} tests: it ${why.join(' and ')}`;
    return { ...c, passed: false, held, fingerprint: `held: ${why.join('; ')}`, notes: [...(c.notes ?? []), held], output_tail: `[ralf] ${held}\n${c.output_tail}` };
  });
}

/** `skips 2 tests (0 where the loop started)`: how a check of `moreSkipped` is named everywhere. */
export function skipsText(m: MoreSkipped): string {
  return `skips ${tests(m.now)} (${m.before} where the loop started)`;
}

/** `runs 3 tests (4 earlier in the loop)`: how a check of `fewerTests` is named everywhere. */
export function runsText(m: MoreSkipped): string {
  return `runs ${tests(m.now)} (${m.before} earlier in the loop)`;
}

const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;

function firstCount(earlier: Earlier, command: string): number | undefined {
  for (const it of earlier) {
    const n = it.checks.find((c) => c.command === command)?.skipped_tests;
    if (n !== undefined) return n;
  }
  return undefined;
}
