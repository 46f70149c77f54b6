/**
 * Names of the failing tests in a verification output, for the engine's progress measure
 * ("the set of failing tests shrank"). Uses the per-test failure blocks when the runner
 * prints them (units.ts); otherwise the runner's one-line markers (`× name`, `test x ...
 * FAILED`, pytest's `FAILED a::b`). Names are normalised, deduplicated and sorted.
 */
import type { Line } from './lines.js';
import { toLines } from './scan.js';
import { normalizeName } from './normalize.js';
import { failureUnits, listedFailures, markerNames, type FailureUnit } from './units.js';
import type { RunnerExtractor } from './extractors/index.js';

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
  if (units.length > 0) return sortedNames(units.map((u) => u.name));
  const markers = markerNames(lines);
  return sortedNames(markers.length > 0 ? markers : listedFailures(lines));
}

/**
 * The failing units of already-parsed lines: test names (blocks, else the extractors'
 * one-line markers, else the names listed under a `Failing scenarios:` header), else what
 * `fallback` finds (the fingerprint passes the distinct error diagnostics).
 */
export function unitNames(lines: Line[], units: FailureUnit[], extractors: readonly RunnerExtractor[], fallback: (lines: Line[]) => string[]): string[] {
  if (units.length > 0) return sortedNames(units.map((u) => u.name));
  const markers = markerNames(lines, extractors);
  if (markers.length > 0) return sortedNames(markers);
  const listed = listedFailures(lines);
  if (listed.length > 0) return sortedNames(listed);
  return [...new Set(fallback(lines))].sort();
}
