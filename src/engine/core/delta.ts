/**
 * The per-iteration delta (pure): what changed between the previous iteration and this one,
 * computed ONCE and read by every stop rule. The seed says "stop when the signature repeats
 * without meaningful state change"; this module is where "meaningful state change" is defined.
 *
 * - checks fixed / tests fixed: SETS (a check or failing unit that failed before and does not
 *   now), so fixing any one of N failing tests counts, in whatever order; not when the run
 *   counts fewer tests than before (a syntax error stopped it: the others did not run);
 * - errors fewer: the same failing units on fewer output lines (one of three identical
 *   diagnostics fixed: the set cannot show it, unit-lines.ts counts the lines);
 * - failed fewer: the same failing units (often none: output whose failures the fingerprint
 *   cannot name) while the run's own summary counts fewer failed tests (`Failed 3` → `Failed 2`);
 * - stage advanced: within a check that still fails, it got further (it crashed or failed to
 *   compile before and now names failing tests), or the first failure moved to a later check;
 * - novel tree: the working tree (the progress key: a hash of every change since the start
 *   except `.planning/ralf/` and other open loops' files) was not seen before in this loop.
 *   Returning to an earlier tree (oscillation, an undone edit) is never progress.
 * - returned result: the checks report exactly what they reported at an earlier iteration
 *   (not the previous one: a result that stays is the fingerprint rule's). An agent that
 *   alternates between two attempts with a cosmetic change each time makes a new tree every
 *   iteration but goes round in circles; that is no progress either.
 */
import { failed } from './check-status.js';
import type { CheckResult, IterationDelta } from './types.js';

type CheckFacts = Pick<CheckResult, 'index' | 'kind' | 'command' | 'passed' | 'skipped' | 'failing_tests' | 'fingerprint' | 'unit_lines' | 'tests_run' | 'tests_failed'>;

/** What the delta needs to know about one iteration. */
export interface DeltaInput {
  checks: CheckFacts[];
  fingerprint: string | null;
  /** Hash of the changes since the loop's start (null: none, the start tree itself). */
  diff_hash: string | null;
  /**
   * Hash of the contents of the files the task names (`<files>`, exact paths), read with the
   * snapshot: it sees a file git ignores (`.env`), which the progress key cannot. Absent: not read.
   */
  declared_hash?: string | null;
}

export interface DeltaHistory {
  /** Every earlier iteration of the loop, oldest first (may be empty). */
  iterations: Array<DeltaInput & { iteration: number; after_hash?: string | null; declared_after_hash?: string | null }>;
  /** Whether `diff_hash` identifies the tree (false outside git when the task lists no files). */
  tree_known: boolean;
}

/** The iteration's delta as recorded (`IterationDelta`), before it is judged, plus whether it is the loop's first. */
export type Delta = Omit<IterationDelta, 'improved'> & { first: boolean };

/** How the stop rules read a delta. */
export interface DeltaJudgement {
  /** Something the checks can see got better (fixed or advanced) on a tree not seen before. */
  improved: boolean;
  /** For `no_progress`: a novel tree (or, when the tree is unknown, an improvement). */
  progress: boolean;
  reasons: string[];
}

/** Checks are matched across iterations by kind + command (the plan may be edited between them). */
const keyOf = (c: Pick<CheckResult, 'kind' | 'command'>) => `${c.kind}\u0000${c.command}`;

function firstFailingIndex(checks: CheckFacts[]): number {
  return checks.findIndex(failed);
}

/**
 * What the checks reported, as one comparable key: per check (kind + command) whether it
 * passed, was skipped, or failed with which fingerprint and which failing units.
 */
export function resultKey(checks: CheckFacts[]): string {
  return JSON.stringify(checks.map((c) => [keyOf(c), c.passed ? 'pass' : c.skipped ? 'skipped' : [c.fingerprint, [...(c.failing_tests ?? [])].sort(), c.unit_lines ?? null, c.tests_failed ?? null]]));
}

/** Every failing check and its fingerprint, in plan order: what "the same error" means for the whole iteration. */
export function failureSignature(checks: CheckFacts[]): string {
  return JSON.stringify(checks.filter(failed).map((c) => [keyOf(c), c.fingerprint]));
}

