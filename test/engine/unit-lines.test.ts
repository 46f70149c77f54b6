import { describe, expect, it } from 'vitest';
import { unitLines } from '../../src/engine/core/unit-lines.js';
import { computeDelta, judgeDelta } from '../../src/engine/core/delta.js';
import { normalizeValues } from '../../src/fingerprint/index.js';
import { check } from './helpers.js';

describe('unitLines: how often the failing units occur in the output (pure)', () => {
  it('counts the lines that read as a unit after value normalisation', () => {
    const go = './units.go:4:9: undefined: missing\n./units.go:8:9: undefined: missing\n./units.go:12:9: undefined: missing\nFAIL\texample.com/units [build failed]';
    expect(unitLines(go, ['units.go: undefined: missing'], normalizeValues)).toBe(3);
    const tsc = "src/units.ts(2,18): error TS2304: Cannot find name 'missing'.\nsrc/units.ts(7,18): error TS2304: Cannot find name 'missing'.";
    expect(unitLines(tsc, ["units.ts: error TS2304: Cannot find name 'missing'."], normalizeValues)).toBe(2);
    // The unit carries the file and drops the brackets its line has.
    const rust = 'error[E0425]: cannot find value `missing` in this scope\n --> src/lib.rs:2:18\nerror[E0425]: cannot find value `missing` in this scope\n --> src/lib.rs:7:18';
    expect(unitLines(rust, ['lib.rs: error E0425: cannot find value `missing` in this scope'], normalizeValues)).toBe(2);
  });

  it('no units: null; short lines and test names alone are not counted', () => {
    expect(unitLines('anything', [], normalizeValues)).toBeNull();
    expect(unitLines('alpha\nnot ok 1 - alpha\n}', ['alpha'], normalizeValues)).toBe(0);
  });
});

describe('the delta: the same errors in fewer places', () => {
  const at = (n: number, hash: string) => ({ checks: [{ ...check(0, { fp: 'units.go: undefined: missing', tests: ['units.go: undefined: missing'] }), unit_lines: n }], fingerprint: 'units.go: undefined: missing', diff_hash: hash });

  it('is an improvement on a new tree; more places or the same count is not', () => {
    const h = { iterations: [{ ...at(3, 'd1'), iteration: 1 }], tree_known: true };
    const d = computeDelta(h, at(2, 'd2'));
    expect(d.errors_fewer).toEqual(['node check1.js: 3 → 2']);
    expect(judgeDelta(d, 1)).toEqual({ improved: true, progress: true, reasons: ['the same errors in fewer places: node check1.js: 3 → 2'] });
    expect(judgeDelta(computeDelta(h, at(3, 'd2')), 1).improved).toBe(false);
    expect(judgeDelta(computeDelta(h, at(4, 'd2')), 1).improved).toBe(false);
    // Not on the same tree (a flaky count).
    expect(judgeDelta(computeDelta(h, at(2, 'd1')), 1)).toMatchObject({ improved: false, progress: false });
  });
});
