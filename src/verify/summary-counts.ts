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
 * - `3 total` (jest);
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
 * The largest count of the output is taken (per-file lines, then the total). A runner that
 * states no count (`go test` without -v, a compiler, a bare script) gives null: nothing is compared.
 */

export interface SummaryCounts {
  /** Tests the run says it ran (or collected); null: it states none. */
  tests_run: number | null;
  /** Tests it says it skipped; null: it states neither skips nor tests. */
  skipped_tests: number | null;
}

/** A number that is a count: not part of a word, a version, a path or a time. */
const COUNT = String.raw`(?<![\w.:/-])(\d{1,6})`;
/** Words for a test that was not run or not held to its result. */
const SKIP_WORD = String.raw`(?:skipped|skips?|pending|ignored|todo|xfail(?:ed)?|disabled)`;
const OUTCOME = String.raw`(?:passed|passing|failed|failing|skipped|ignored|pending|todo|xfailed|xpassed)`;

const COUNT_THEN_SKIP = new RegExp(String.raw`${COUNT}\s+(?:tests?\s+)?${SKIP_WORD}\b`, 'gi');
const SKIP_THEN_COUNT = new RegExp(String.raw`\b${SKIP_WORD}(?:\s+tests?)?\s*[:=]?\s*(\d{1,6})\b(?![.:/-]?\w)`, 'gi');
const COUNT_THEN_OUTCOME = new RegExp(String.raw`${COUNT}\s+(?:tests?\s+)?(${OUTCOME})\b`, 'gi');
const COUNT_THEN_TESTS = new RegExp(String.raw`${COUNT}\s+(?:tests?|examples?)\b`, 'gi');
const TESTS_COLON = /(?<![\w.:/-])tests?:\s+(\d{1,6})(?![\w.:/-])/gi;
const TOTAL = new RegExp(String.raw`${COUNT}\s+total\b`, 'gi');
const TESTS_LINE = /^\W{0,3}tests?\s*[:=]?\s*(\d{1,6})\s*$/i;
/** Summary lines are short; a long line is prose or data. */
const MAX_LINE = 240;

export function summaryCounts(output: string): SummaryCounts {
  let tests: number | null = null;
  let skipped: number | null = null;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line.length > MAX_LINE || !/\d/.test(line)) continue;
    for (const re of [COUNT_THEN_SKIP, SKIP_THEN_COUNT]) for (const m of line.matchAll(re)) skipped = Math.max(skipped ?? 0, Number(m[1]));
    let sum = 0;
    let passes = false;
    for (const m of line.matchAll(COUNT_THEN_OUTCOME)) {
      sum += Number(m[1]);
      passes ||= /^pass/i.test(m[2]!);
    }
    const counts = [...(passes ? [sum] : []), ...[COUNT_THEN_TESTS, TOTAL, TESTS_COLON].flatMap((re) => [...line.matchAll(re)].map((m) => Number(m[1])))];
    const only = TESTS_LINE.exec(line);
    if (only) counts.push(Number(only[1]));
    for (const n of counts) tests = Math.max(tests ?? 0, n);
  }
  return { tests_run: tests, skipped_tests: skipped ?? (tests !== null ? 0 : null) };
}
