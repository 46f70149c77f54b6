/**
 * What a test run's own summary counts (pure): how many tests ran and how many were skipped.
 * A check that passes because its failing test was skipped or deleted verifies less than it did
 * where the loop started, and its exit status cannot tell; its summary can (core/skips.ts
 * compares). Read from any runner's summary by meaning, not by tool, in one pass over the lines:
 *
 * Tests run (`tests_run`):
 * - a count next to the word "test(s)": `Ran 3 tests` (unittest), `running 3 tests` (cargo),
 *   `4 examples` (RSpec), `Tests: 4` (PHPUnit), a line that is only `tests 3` (node:test's
 *   `# tests 3`, `ℹ tests 3`);
 * - `3 total` (jest); `out of 3` on a line about tests (ctest's `67% tests passed, 1 tests failed
 *   out of 3`);
 * - the counts next to outcome words on one summary line that counts passed tests, added up:
 *   `2 passed, 1 failed` (pytest), `1 failed | 2 passed (3)` (vitest), `3 passed; 0 failed;
 *   0 ignored` (cargo). A line without a pass count may list only some outcomes (mocha's
 *   `1 failing` under `2 passing`, a script's `1 failed`): it is no total, and not read.
 *   Errors are no outcome word: a compiler's `Found 3 errors` counts no tests.
 *
 * Tests skipped (`skipped_tests`): a count next to a skip word in either order — `3 passed,
 * 1 skipped` (pytest, vitest, jest, cargo's `1 ignored`, mocha's `1 pending`, RSpec), `skipped 1`
 * / `# skip 1` / `Skipped: 1` / `skipped=1` (node:test, TAP, PHPUnit, unittest); 0 when the
 * summary counts tests but names no skip (pytest's `3 failed`).
 *
 * Tests failed (`tests_failed`): a count next to a fail word in either order — `2 failed`
 * (pytest, vitest, cargo), `1 failing` (mocha), `1 tests failed` (ctest), `1 failure` (RSpec),
 * `Failed 2` (tcltest), `Failed: 1` (prove, PHPUnit's `Failures: 1`), `# fail 1` (node:test),
 * `failures=1` (unittest); 0 when the summary counts tests but names no failure. The last line
 * stating one wins (the final summary; a per-test line may hold a number). The loop reads it where
 * a runner names no failing test (core/delta.ts: fewer failed by the run's own count).
 *
 * A row of labels each before its count (tcltest's `Total 3  Passed 1  Skipped 0  Failed 2`) is
 * read label by label (not as `1 Skipped`).
 *
 * The largest count of the output is taken (per-file lines, then the total). A runner that
 * states no count (`go test` without -v, a compiler, a bare script) gives null: nothing is compared.
 */

export interface SummaryCounts {
  /** Tests the run says it ran (or collected); null: it states none. */
  tests_run: number | null;
  /** Tests it says it skipped; null: it states neither skips nor tests. */
  skipped_tests: number | null;
  /** Tests it says failed; null: it states neither failures nor tests. */
  tests_failed: number | null;
}

/** A number that is a count: not part of a word, a version, a path or a time. */
const COUNT = String.raw`(?<![\w.:/-])(\d{1,6})`;
/** Words for a test that was not run or not held to its result. */
const SKIP_WORD = String.raw`(?:skipped|skips?|pending|ignored|todo|xfail(?:ed)?|disabled)`;
const OUTCOME = String.raw`(?:passed|passing|failed|failing|skipped|ignored|pending|todo|xfailed|xpassed)`;

const COUNT_THEN_SKIP = new RegExp(String.raw`${COUNT}\s+(?:tests?\s+)?${SKIP_WORD}\b`, 'gi');
const SKIP_THEN_COUNT = new RegExp(String.raw`\b${SKIP_WORD}(?:\s+tests?)?\s*[:=]?\s*(\d{1,6})\b(?![.:/-]?\w)`, 'gi');
const COUNT_THEN_OUTCOME = new RegExp(String.raw`${COUNT}\s+(?:tests?\s+)?(${OUTCOME})\b`, 'gi');
/** Words for a test that ran and failed. */
const FAIL_WORD = String.raw`(?:failed|failing|failures?|fail)`;
// Not a fail word that labels the number after it (prove's `Tests: 3 Failed: 1`), nor a list of
// test numbers (prove's `Failed test:  2`, `Failed tests:  1-3`).
const COUNT_THEN_FAIL = new RegExp(String.raw`${COUNT}\s+(?:tests?\s+)?${FAIL_WORD}\b(?!\s*[:=]\s*\d)`, 'gi');
const FAIL_THEN_COUNT = new RegExp(String.raw`\b${FAIL_WORD}\s*[:=]?\s*(\d{1,6})\b(?![.:/-]?\w)`, 'gi');
// `1 tests failed` counts failures, not the tests run (the outcome word after it says which).
const COUNT_THEN_TESTS = new RegExp(String.raw`${COUNT}\s+(?:tests?|examples?)\b(?!\s+${OUTCOME}\b)`, 'gi');
/** `… out of 3` on a line about tests: the total (ctest). */
const OUT_OF = /\bout of\s+(\d{1,6})\b(?![.:/-]?\w)/gi;
const ABOUT_TESTS = /\btests?\b/i;
const TESTS_COLON = /(?<![\w.:/-])tests?:\s+(\d{1,6})(?![\w.:/-])/gi;
const TOTAL = new RegExp(String.raw`${COUNT}\s+total\b`, 'gi');
const TESTS_LINE = /^\W{0,3}tests?\s*[:=]?\s*(\d{1,6})\s*$/i;
/**
 * A row of labelled counts, each label before its number (tcltest's `all.tcl:  Total 3  Passed 1
 * Skipped 0  Failed 2`): read label by label, never as `1 Skipped` (a count before a word).
 */
