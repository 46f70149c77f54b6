/**
 * General rules of issue 17's fourth round (tuned on tools-i): each case reads real outputs of
 * the corpus (`test/fixtures/fingerprint-corpora/tools-i`) or a cut of one, and checks the rule,
 * not the tool.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { repoRoot } from '../helpers/cli.js';

const corpus = join(repoRoot, 'test', 'fixtures', 'fingerprint-corpora', 'tools-i', 'outputs');
const read = (rel: string) => readFileSync(join(corpus, rel), 'utf8');
const fp = (text: string) => fingerprint(text).fingerprint;
const core = (text: string) => fingerprint(text, { extractors: false }).fingerprint;

describe('several failures are not one', () => {
  it("a runner's tally of two or more failures joins the core's fingerprint (common_test: the same first failure)", () => {
    const one = read('ct/one-short/v1-base.txt');
    const three = read('ct/three-failing/v1-base.txt');
    expect(core(one)).toBe('cart_SUITE:total_test failed on line <n> | Reason: {badmatch,1199}');
    expect(core(three)).toContain('| 3 failing');
    expect(core(three)).not.toBe(core(one));
    // Features < scenarios < steps: the largest count of one tally line, failures and errors summed.
    expect(core('0 successes / 1 failure / 1 error / 0 pending : 0.000844 seconds\nError -> cart.lua:5: boom\n')).toContain('2 failing');
    // TAP tally comments put the word first: `# fail 3`, `ℹ fail 2`, `# { total: 3, pass: 0, fail: 3 }`.
    expect(core('not ok 1 - total\n# Error: boom\n# pass 0\n# fail 3\n')).toContain('3 failing');
    expect(core('not ok 1 - total\n# Error: boom\n# { total: 3, pass: 1, fail: 2 }\n')).toContain('2 failing');
    // A compiler's count of errors is no test tally.
    expect(core('a.c:3:5: error: x undeclared\n2 errors generated.\n')).not.toContain('failing');
  });

  it('every step of a fix sequence is told apart and its failing units shrink (hspec, common_test, node-tap)', () => {
    for (const tool of ['hspec', 'ct', 'node-tap']) {
      const steps = ['three-failing', 'two-failing', tool === 'hspec' ? 'head-empty' : tool === 'ct' ? 'badarith' : 'discount-throws'].map((c) => fingerprint(read(`${tool}/${c}/v9-sequence.txt`)));
      expect(steps[1]!.fingerprint).not.toBe(steps[0]!.fingerprint);
      expect(steps[2]!.fingerprint).not.toBe(steps[1]!.fingerprint);
      expect(steps[0]!.failing_units.length).toBeGreaterThan(steps[1]!.failing_units.length);
      // What is left was failing before.
      expect(steps[0]!.failing_units).toEqual(expect.arrayContaining(steps[1]!.failing_units));
    }
  });

  it('the same failures in another run (extra passing tests, another order) keep the same failing units', () => {
    for (const [a, b] of [['ct/three-failing/v1-base.txt', 'ct/three-failing/v2-extra.txt'], ['hspec/three-failing/v1-base.txt', 'hspec/three-failing/v2-order.txt'], ['node-tap/two-failing/v1-base.txt', 'node-tap/two-failing/v2-extra.txt']] as const) {
      expect(fingerprint(read(b)).failing_units, b).toEqual(fingerprint(read(a)).failing_units);
      expect(fingerprint(read(b)).fingerprint, b).toBe(fingerprint(read(a)).fingerprint);
    }
  });

  it('lines saying the same after their first word are failing units (`s:total_test failed on line 7`, `s:label_test …`)', () => {
    const three = fingerprint(read('ct/three-failing/v1-base.txt'));
    expect(three.failing_units).toEqual(['cart_SUITE:label_test failed on line <n>', 'cart_SUITE:total_test failed on line <n>']);
    // Down to one: the fingerprint starts with it, so the loop still reads which one is left.
    const two = fingerprint(read('ct/two-failing/v1-base.txt'));
    expect(two.fingerprint.startsWith('cart_SUITE:label_test failed on line <n>')).toBe(true);
  });
});

describe('the cause over decoration', () => {
  it('value lines read `but got:` and `Reason:`', () => {
    expect(fp(read('hspec/one-short/v1-base.txt'))).toBe('total sums price times quantity | expected: 1200 | but got: 1199');
    expect(fp(read('hspec/hundred-over/v1-base.txt'))).toBe('total sums price times quantity | expected: 1200 | but got: 1300');
  });

  it('a status line `name FAILED [1]` says which test failed, not why: the values under `Failures:` say it (core alone, hspec)', () => {
    expect(core(read('hspec/one-short/v1-base.txt'))).toBe('expected: 1200 | but got: 1199');
    expect(core(read('hspec/one-short/v5-progress.txt'))).toBe(core(read('hspec/one-short/v1-base.txt')));
    expect(core(read('hspec/hundred-over/v1-base.txt'))).not.toBe(core(read('hspec/one-short/v1-base.txt')));
  });

  it('a weak error line with no specifics loses a tie to a later one that has them (a build banner over the test stderr)', () => {
    const banner = read('meson/test-one-short/v1-base.txt');
    expect(banner).toContain('Project version: undefined');
    expect(fp(banner)).toBe('total: expected 1200, got 1199');
    expect(fp(read('meson/test-one-short/v4-rebuild.txt'))).toBe(fp(banner));
  });

  it('a column range is a position (`Cart.hs:10:15-33:`)', () => {
    const hint = (line: number) => `src/Cart.hs:${line}:15-33: Suggestion: Redundant bracket\nFound:\n  ("coupon " ++ code)\nPerhaps:\n  "coupon " ++ code\n\n1 hint\n`;
    expect(fp(hint(10))).toBe('Cart.hs: Suggestion: Redundant bracket | Found: ; (coupon ++ code) ; Perhaps: ; coupon ++ code');
    expect(fp(hint(17))).toBe(fp(hint(10)));
    expect(fp(read('hlint/use-null/v1-base.txt'))).not.toBe(fp(read('hlint/redundant-bracket/v1-base.txt')));
  });

  it('a TAP subtest printed after its failing children is a container: the child is the failure (node-tap)', () => {
    expect(fp(read('node-tap/one-short/v1-base.txt'))).toBe('should be equal | compare: === | - 1200 ; + 1199');
    expect(fp(read('node-tap/discount-throws/v1-base.txt'))).toBe('discount 10 is over the cap | discount (cart.js)');
  });

  it('a row under a row of pointers is the values of a diagram, not a numbered excerpt (a power assert)', () => {
    const out = (got: number) => `Caught: Assertion failed: \n\nassert Cart.total(items) == 1200\n            |     |      |\n            ${got}  |      false\n                  [[price:250, qty:2]]\n\n\tat main.run(main.groovy:2)\n`;
    expect(fp(out(1199))).toContain('| 1199 | false');
    expect(fp(out(1300))).not.toBe(fp(out(1199)));
  });

  it('a line a pointer marks is a window on the source: the message is after the pointer, the source from the pointed column on says where', () => {
    const out = (line: number, window: string, dashes: number) => `Error: Parse error on line ${line}:\n${window}\n${'-'.repeat(dashes)}^\nExpecting 'STRING', 'NUMBER', got 'undefined'\n    at Object.parseError (/tmp/x/node_modules/jsonlint/lib/jsonlint.js:55:11)\n`;
    const base = fp(out(2, `{  "currency": 'EUR',  "items": [`, 15));
    expect(base).toBe(`Error: Parse error on line <n>: | Expecting STRING, NUMBER, got undefined ; at: EUR, items: [`);
    // Shifted: the window starts elsewhere, the pointed source is the same.
    expect(fp(out(9, `...wed",  "currency": 'EUR',  "items": [`, 22))).toBe(base);
  });

  it('core alone on TAP with YAML diagnostics: tally comments are summaries, the first `not ok` stays, an indented diff gives the values (node-tap)', () => {
    const one = core(read('node-tap/one-short/v1-base.txt'));
    expect(one).toContain('not ok 1 - should be equal');
    expect(one).toContain('-1200 ; +1199');
    expect(core(read('node-tap/hundred-over/v1-base.txt'))).not.toBe(one);
    expect(core(read('node-tap/one-short/v2-shifted.txt'))).toBe(one);
  });

  it('lines a live display went back over (cursor up, then redrawn) are not read', () => {
    const panel = (n: number) => `\nAsserts:  ${n} pass  0 fail\nSuites:   0 pass  0 fail\n\n`;
    const up = '\u001b[2K\u001b[1A'.repeat(4);
    const out = `${panel(0)}${up}\u001b[2K\u001b[G RUNS  test/cart.test.js${panel(1)}${up}\u001b[2K\u001b[G FAIL  test/cart.test.js\nError: total is 1199\n`;
    expect(fingerprint(out).line).toBeGreaterThan(0);
    expect(fp(out)).toBe('Error: total is 1199');
    expect(fp(read('node-tap/one-short/v4-color.txt'))).not.toContain('Asserts');
  });
});
