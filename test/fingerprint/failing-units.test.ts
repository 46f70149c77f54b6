import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { repoRoot } from '../helpers/cli.js';

const read = (name: string) => readFileSync(join(repoRoot, 'test', 'fixtures', 'fingerprint', name), 'utf8');

describe('fingerprint failing_units: the set of failing units beside the fingerprint', () => {
  it('lists every failing test, not only the one the fingerprint names', () => {
    const r = fingerprint(read('cargo-test-balance-off.txt'));
    expect(r.failing_units).toEqual(['tests::balance_sums_entries', 'tests::report_summarizes']);
  });

  it('"fixed one of N": the set shrinks while the fingerprint of the one left changes or stays', () => {
    const before = fingerprint(read('cargo-test-balance-off.txt'));
    const after = fingerprint(read('cargo-test-balance-off.txt').replace(/---- tests::balance_sums_entries stdout ----[\s\S]*?(?=---- tests::report)/, ''));
    expect(after.failing_units).toEqual(['tests::report_summarizes']);
    expect(before.failing_units).toEqual(expect.arrayContaining(after.failing_units));
  });

  it('the same failure keeps the same set whatever the run order', () => {
    const a = fingerprint(read('vitest-off-by-one.txt'));
    const b = fingerprint(read('vitest-off-by-one-color.txt'));
    expect(a.failing_units).toHaveLength(2);
    expect(b.failing_units).toEqual(a.failing_units);
  });

  it('compiler errors are units too: fixing one of three type errors shrinks the set', () => {
    const three = [
      "src/cart.ts(19,32): error TS2339: Property 'discount' does not exist on type 'Cart'.",
      "src/cart.ts(25,10): error TS2304: Cannot find name 'coupon'.",
      "src/tax.ts(4,3): error TS2322: Type 'string' is not assignable to type 'number'.",
      'Found 3 errors in 2 files.',
    ];
    const all = fingerprint(three.join('\n')).failing_units;
    expect(all).toEqual([
      "cart.ts: error TS2304: Cannot find name 'coupon'.",
      "cart.ts: error TS2339: Property 'discount' does not exist on type 'Cart'.",
      "tax.ts: error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
    // Lines move when a fix is made above: the units must not.
    const two = fingerprint([three[0]!.replace('19,32', '17,32'), three[2], 'Found 2 errors in 2 files.'].join('\n')).failing_units;
    expect(two).toHaveLength(2);
    expect(all).toEqual(expect.arrayContaining(two));
  });

  it('a list of failures in one shape from any script: its lines are the units (two or more)', () => {
    const out = (names: string[]) => ['checking values', ...names.map((n, i) => `2026-11-24T06:1${i}:00.123Z FAIL ${n}: expected ${i + 1}, got 0`), 'done: some checks failed'].join('\n');
    expect(fingerprint(out(['alpha', 'beta', 'gamma'])).failing_units).toEqual(['FAIL alpha: expected 1, got 0', 'FAIL beta: expected 2, got 0', 'FAIL gamma: expected 3, got 0']);
    // Timestamps differ run to run, the units do not; one line left is the fingerprint itself.
    expect(fingerprint(out(['alpha', 'beta'])).failing_units).toEqual(['FAIL alpha: expected 1, got 0', 'FAIL beta: expected 2, got 0']);
    expect(fingerprint(out(['alpha'])).failing_units).toEqual([]);
    // Whatever the shape: two commands a script could not find are two units.
    expect(fingerprint('./run.sh: line 3: foo: command not found\n./run.sh: line 4: bar: command not found\n').failing_units).toEqual(['run.sh: line <n>: bar: command not found', 'run.sh: line <n>: foo: command not found']);
  });

  it('warnings and a script crash name no unit', () => {
    expect(fingerprint('src/a.c:3:5: warning: unused variable ‘x’ [-Wunused-variable]\n').failing_units).toEqual([]);
    expect(fingerprint(read('node-uncaught-verbose.txt')).failing_units).toEqual([]);
    expect(fingerprint('').failing_units).toEqual([]);
  });
});