/** The latest iteration before the previous one whose checks reported exactly this (when the previous one reported something else). */
function returnedResult(iterations: DeltaHistory['iterations'], cur: DeltaInput): number | null {
  const key = resultKey(cur.checks);
  if (iterations.length < 2 || resultKey(iterations.at(-1)!.checks) === key) return null;
  for (let i = iterations.length - 2; i >= 0; i--) if (resultKey(iterations[i]!.checks) === key) return iterations[i]!.iteration;
  return null;
}

export function computeDelta(history: DeltaHistory, cur: DeltaInput): Delta {
  const prev = history.iterations.at(-1);
  if (!prev) {
    return { first: true, checks_fixed: [], tests_fixed: [], errors_fewer: [], failed_fewer: [], fingerprint_changed: cur.fingerprint !== null, failures_changed: cur.fingerprint !== null, stage_advanced: [], novel_tree: history.tree_known ? true : null, returned_to: null, returned_result: null };
  }
  const curByKey = new Map(cur.checks.map((c) => [keyOf(c), c]));
  const checksFixed: string[] = [];
  const testsFixed = new Set<string>();
  const stage: string[] = [];
  const fewer: string[] = [];
  const failedFewer: string[] = [];
  for (const p of prev.checks) {
    const c = curByKey.get(keyOf(p));
    if (!c || !failed(p)) continue;
    if (c.passed) {
      checksFixed.push(p.command);
      continue;
    }
    if (!failed(c)) continue; // skipped now: unknown
    const before = new Set(p.failing_tests ?? []);
    const after = new Set(c.failing_tests ?? lastOfList(before, c));
    // A check whose output named no failing unit before (a compile error, a crash) and names
    // some now got further: the error moved downstream inside the check.
    if (before.size === 0 && after.size > 0) stage.push(`${p.command}: from an error before any test ran to failing tests`);
    // A run that counts fewer tests than before (or none: a syntax error stopped it) did not
    // run the tests that left the list: they are not fixed, they are not known.
    const ranLess = p.tests_run !== undefined && (c.tests_run === undefined || c.tests_run < p.tests_run);
    const same = before.size === after.size && [...before].every((t) => after.has(t));
    // The units cannot show it (the same set, often none: failures the fingerprint cannot name),
    // the run's own count of failed tests can: one of several fixed. A count of 0 on a failing
    // run does not explain its failure (errors, not failures): not read.
    if (same && !ranLess && p.tests_failed !== undefined && c.tests_failed !== undefined && c.tests_failed > 0 && c.tests_failed < p.tests_failed) failedFewer.push(`${p.command}: ${p.tests_failed} → ${c.tests_failed}`);
    // Unrecognised output now tells us nothing about which tests pass.
    if (after.size === 0) continue;
    if (!ranLess) for (const t of before) if (!after.has(t)) testsFixed.add(t);
    // The same failing units on fewer lines: one of several identical diagnostics fixed.
    if (same && p.unit_lines !== undefined && c.unit_lines !== undefined && c.unit_lines < p.unit_lines) fewer.push(`${p.command}: ${p.unit_lines} → ${c.unit_lines}`);
  }
  const fingerprintChanged = cur.fingerprint !== prev.fingerprint;
  if (fingerprintChanged && cur.fingerprint !== null) {
    const before = firstFailingIndex(prev.checks);
    const after = firstFailingIndex(cur.checks);
    if (before !== -1 && after > before) stage.push(`the first failure moved from check ${before + 1} to check ${after + 1}`);
  }
  let novel: boolean | null = null;
  let returnedTo: number | null = null;
  if (history.tree_known) {
    for (let i = history.iterations.length - 1; i >= 0 && returnedTo === null; i--) {
      const it = history.iterations[i]!;
      if ((it.diff_hash === cur.diff_hash || (it.after_hash != null && it.after_hash === cur.diff_hash)) && sameDeclared(it, cur)) returnedTo = it.iteration;
    }
    // The start tree (no changes at all) was seen before iteration 1 — with the named files as
    // iteration 1 read them, when it ran on the start tree (else their start is unknown).
    const first = history.iterations[0];
    if (returnedTo === null && cur.diff_hash === null && (first === undefined || first.diff_hash !== null || sameDeclared(first, cur))) returnedTo = 0;
    novel = returnedTo === null;
  }
  return { first: false, checks_fixed: checksFixed, tests_fixed: [...testsFixed].sort(), errors_fewer: fewer, failed_fewer: failedFewer, fingerprint_changed: fingerprintChanged, failures_changed: fingerprintChanged || failureSignature(prev.checks) !== failureSignature(cur.checks), stage_advanced: stage, novel_tree: novel, returned_to: returnedTo, returned_result: returnedResult(history.iterations, cur) };
}