const LABELLED_ROW = /^(?:[^\s:]+:\s+)?(?:[A-Za-z]+(?:\s*[:=]\s*|\s+)\d{1,6}(?:[,;]?\s+|$)){2,}$/;
const LABELLED_PAIR = /([A-Za-z]+)(?:\s*[:=]\s*|\s+)(\d{1,6})/g;
const SKIP_LABEL = new RegExp(`^${SKIP_WORD}$`, 'i');
const FAIL_LABEL = new RegExp(`^${FAIL_WORD}$`, 'i');
/** Summary lines are short; a long line is prose or data. */
const MAX_LINE = 240;

/** The counts of a labelled row, or null when the line is not one (or labels no test count). */
function labelledRow(line: string): { tests: number | null; skipped: number | null; failed: number | null } | null {
  if (!LABELLED_ROW.test(line)) return null;
  let total: number | null = null;
  let sum = 0;
  let passes = false;
  let skipped: number | null = null;
  let failed: number | null = null;
  for (const [, label, n] of line.matchAll(LABELLED_PAIR)) {
    const count = Number(n);
    if (/^(?:total|tests?)$/i.test(label!)) total = count;
    else if (SKIP_LABEL.test(label!)) (skipped = count), (sum += count);
    else if (FAIL_LABEL.test(label!)) (failed = count), (sum += count);
    else if (/^pass(?:ed|ing)?$/i.test(label!)) (passes = true), (sum += count);
  }
  if (total === null && !passes && skipped === null && failed === null) return null;
  return { tests: total ?? (passes ? sum : null), skipped, failed };
}

export function summaryCounts(output: string): SummaryCounts {
  let tests: number | null = null;
  let skipped: number | null = null;
  let failed: number | null = null;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line.length > MAX_LINE || !/\d/.test(line)) continue;
    const row = labelledRow(line);
    if (row) {
      if (row.tests !== null) tests = Math.max(tests ?? 0, row.tests);
      if (row.skipped !== null) skipped = Math.max(skipped ?? 0, row.skipped);
      if (row.failed !== null) failed = row.failed;
      continue;
    }
    for (const re of [COUNT_THEN_SKIP, SKIP_THEN_COUNT]) for (const m of line.matchAll(re)) skipped = Math.max(skipped ?? 0, Number(m[1]));
    // The failed count of the last line that states one: the run's final summary comes after
    // per-test lines whose names may hold a number (`==== alpha-1 returns 1 FAILED`).
    const lineFailed = [COUNT_THEN_FAIL, FAIL_THEN_COUNT].flatMap((re) => [...line.matchAll(re)].map((m) => Number(m[1])));
    if (lineFailed.length > 0) failed = Math.max(...lineFailed);
    let sum = 0;
    let passes = false;
    for (const m of line.matchAll(COUNT_THEN_OUTCOME)) {
      sum += Number(m[1]);
      passes ||= /^pass/i.test(m[2]!);
    }
    const counts = [...(passes ? [sum] : []), ...[COUNT_THEN_TESTS, TOTAL, TESTS_COLON, ...(ABOUT_TESTS.test(line) ? [OUT_OF] : [])].flatMap((re) => [...line.matchAll(re)].map((m) => Number(m[1])))];
    const only = TESTS_LINE.exec(line);
    if (only) counts.push(Number(only[1]));
    for (const n of counts) tests = Math.max(tests ?? 0, n);
  }
  return { tests_run: tests, skipped_tests: skipped ?? (tests !== null ? 0 : null), tests_failed: failed ?? (tests !== null ? 0 : null) };
}
