/**
 * Tests skipped during the loop. A test the agent marks skipped (or todo, pending, xfail)
 * verifies nothing, and a green run that got there by skipping its failing tests is work the
 * checks did not verify. Test runners count their skips in their summary
 * (src/verify/skip-count.ts); a check that now skips more than it did where the loop started
 * is named in the verify answer, the iteration and the Loop Report, for a human to look at.
 * Not a failure: a task may add a platform-only test on purpose. Pure.
 */
import type { Baseline } from './baseline.js';
import type { CheckResult } from './types.js';

export interface MoreSkipped {
  command: string;
  /** Skipped where the loop started: the untouched tree's run (baseline), else the first iteration that counted them. */
  before: number;
  now: number;
}

/** Checks of this verify that skip more tests than where the loop started. */
export function moreSkipped(checks: readonly CheckResult[], baseline: Baseline | null | undefined, earlier: ReadonlyArray<{ checks: readonly CheckResult[] }>): MoreSkipped[] {
  const out: MoreSkipped[] = [];
  for (const c of checks) {
    if (c.skipped_tests === undefined) continue;
    const before = baseline?.skipped?.[c.command] ?? firstCount(earlier, c.command);
    if (before !== undefined && c.skipped_tests > before) out.push({ command: c.command, before, now: c.skipped_tests });
  }
  return out;
}

function firstCount(earlier: ReadonlyArray<{ checks: readonly CheckResult[] }>, command: string): number | undefined {
  for (const it of earlier) {
    const n = it.checks.find((c) => c.command === command)?.skipped_tests;
    if (n !== undefined) return n;
  }
  return undefined;
}