/**
 * Whether the task's named files hold what they held at an earlier iteration (before or after its
 * checks). The progress key leaves out what git ignores: a fix written into the `.env` the task
 * names is a new state although the key stays. Unknown on either side: as the key says.
 */
function sameDeclared(it: DeltaHistory['iterations'][number], cur: DeltaInput): boolean {
  if (cur.declared_hash == null || it.declared_hash == null) return true;
  return it.declared_hash === cur.declared_hash || it.declared_after_hash === cur.declared_hash;
}

const MAX_LISTED = 5;
const list = (xs: string[]) => (xs.length <= MAX_LISTED ? xs.join(', ') : `${xs.slice(0, MAX_LISTED).join(', ')} and ${xs.length - MAX_LISTED} more`);

/**
 * A list of failures in one shape names its units only while it holds two or more
 * (fingerprint.ts, siblingUnits): when it shrinks to one, that one is the check's
 * fingerprint line, so the others were fixed.
 */
function lastOfList(before: Set<string>, cur: Pick<CheckResult, 'fingerprint'>): string[] {
  if (before.size < 2 || !cur.fingerprint) return [];
  const left = [...before].filter((u) => cur.fingerprint!.startsWith(u));
  return left.length === 1 ? left : [];
}

export function judgeDelta(d: Delta, prevIteration: number | null): DeltaJudgement {
  if (d.first) return { improved: true, progress: true, reasons: ['first iteration'] };
  const reasons: string[] = [];
  if (d.checks_fixed.length > 0) reasons.push(`check${d.checks_fixed.length === 1 ? '' : 's'} fixed: ${list(d.checks_fixed)}`);
  if (d.tests_fixed.length > 0) reasons.push(`no longer failing: ${list(d.tests_fixed)}`);
  if (d.errors_fewer?.length) reasons.push(`the same errors in fewer places: ${list(d.errors_fewer)}`);
  if (d.failed_fewer?.length) reasons.push(`fewer failed tests by the run's own count: ${list(d.failed_fewer)}`);
  for (const s of d.stage_advanced) reasons.push(`error moved downstream: ${s}`);
  const betterSeen = reasons.length > 0;
  if (d.novel_tree === false) {
    const where = d.returned_to === 0 ? 'the tree the loop started from' : d.returned_to === prevIteration ? `the same tree as iteration ${d.returned_to} (nothing changed)` : `the tree of iteration ${d.returned_to}`;
    const note = betterSeen ? ` (${reasons.join('; ')} without a code change: not counted)` : '';
    return { improved: false, progress: false, reasons: [`no progress: back to ${where}${note}`] };
  }
  if (d.returned_result != null) {
    // A new tree (or an unknown one) whose checks went back to what an earlier iteration reported.
    const note = betterSeen ? ` (${reasons.join('; ')} against iteration ${prevIteration}: not counted)` : '';
    return { improved: false, progress: false, reasons: [`no progress: the checks report what they reported at iteration ${d.returned_result}${d.novel_tree ? ' (the code changed, the result went back)' : ''}${note}`] };
  }
  if (d.novel_tree === true) {
    if (betterSeen) return { improved: true, progress: true, reasons };
    return { improved: false, progress: true, reasons: [`code changed${d.fingerprint_changed || d.failures_changed ? ', a different error' : ', the same error'}`] };
  }
  // Tree unknown (outside git, no task files): only what the checks show counts.
  if (betterSeen) return { improved: true, progress: true, reasons };
  return { improved: false, progress: false, reasons: [`no progress: nothing fixed or further along${d.fingerprint_changed ? ' (a different error that is not downstream)' : ''}`] };
}
