import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failingTests } from '../../src/fingerprint/failing-tests.js';
import { repoRoot } from '../helpers/cli.js';

const read = (name: string) => readFileSync(join(repoRoot, 'test', 'fixtures', 'fingerprint', name), 'utf8');

describe('failingTests on real runner output', () => {
  it.each([
    ['vitest-off-by-one.txt', ['pricing.test.js > orderTotal > sums every line item', 'pricing.test.js > summarize > reports count, total and currency']],
    ['vitest-off-by-one-color.txt', ['pricing.test.js > orderTotal > sums every line item', 'pricing.test.js > summarize > reports count, total and currency']],
    ['npm-verify-step2.txt', ['orders.test.ts > adds shipping to the grand total', 'orders.test.ts > formats a receipt line']],
    ['jest-status-threshold.txt', ['stock.test.js › stockStatus › is in-stock at the threshold']],
    ['jest-async-reject-randomized.txt', ['stock.test.js › syncWarehouse › reports success']],
    ['pytest-assert-rounding.txt', ['test_tax_rounds_half_up']],
    ['pytest-import-error.txt', ['ERROR collecting test_invoice.py']],
    ['go-test-nil-map.txt', ['TestCountZones']],
    ['go-test-cost-wrong-shuffled.txt', ['TestCost']],
    ['cargo-test-balance-off.txt', ['tests::balance_sums_entries', 'tests::report_summarizes']],
    ['cargo-test-balance-off-shifted.txt', ['tests::balance_sums_entries', 'tests::report_summarizes']],
    ['node-test-tap-slug.txt', ['slugify collapses punctuation']],
    ['node-test-spec-tags.txt', ['parseTags removes duplicates']],
    ['python-unittest-add.txt', ['test_add (test_calc.TestCalc.test_add)']],
  ])('%s', (file, expected) => {
    expect(failingTests(read(file))).toEqual(expected);
  });

  it('is empty for compiler and script errors', () => {
    expect(failingTests(read('tsc-missing-prop.txt'))).toEqual([]);
    expect(failingTests(read('node-uncaught-verbose.txt'))).toEqual([]);
    expect(failingTests('')).toEqual([]);
  });

  it('shrinks when a failing test is fixed', () => {
    const before = failingTests(read('cargo-test-balance-off.txt'));
    const after = failingTests(read('cargo-test-balance-off.txt').replace(/---- tests::balance_sums_entries stdout ----[\s\S]*?(?=---- tests::report)/, ''));
    expect(after).toEqual(['tests::report_summarizes']);
    expect(after.length).toBeLessThan(before.length);
  });
});

describe('failingTests on other runners (shapes as printed)', () => {
  it('mocha numbered failures, with multi-line titles', () => {
    const out = [
      '  2 passing (18ms)',
      '  2 failing',
      '',
      '  1) Array',
      '       #indexOf()',
      '         should return -1 when the value is not present:',
      '',
      '      AssertionError [ERR_ASSERTION]: 0 == -1',
      '      at Context.<anonymous> (test/array.spec.js:9:14)',
      '',
      '  2) Cart',
      '       applies discount:',
      '     Error: discount code "SPRING" is unknown',
    ].join('\n');
    expect(failingTests(out)).toEqual(['Array #indexOf() should return -1 when the value is not present', 'Cart applies discount']);
  });

  it('one-line markers when there are no failure blocks', () => {
    expect(failingTests('test tests::b ... FAILED\ntest tests::a ... ok\ntest tests::c ... FAILED\n')).toEqual(['tests::b', 'tests::c']);
    expect(failingTests('FAILED tests/test_a.py::test_x - assert 1 == 2\nFAILED tests/test_a.py::test_x - assert 1 == 2\n')).toEqual(['test_a.py::test_x']);
    expect(failingTests('   × suite > works 12ms\n   ✓ suite > other 1ms\n')).toEqual(['suite > works']);
  });

  it('go -v subtests and TAP nesting keep only real names', () => {
    const go = '=== RUN   TestParse\n=== RUN   TestParse/spaces\n    parse_test.go:21: got "x"\n--- FAIL: TestParse (0.00s)\n    --- FAIL: TestParse/spaces (0.00s)\nFAIL\n';
    expect(failingTests(go)).toEqual(['TestParse', 'TestParse/spaces']);
  });
});
