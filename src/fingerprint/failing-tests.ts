/**
 * Names of the failing tests in a verification output, for the engine's progress measure
 * ("the set of failing tests shrank"). Uses the per-test failure blocks when the runner
 * prints them (units.ts); otherwise the runner's one-line markers (`× name`, `test x ...
 * FAILED`, pytest's `FAILED a::b`). Names are normalised, deduplicated and sorted.
 */
import type { Line } from './lines.js';
import { toLines } from './scan.js';
import { normalizeName } from './normalize.js';
import { failureUnits, type FailureUnit } from './units.js';

const MARKERS: RegExp[] = [
  // vitest / jest trees: `× suite > name 12ms`, `✕ name (3 ms)`
  /^\s*[✖✕✗]\s+(.+?)(?:\s+\(?\d+(?:\.\d+)?\s*m?s\)?)?\s*$/,
  // libtest: `test tests::name ... FAILED`
  /^\s*test\s+(\S+)\s+\.\.\.\s+FAILED\s*$/,
  // pytest short summary: `FAILED tests/x.py::test_y - msg`, `ERROR tests/x.py`
  /^(?:FAILED|ERROR)\s+(\S+?)(?:\s+-\s.*)?$/,
];

function markerNames(lines: Line[]): string[] {
  const out: string[] = [];
  for (const { text } of lines) {
    for (const re of MARKERS) {
      const m = re.exec(text);
      if (m) {
        out.push(m[1]!);
        break;
      }
    }
  }
  return out;
}

function sortedNames(raw: string[]): string[] {
  const names = new Set(raw.map((n) => normalizeName(n)).filter((n) => n !== ''));
  return [...names].sort();
}

/** Failing test names recognisable in vitest/jest/pytest/go/cargo/TAP/node/mocha-ish output. */
export function failingTests(output: string): string[] {
  return failingTestsInLines(toLines(output));
}

/** `failingTests` of lines already read (by `OutputScanner`). */
export function failingTestsInLines(lines: Line[]): string[] {
  const units = failureUnits(lines);
  return sortedNames(units.length > 0 ? units.map((u) => u.name) : markerNames(lines));
}

/**
 * The failing units of already-parsed lines: test names (blocks, else one-line markers),
 * else what `fallback` finds (the fingerprint passes the distinct error diagnostics).
 */
export function unitNames(lines: Line[], units: FailureUnit[], fallback: (lines: Line[]) => string[]): string[] {
  if (units.length > 0) return sortedNames(units.map((u) => u.name));
  const markers = markerNames(lines);
  if (markers.length > 0) return sortedNames(markers);
  return [...new Set(fallback(lines))].sort();
}
