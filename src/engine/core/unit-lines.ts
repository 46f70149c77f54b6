/**
 * How often a failing check's failures occur: the lines of its output that read as one of its
 * failing units, after value normalisation (paths, line and column numbers, times removed).
 * Failing units are a SET, so the same diagnostic in three places (`undefined: missing` at three
 * call sites, TS2304 `Cannot find name 'x'` on three lines) is one unit: fixing one of them
 * leaves the set and the fingerprint as they were, and only this count shows the repair
 * (delta.ts, `errors_fewer`). Pure; the normaliser is the fingerprint module's.
 */

/** Lines shorter than this are too generic to stand for a failure (`}`, `error`, a test name). */
const MIN_LINE = 12;
/** Long lines are data, not diagnostics. */
const MAX_LINE = 400;

/** Words only: a unit drops some punctuation its line has (`error[E0425]` → `error E0425`). */
const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The number of output lines that read as one of `units` (null: no units to count). */
export function unitLines(output: string, units: readonly string[], normalize: (line: string) => string): number | null {
  if (units.length === 0) return null;
  const wanted = units.map(words);
  let n = 0;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line.length < MIN_LINE || line.length > MAX_LINE) continue;
    const norm = words(normalize(line));
    if (norm.length < MIN_LINE) continue;
    // A unit may carry its file before the diagnostic (`lib.rs: error E0425: …` for a line `error[E0425]: …`).
    if (wanted.some((u) => u === norm || u.endsWith(` ${norm}`))) n++;
  }
  return n;
}
