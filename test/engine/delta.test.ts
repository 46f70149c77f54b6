import { describe, expect, it } from 'vitest';
import { computeDelta, judgeDelta, type DeltaInput } from '../../src/engine/core/delta.js';
import { check } from './helpers.js';

const at = (checks: DeltaInput['checks'], fingerprint: string | null, diff_hash: string | null): DeltaInput => ({ checks, fingerprint, diff_hash });
const history = (...its: DeltaInput[]) => ({ iterations: its.map((it, i) => ({ ...it, iteration: i + 1 })), tree_known: true });
const judge = (h: ReturnType<typeof history>, cur: DeltaInput) => judgeDelta(computeDelta(h, cur), h.iterations.at(-1)?.iteration ?? null);

describe('computeDelta', () => {
  it('tests fixed are a set difference: any one of N, in any order', () => {
    const h = history(at([check(0, { fp: 'FAIL a', tests: ['a', 'b', 'c'] })], 'FAIL a', 'd1'));
    const d = computeDelta(h, at([check(0, { fp: 'FAIL a', tests: ['a', 'c'] })], 'FAIL a', 'd2'));
    expect(d).toMatchObject({ tests_fixed: ['b'], checks_fixed: [], fingerprint_changed: false, novel_tree: true });
    expect(judgeDelta(d, 1)).toMatchObject({ improved: true, progress: true, reasons: ['no longer failing: b'] });
  });

  it('a list of units shrunk to its last one (no units named any more) is the others fixed', () => {
    const h = history(at([check(0, { fp: 'FAIL a: want 1', tests: ['FAIL a: want 1', 'FAIL b: want 2'] })], 'FAIL a: want 1', 'd1'));
    expect(computeDelta(h, at([check(0, { fp: 'FAIL a: want 1' })], 'FAIL a: want 1', 'd2')).tests_fixed).toEqual(['FAIL b: want 2']);
    // Output that names no unit and is not one of them tells nothing.
    expect(computeDelta(h, at([check(0, { fp: 'Segmentation fault' })], 'Segmentation fault', 'd2')).tests_fixed).toEqual([]);
  });

  it('a check fixed while the first check fails identically is an improvement', () => {
    const h = history(at([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A', 'd1'));
    expect(judge(h, at([check(0, { fp: 'A' }), check(1)], 'A', 'd2'))).toMatchObject({ improved: true, reasons: ['check fixed: node check2.js'] });
  });

  it('a compile error that became failing tests advanced within the check', () => {
    const h = history(at([check(0, { fp: 'TS2304: Cannot find name' })], 'TS2304: Cannot find name', 'd1'));
    const r = judge(h, at([check(0, { fp: 'FAIL t1', tests: ['t1'] })], 'FAIL t1', 'd2'));
    expect(r.improved).toBe(true);
    expect(r.reasons[0]).toMatch(/^error moved downstream: node check1.js: from an error before any test ran to failing tests/);
  });

  it('the first failure moving to a later check is downstream', () => {
    const h = history(at([check(0, { fp: 'A' }), check(1, { skipped: true, passed: false })], 'A', 'd1'));
    expect(judge(h, at([check(0), check(1, { fp: 'B' })], 'B', 'd2')).reasons).toEqual(['check fixed: node check1.js', 'error moved downstream: the first failure moved from check 1 to check 2']);
  });

  it('a different error at the same check on a new tree is progress but no improvement', () => {
    const h = history(at([check(0, { fp: 'A' })], 'A', 'd1'));
    expect(judge(h, at([check(0, { fp: 'Z' })], 'Z', 'd2'))).toEqual({ improved: false, progress: true, reasons: ['code changed, a different error'] });
  });

  it('returning to an earlier tree is never progress, whatever the checks say', () => {
    const h = history(at([check(0, { fp: 'A', tests: ['x'] })], 'A', 'dA'), at([check(0, { fp: 'B', tests: ['y'] })], 'B', 'dB'));
    const r = judge(h, at([check(0, { fp: 'A', tests: ['x'] })], 'A', 'dA'));
    expect(r).toMatchObject({ improved: false, progress: false });
    expect(r.reasons[0]).toMatch(/^no progress: back to the tree of iteration 1 \(no longer failing: y without a code change: not counted\)/);
  });

  it('a new tree whose checks report what an earlier iteration (not the previous) reported is no progress: going round in circles', () => {
    const A = at([check(0, { fp: 'FAIL x', tests: ['x'] })], 'FAIL x', 'd1');
    const B = at([check(0, { fp: 'FAIL y', tests: ['y'] })], 'FAIL y', 'd2');
    const h = history(A, B);
    const d = computeDelta(h, { ...A, diff_hash: 'd3' });
    expect(d).toMatchObject({ novel_tree: true, returned_to: null, returned_result: 1, tests_fixed: ['y'] });
    const r = judgeDelta(d, 2);
    expect(r).toMatchObject({ improved: false, progress: false });
    expect(r.reasons[0]).toBe('no progress: the checks report what they reported at iteration 1 (the code changed, the result went back) (no longer failing: y against iteration 2: not counted)');
    // The same result as the previous iteration is the fingerprint rule's, not this one.
    expect(computeDelta(history(A, B), { ...B, diff_hash: 'd3' }).returned_result).toBeNull();
    // Failing units are a set: the order a runner lists them in is no difference.
    const xy = at([check(0, { fp: 'FAIL x', tests: ['x', 'y'] })], 'FAIL x', 'd1');
    expect(computeDelta(history(xy, B), at([check(0, { fp: 'FAIL x', tests: ['y', 'x'] })], 'FAIL x', 'd4')).returned_result).toBe(1);
    // A different fingerprint or another check's result is a different result.
    expect(computeDelta(h, at([check(0, { fp: 'FAIL x: 3', tests: ['x'] })], 'FAIL x: 3', 'd3')).returned_result).toBeNull();
    expect(computeDelta(history(at([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A', 'd1'), at([check(0, { fp: 'C' }), check(1, { fp: 'B' })], 'C', 'd2')), at([check(0, { fp: 'A' }), check(1)], 'A', 'd3')).returned_result).toBeNull();
  });

  it('an unchanged tree with a flaky test now passing is not progress', () => {
    const h = history(at([check(0, { fp: 'A', tests: ['x', 'y'] })], 'A', 'd1'));
    expect(judge(h, at([check(0, { fp: 'A', tests: ['x'] })], 'A', 'd1'))).toMatchObject({ progress: false, reasons: [expect.stringMatching(/same tree as iteration 1/)] });
  });

  it('undoing every change (back to the start tree) is not progress', () => {
    const h = history(at([check(0, { fp: 'A' })], 'A', 'd1'));
    expect(judge(h, at([check(0, { fp: 'A' })], 'A', null)).reasons[0]).toMatch(/back to the tree the loop started from/);
  });

  it('the tree the checks left behind counts as seen', () => {
    const h = { iterations: [{ ...at([check(0, { fp: 'A' })], 'A', 'd1'), iteration: 1, after_hash: 'd1-built' }], tree_known: true };
    expect(computeDelta(h, at([check(0, { fp: 'A' })], 'A', 'd1-built')).novel_tree).toBe(false);
  });

  it('tests that left the list while the run counted fewer tests (it stopped early) are not fixed', () => {
    const ran = (tests: string[], n: number | undefined) => ({ ...check(0, { fp: tests[0]!, tests }), ...(n === undefined ? {} : { tests_run: n }) });
    const h = history(at([ran(['b', 'c'], 3)], 'b', 'd1'));
    expect(computeDelta(h, at([ran(['units.test.js'], 1)], 'units.test.js', 'd2')).tests_fixed).toEqual([]);
    expect(computeDelta(h, at([ran(['units.test.js'], undefined)], 'units.test.js', 'd2')).tests_fixed).toEqual([]);
    expect(computeDelta(h, at([ran(['c'], 3)], 'c', 'd2')).tests_fixed).toEqual(['b']);
    // Unknown before: as it was.
    expect(computeDelta(history(at([ran(['b', 'c'], undefined)], 'b', 'd1')), at([ran(['c'], undefined)], 'c', 'd2')).tests_fixed).toEqual(['b']);
  });

  it('the run counting fewer failed tests while the failing units it names stay the same (none: a runner whose failures are not named) is an improvement', () => {
    const counted = (failed: number | undefined, run?: number, tests?: string[]) => ({ ...check(0, { fp: '==== a-1 FAILED', ...(tests ? { tests } : {}) }), ...(failed === undefined ? {} : { tests_failed: failed }), ...(run === undefined ? {} : { tests_run: run }) });
    const h = history(at([counted(3)], '==== a-1 FAILED', 'd1'));
    const d = computeDelta(h, at([counted(2)], '==== a-1 FAILED', 'd2'));
    expect(d.failed_fewer).toEqual(['node check1.js: 3 → 2']);
    expect(judgeDelta(d, 1)).toMatchObject({ improved: true, progress: true, reasons: ["fewer failed tests by the run's own count: node check1.js: 3 → 2"] });
    // The same count, a count that grew, or none now: nothing to read.
    expect(computeDelta(h, at([counted(3)], '==== a-1 FAILED', 'd2')).failed_fewer).toEqual([]);
    expect(computeDelta(h, at([counted(4)], '==== a-1 FAILED', 'd2')).failed_fewer).toEqual([]);
    expect(computeDelta(h, at([counted(undefined)], '==== a-1 FAILED', 'd2')).failed_fewer).toEqual([]);
    // 0 failed on a failing run (errors, not failures) does not explain the failure.
    expect(computeDelta(h, at([counted(0)], '==== a-1 FAILED', 'd2')).failed_fewer).toEqual([]);
    // A run that ran fewer tests (it stopped early) failed fewer for that reason.
    expect(computeDelta(history(at([counted(3, 5)], '==== a-1 FAILED', 'd1')), at([counted(2, 3)], '==== a-1 FAILED', 'd2')).failed_fewer).toEqual([]);
    // Named units that changed are the set difference's to judge, not the count's.
    expect(computeDelta(history(at([counted(3, 3, ['a', 'b', 'c'])], 'a', 'd1')), at([counted(2, 3, ['a', 'b'])], 'a', 'd2')).failed_fewer).toEqual([]);
  });

  it('a result that comes back with another failed count is not a return (three fixed one at a time, the failures unnamed)', () => {
    const counted = (failed: number) => ({ ...check(0, { fp: '==== a-1 FAILED' }), tests_failed: failed });
    const h = history(at([counted(3)], '==== a-1 FAILED', 'd1'), at([counted(2)], '==== a-1 FAILED', 'd2'));
    expect(computeDelta(h, at([counted(1)], '==== a-1 FAILED', 'd3'))).toMatchObject({ returned_result: null, failed_fewer: ['node check1.js: 2 → 1'] });
  });

  it("the task's named files (declared_hash) tell states apart that the progress key cannot (a file git ignores)", () => {
    const on = (fp: string, diff: string | null, declared?: string) => ({ ...at([check(0, { fp })], fp, diff), ...(declared ? { declared_hash: declared } : {}) });
    // .env (ignored) fixed one value at a time, no tracked change: each a new state.
    const h = history(on('A', null, 'e1'));
    expect(computeDelta(h, on('B', null, 'e2'))).toMatchObject({ novel_tree: true, returned_to: null });
    // Back to what iteration 1 held: a return (to the start too, since iteration 1 ran on it).
    expect(computeDelta(history(on('A', null, 'e1'), on('B', null, 'e2')), on('A', null, 'e1'))).toMatchObject({ novel_tree: false, returned_to: 1 });
    // Nothing read (older states, no named file): the key alone, as before.
    expect(computeDelta(history(on('A', null)), on('A', null))).toMatchObject({ novel_tree: false, returned_to: 1 });
    expect(computeDelta(history(on('A', 'd1', 'e1')), on('A', null, 'e2'))).toMatchObject({ novel_tree: false, returned_to: 0 });
    // What the checks left in a named file (a formatter) is what the next iteration starts from.
    const formatted = { iterations: [{ ...on('A', 'd1', 'e1'), iteration: 1, after_hash: 'd1-fmt', declared_after_hash: 'e1-fmt' }], tree_known: true };
    expect(computeDelta(formatted, on('A', 'd1-fmt', 'e1-fmt'))).toMatchObject({ novel_tree: false, returned_to: 1 });
    expect(computeDelta(formatted, on('A', 'd1', 'e1-fmt'))).toMatchObject({ novel_tree: false, returned_to: 1 });
  });

  it('unrecognised output now says nothing about tests', () => {
    const h = history(at([check(0, { fp: 'A', tests: ['t1', 't2'] })], 'A', 'd1'));
    expect(computeDelta(h, at([check(0, { fp: 'A' })], 'A', 'd2')).tests_fixed).toEqual([]);
  });

  it('outside git without task files only what the checks show counts', () => {
    const h = { iterations: [{ ...at([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A', null), iteration: 1 }], tree_known: false };
    expect(judge(h, at([check(0, { fp: 'A' }), check(1, { fp: 'B' })], 'A', null))).toMatchObject({ progress: false });
    expect(judge(h, at([check(0, { fp: 'A' }), check(1)], 'A', null))).toMatchObject({ progress: true, improved: true });
  });
});
