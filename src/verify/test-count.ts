/**
 * How many tests a test run says it ran, from its own summary (pure). A check that passes
 * because the failing test was deleted verifies less than it did where the loop started, and
 * its exit status cannot tell; its summary can (core/skips.ts compares). Read from any
 * runner's summary by meaning, not by tool, like skip-count.ts:
 *
 * - a count next to the word "test(s)": `Ran 3 tests` (unittest), `running 3 tests` (cargo),
 *   `4 examples` (RSpec), `Tests: 4` (PHPUnit), a line that is only `tests 3` (node:test's
 *   `# tests 3`, `ℹ tests 3`);
 * - `3 total` (jest);
 * - the counts next to outcome words on one summary line that counts passed tests, added up:
 *   `2 passed, 1 failed` (pytest), `1 failed | 2 passed (3)` (vitest), `3 passed; 0 failed;
 *   0 ignored` (cargo). A line without a pass count may list only some outcomes (mocha's
 *   `1 failing` under `2 passing`, a script's `1 failed`): it is no total, and not read.
 *
 * Errors are no outcome word: a compiler's `Found 3 errors` counts no tests. The largest count
 * of the output is taken (per-file lines, then the total). Runners that state no count (`go
 * test` without -v) give null: nothing is compared.
 */

const OUTCOME = String.raw`(?:passed|passing|failed|failing|skipped|ignored|pending|todo|xfailed|xpassed)`;
const COUNT_THEN_OUTCOME = new RegExp(String.raw`(?<![\w.:/-])(\d{1,6})\s+(?:tests?\s+)?(${OUTCOME})\b`, 'gi');
const COUNT_THEN_TESTS = new RegExp(String.raw`(?<![\w.:/-])(\d{1,6})\s+(?:tests?|examples?)\b`, 'gi');
const TESTS_COLON = /(?<![\w.:/-])tests?:\s+(\d{1,6})(?![\w.:/-])/gi;
const TOTAL = /(?<![\w.:/-])(\d{1,6})\s+total\b/gi;
const TESTS_LINE = /^\W{0,3}tests?\s*[:=]?\s*(\d{1,6})\s*$/i;
/** Summary lines are short; a long line is prose or data. */
const MAX_LINE = 240;

/** The number of tests the output says ran (or were collected), or null when it states none. */
export function testsRun(output: string): number | null {
  let most: number | null = null;
  const take = (n: number) => {
    if (most === null || n > most) most = n;
  };
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line.length > MAX_LINE || !/\d/.test(line)) continue;
    let sum = 0;
    let passes = false;
    for (const m of line.matchAll(COUNT_THEN_OUTCOME)) {
      sum += Number(m[1]);
      passes ||= /^pass/i.test(m[2]!);
    }
    if (passes) take(sum);
    for (const re of [COUNT_THEN_TESTS, TOTAL, TESTS_COLON]) for (const m of line.matchAll(re)) take(Number(m[1]));
    const only = TESTS_LINE.exec(line);
    if (only) take(Number(only[1]));
  }
  return most;
}
