import { describe, expect, it } from 'vitest';
import { summaryCounts } from '../../src/verify/summary-counts.js';

const skipped = (output: string) => summaryCounts(output).skipped_tests;
const tests = (output: string) => summaryCounts(output).tests_run;

describe('summaryCounts: the skip count a test run reports, by meaning', () => {
  it.each([
    ['pytest', '===== 3 passed, 1 skipped in 0.64s =====', 1],
    ['pytest xfail', '2 passed, 1 xfailed in 0.10s', 1],
    ['vitest', ' Tests  3 passed | 2 skipped (5)', 2],
    ['jest', 'Tests:       1 skipped, 3 passed, 4 total', 1],
    ['node:test spec', 'ℹ tests 4\nℹ pass 3\nℹ fail 0\nℹ skipped 1\nℹ todo 0', 1],
    ['node:test tap', '# tests 4\n# pass 3\n# skip 2\n# todo 0', 2],
    ['mocha', '  3 passing (8ms)\n  1 pending', 1],
    ['cargo', 'test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s', 1],
    ['rspec', '4 examples, 0 failures, 1 pending', 1],
    ['unittest', 'Ran 4 tests in 0.001s\n\nOK (skipped=1)', 1],
    ['phpunit', 'OK, but some tests were skipped!\nTests: 4, Assertions: 3, Skipped: 1.', 1],
    ['per-file lines, then the total', ' ✓ a.test.ts (2 tests | 1 skipped)\n ✓ b.test.ts (3 tests | 2 skipped)\n Tests  2 passed | 3 skipped (5)', 3],
  ])('%s', (_runner, output, n) => {
    expect(skipped(output)).toBe(n);
  });

  it('a summary that counts tests and names no skip skipped none; no count at all: null', () => {
    expect(summaryCounts('All good.\n3 passed in 0.1s')).toEqual({ tests_run: 3, skipped_tests: 0, tests_failed: 0 });
    expect(skipped('5 passed, 0 skipped')).toBe(0);
    expect(summaryCounts('All good.')).toEqual({ tests_run: null, skipped_tests: null, tests_failed: null });
  });

  it('numbers that belong to something else are not counts', () => {
    expect(skipped('see docs/skipped/1.md and v1.2 skip-list')).toBeNull();
    expect(skipped(`${'x'.repeat(300)} 4 skipped`)).toBeNull();
  });
});

describe('summaryCounts: how many tests a run says it ran, by meaning', () => {
  it.each([
    ['pytest', '===== 1 failed, 3 passed, 1 skipped in 0.64s =====', 5],
    ['vitest', ' Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 2 passed (3)', 3],
    ['jest', 'Tests:       1 skipped, 3 passed, 4 total', 4],
    ['node:test spec', 'ℹ tests 4\nℹ pass 3\nℹ fail 1', 4],
    ['node:test tap', '# tests 4\n# suites 0\n# pass 3\n# fail 1', 4],
    ['cargo', 'running 3 tests\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n   Doc-tests units\nrunning 0 tests', 3],
    ['rspec', '4 examples, 1 failure, 1 pending', 4],
    ['unittest', 'Ran 4 tests in 0.001s\n\nFAILED (failures=1)', 4],
    ['phpunit', 'Tests: 4, Assertions: 3, Failures: 1.', 4],
  ])('%s', (_runner, output, n) => {
    expect(tests(output)).toBe(n);
  });

  it('ctest: the total is the count after "out of" (not the failed count before it)', () => {
    expect(tests('67% tests passed, 1 tests failed out of 3\n\nTotal Test time (real) =   0.01 sec')).toBe(3);
    expect(tests('100% tests passed, 0 tests failed out of 2')).toBe(2);
    expect(tests('retried 1 out of 3 times')).toBeNull();
  });

  it('a line that counts no passed tests may list only some outcomes: not a total', () => {
    expect(tests('  2 passing (8ms)\n  1 failing')).toBe(2);
    expect(tests('✗ legacy\n✓ feature\n1 failed')).toBeNull();
    expect(tests('==== 3 failed in 0.05s ====')).toBeNull();
  });

  it('no count: null (go test without -v, a compiler)', () => {
    expect(tests('ok  \texample.com/units\t0.002s')).toBeNull();
    expect(tests('--- FAIL: TestAlpha (0.00s)\nFAIL\texample.com/units\t0.002s')).toBeNull();
    expect(tests('Found 3 errors in the same file, starting at: src/a.ts:1')).toBeNull();
    expect(tests('error: could not compile `units` (lib test) due to 2 previous errors')).toBeNull();
  });

  it('numbers that belong to something else are not counts', () => {
    expect(tests('see docs/tests/1.md and v1.2 test-list')).toBeNull();
    expect(tests('    Test.postRun (node:internal/test_runner/test:889:19)')).toBeNull();
    expect(tests(`${'x'.repeat(300)} 4 passed`)).toBeNull();
  });

  it('an indented summary line is read as it reads trimmed (the length limit is the text\'s)', () => {
    expect(summaryCounts(`${' '.repeat(230)}3 passed, 1 skipped in 0.1s`)).toEqual({ tests_run: 4, skipped_tests: 1, tests_failed: 0 });
  });
});

