/**
 * How many tests a test run says it skipped, from its own summary (pure). A test an agent
 * skips verifies nothing, so a run that skips more tests than it did before the task is
 * worth a human's look even when it is green (core/skips.ts compares). Read from any runner's
 * summary by meaning, not by tool: a count next to a skip word, in either order —
 * `3 passed, 1 skipped` (pytest, vitest, jest, cargo's `1 ignored`, mocha's `1 pending`,
 * RSpec), `skipped 1` / `# skip 1` / `Skipped: 1` / `skipped=1` (node:test, TAP, PHPUnit,
 * unittest). The largest count of the output is taken (per-file lines, then the total).
 */

/** Words for a test that was not run or not held to its result. */
const SKIP_WORD = String.raw`(?:skipped|skips?|pending|ignored|todo|xfail(?:ed)?|disabled)`;
const COUNT_THEN_WORD = new RegExp(String.raw`(?<![\w.:/-])(\d{1,6})\s+(?:tests?\s+)?${SKIP_WORD}\b`, 'gi');
const WORD_THEN_COUNT = new RegExp(String.raw`\b${SKIP_WORD}(?:\s+tests?)?\s*[:=]?\s*(\d{1,6})\b(?![.:/-]?\w)`, 'gi');
/** Summary lines are short; a long line is prose or data. */
const MAX_LINE = 240;

/** The number of skipped tests the output reports, or null when it reports none (no count found). */
export function skippedTests(output: string): number | null {
  let most: number | null = null;
  for (const line of output.split('\n')) {
    if (line.length > MAX_LINE || !/\d/.test(line)) continue;
    for (const re of [COUNT_THEN_WORD, WORD_THEN_COUNT]) {
      for (const m of line.matchAll(re)) {
        const n = Number(m[1]);
        if (most === null || n > most) most = n;
      }
    }
  }
  return most;
}
