import { describe, expect, it } from 'vitest';
import { testsRun } from '../../src/verify/test-count.js';

describe('testsRun: how many tests a run says it ran, by meaning', () => {
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
    expect(testsRun(output)).toBe(n);
  });

  it('a line that counts no passed tests may list only some outcomes: not a total', () => {
    expect(testsRun('  2 passing (8ms)\n  1 failing')).toBe(2);
    expect(testsRun('✗ legacy\n✓ feature\n1 failed')).toBeNull();
    expect(testsRun('==== 3 failed in 0.05s ====')).toBeNull();
  });

  it('no count: null (go test without -v, a compiler)', () => {
    expect(testsRun('ok  \texample.com/units\t0.002s')).toBeNull();
    expect(testsRun('--- FAIL: TestAlpha (0.00s)\nFAIL\texample.com/units\t0.002s')).toBeNull();
    expect(testsRun('Found 3 errors in the same file, starting at: src/a.ts:1')).toBeNull();
    expect(testsRun('error: could not compile `units` (lib test) due to 2 previous errors')).toBeNull();
  });

  it('numbers that belong to something else are not counts', () => {
    expect(testsRun('see docs/tests/1.md and v1.2 test-list')).toBeNull();
    expect(testsRun('    Test.postRun (node:internal/test_runner/test:889:19)')).toBeNull();
    expect(testsRun(`${'x'.repeat(300)} 4 passed`)).toBeNull();
  });
});