describe('summaryCounts: how many tests a run says failed, by meaning', () => {
  const failed = (output: string) => summaryCounts(output).tests_failed;
  it.each([
    ['pytest', '===== 2 failed, 1 passed in 0.12s =====', 2],
    ['vitest', '      Tests  1 failed | 2 passed (3)', 1],
    ['mocha', '  2 passing (8ms)\n  1 failing', 1],
    ['cargo', 'test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', 1],
    ['ctest', '33% tests passed, 2 tests failed out of 3', 2],
    ['rspec', '4 examples, 1 failure, 1 pending', 1],
    ['tcltest', 'all.tcl:\tTotal\t3\tPassed\t1\tSkipped\t0\tFailed\t2', 2],
    ['prove', 't/units.t .. Failed 1/3 subtests\nt/units.t (Wstat: 256 (exited 1) Tests: 3 Failed: 1)\n  Failed test:  2\nFiles=1, Tests=3,  0 wallclock secs', 1],
    ['node:test', 'ℹ tests 3\nℹ pass 1\nℹ fail 2', 2],
    ['unittest', 'Ran 4 tests in 0.001s\n\nFAILED (failures=3)', 3],
    ['phpunit', 'Tests: 4, Assertions: 3, Failures: 1.', 1],
  ])('%s', (_runner, output, n) => {
    expect(failed(output)).toBe(n);
  });

  it('tcltest: a row of labels before their counts is read label by label (was: `1 Skipped`, 4 tests); per-test lines before the summary do not count', () => {
    const out = '==== alpha-1 alpha returns 1 FAILED\n==== charlie-1 charlie returns 3 FAILED\n\nall.tcl:\tTotal\t3\tPassed\t1\tSkipped\t0\tFailed\t2';
    expect(summaryCounts(out)).toEqual({ tests_run: 3, skipped_tests: 0, tests_failed: 2 });
    expect(summaryCounts('all.tcl:\tTotal\t3\tPassed\t3\tSkipped\t0\tFailed\t0')).toEqual({ tests_run: 3, skipped_tests: 0, tests_failed: 0 });
    expect(summaryCounts('Passed: 2   Failed: 1   Skipped: 1')).toEqual({ tests_run: 4, skipped_tests: 1, tests_failed: 1 });
    // Not rows of test counts: one pair, other labels only.
    expect(summaryCounts('Files=1, Tests=3,  0 wallclock secs').tests_run).toBeNull();
    expect(summaryCounts('width 3 height 4').tests_run).toBeNull();
  });

  it('a summary that counts tests and names no failure failed none; no count at all: null; times and versions are no counts', () => {
    expect(failed('3 passed in 0.1s')).toBe(0);
    expect(failed('--- FAIL: TestAlpha (0.00s)\nFAIL\texample.com/units\t0.002s')).toBeNull();
    expect(failed('fail 0.5s')).toBeNull();
  });
});
