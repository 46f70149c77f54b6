/**
 * Progress between two consecutive iterations (pure). The seed: "a failing check now
 * passes, OR the fingerprint changed to a downstream error, OR the diff changed". We
 * make each criterion concrete and record which ones held, so a human can audit it.
 */
import type { CheckResult } from './types.js';

/** What progress needs to know about an iteration. */
export interface ProgressInput {
  checks: Pick<CheckResult, 'index' | 'kind' | 'command' | 'passed' | 'skipped' | 'failing_tests'>[];
  fingerprint: string | null;
  diff_hash: string | null;
}

export interface ProgressAssessment {
  progress: boolean;
  reasons: string[];
}

/** Checks are matched across iterations by kind + command (the plan may be edited between them). */
const keyOf = (c: Pick<CheckResult, 'kind' | 'command'>) => `${c.kind}\u0000${c.command}`;
const failed = (c: Pick<CheckResult, 'passed' | 'skipped'>) => !c.passed && !c.skipped;

function firstFailingIndex(checks: ProgressInput['checks']): number {
  const i = checks.findIndex(failed);
  return i === -1 ? Number.POSITIVE_INFINITY : i;
}

/**
 * Progress of `cur` against `prev`, in this order of reasons:
 * 1. a check that failed in `prev` passes now;
 * 2. fewer failing checks (only reported when 1 does not already explain it);
 * 3. a check failing in both has fewer failing tests (when both outputs name their tests);
 * 4. a downstream error: the fingerprint changed and the first failing check is later in the order;
 * 5. the diff of the task's files changed (its fingerprint differs from the previous iteration's).
 * Anything else (same failures, an unrelated or upstream new error, untouched files) is no progress.
 */
export function assessProgress(prev: ProgressInput, cur: ProgressInput): ProgressAssessment {
  const reasons: string[] = [];
  const curByKey = new Map(cur.checks.map((c) => [keyOf(c), c]));

  for (const p of prev.checks) {
    const c = curByKey.get(keyOf(p));
    if (c && failed(p) && c.passed) reasons.push(`check fixed: ${p.command}`);
  }

  const prevFailing = prev.checks.filter(failed).length;
  const curFailing = cur.checks.filter(failed).length;
  if (reasons.length === 0 && curFailing < prevFailing) reasons.push(`fewer failing checks: ${prevFailing} → ${curFailing}`);

  for (const p of prev.checks) {
    const c = curByKey.get(keyOf(p));
    if (!c || !failed(p) || !failed(c)) continue;
    const before = new Set(p.failing_tests ?? []);
    const after = new Set(c.failing_tests ?? []);
    // Unrecognised output on either side tells us nothing about tests.
    if (before.size === 0 || after.size === 0) continue;
    if (after.size < before.size) {
      reasons.push(`fewer failing tests in ${p.command}: ${before.size} → ${after.size}`);
    }
  }

  if (cur.fingerprint !== null && cur.fingerprint !== prev.fingerprint) {
    const before = firstFailingIndex(prev.checks);
    const after = firstFailingIndex(cur.checks);
    if (Number.isFinite(before) && Number.isFinite(after) && after > before) {
      reasons.push(`downstream error: the first failure moved from check ${before + 1} to check ${after + 1}`);
    }
  }

  if (cur.diff_hash !== prev.diff_hash) reasons.push('code changed: the diff of the task files differs from the previous iteration');

  if (reasons.length > 0) return { progress: true, reasons };
  const why: string[] = [];
  why.push(curFailing === prevFailing ? 'the same number of failing checks' : `more failing checks (${prevFailing} → ${curFailing})`);
  why.push(cur.fingerprint === prev.fingerprint ? 'the same error fingerprint' : 'a different error that is not downstream');
  why.push('task files unchanged');
  return { progress: false, reasons: [`no progress: ${why.join(', ')}`] };
}
