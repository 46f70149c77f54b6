import { describe, expect, it } from 'vitest';
import { skippedTests } from '../../src/verify/skip-count.js';

describe('skippedTests: the skip count a test run reports, by meaning', () => {
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
    expect(skippedTests(output)).toBe(n);
  });

  it('no count: null; a zero count: 0', () => {
    expect(skippedTests('All good.\n3 passed in 0.1s')).toBeNull();
    expect(skippedTests('5 passed, 0 skipped')).toBe(0);
  });

  it('numbers that belong to something else are not counts', () => {
    expect(skippedTests('see docs/skipped/1.md and v1.2 skip-list')).toBeNull();
    expect(skippedTests(`${'x'.repeat(300)} 4 skipped`)).toBeNull();
  });
});
