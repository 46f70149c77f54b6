/**
 * General rules of issue 17's fifth round (tuned on tools-g, tools-h, tools-i): each case is a
 * cut of a real output of those corpora, or the same shape from another tool, and checks the
 * rule, not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { normalizeValues } from '../../src/fingerprint/normalize.js';

const fp = (text: string) => fingerprint(text).fingerprint;
const core = (text: string) => fingerprint(text, { extractors: false }).fingerprint;

describe('what a format adds around the same diagnostic', () => {
  it('a rule tag closing the message is the format\'s, not the cause: with and without it, one fingerprint', () => {
    // jshint with and without --verbose
    const jshint = fp("src/cart.js: line 5, col 16, 'cnt' is not defined.\n\n1 error\n");
    expect(fp("src/cart.js: line 12, col 16, 'cnt' is not defined. (W117)\n\n1 error\n")).toBe(jshint);
    expect(jshint).toBe("cart.js: line <n>, col <n>, cnt is not defined.");
    // gcc's option tag changes with -Werror: `[-Wunused-variable]` / `[-Werror=unused-variable]`
    const gcc = (tag: string) => `src/main.c:4:7: error: unused variable 'count' ${tag}\n    4 |   int count = 0;\n      |       ^~~~~\n`;
    expect(fp(gcc('[-Werror=unused-variable]'))).toBe(fp(gcc('[-Wunused-variable]')));
    expect(fp(gcc('[-Wunused-variable]'))).toBe("main.c: error: unused variable count");
    // eslint stylish (`rule` last, rendered in parentheses) and eslint -f unix (`[Error/rule]`)
    const stylish = fp("/tmp/a/src/render.js\n  3:10  error  'cached' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n");
    const unix = fp("/tmp/b/src/render.js:3:10: 'cached' is assigned a value but never used [Error/no-unused-vars]\n\n1 problem\n");
    expect(stylish).toBe("render.js: error: cached is assigned a value but never used");
    expect(unix).toBe("render.js: cached is assigned a value but never used");
    // Several tags, nested brackets (cpplint's category and confidence, oxlint's `[Error/eslint(no-debugger)]`).
    expect(fp('src/cart.cc:21:  Missing username in TODO; it should look like "// TODO(my_username): Stuff."  [readability/todo] [2]\nDone processing src/cart.cc\n')).toBe(
      'cart.cc: Missing username in TODO; it should look like // TODO(my_username): Stuff.',
    );
    expect(fp('src/cart.js:4:3: `debugger` statement is not allowed [Error/eslint(no-debugger)]\n\n1 problem\n')).toBe('cart.js: debugger statement is not allowed');
    // A camelCase id is an id too (pyright's `(reportAttributeAccessIssue)`, cppcheck's `[arrayIndexOutOfBounds]`).
    expect(fp("src/cart.c:5:3: error: Array 'a[2]' accessed at index 2, which is out of bounds. [arrayIndexOutOfBounds]\n")).toBe(
      "cart.c: error: Array a[2] accessed at index 2, which is out of bounds.",
    );
  });

  it('a bracketed word or phrase that is not a rule id stays: values and messages keep their brackets', () => {
    // No digit, `/`, `_` or `-`: a plain word in brackets is part of the message.
    expect(fp("src/cart.lua:13: attempt to index field 'name' (a nil value)\n")).toContain('(a nil value)');
    expect(fp('src/cart.lua:13: bad argument #1 to insert (table)\n')).toContain('(table)');
    // Two rules of the same message still differ by the message's specifics.
    expect(fp("src/a.js:1:1: 'x' is not defined. (W117)\n")).not.toBe(fp("src/a.js:1:1: 'y' is not defined. (W117)\n"));
    // A list of values is no tag, nor a value line's brackets.
    expect(fp('cart.hs:5: total failed: expected [1,2,3]\n')).toContain('[1,2,3]');
    expect(core('FAIL: total\nexpected: [a-b]\n')).toContain('[a-b]');
    // The class closing a Ruby error is its kind, not a rule tag.
    expect(fp("cart.rb:5:in 'total': undefined method '+' for nil (NoMethodError)\n")).toContain('(NoMethodError)');
  });
});

describe('the source a pointer marks is not the message', () => {
  it('a specific message keeps no quoted source line, whether the tool prints it (ldc2 -verrors=context) or not', () => {
    const plain = fp('src/cart.d(7): Error: undefined identifier `cnt`\n');
    const context = fp('src/cart.d(7): Error: undefined identifier `cnt`\n    return s + cnt;\n               ^\n');
    expect(context).toBe(plain);
    expect(plain).toBe('cart.d: error: undefined identifier cnt');
    // The indented body of a header is still read when no pointer marks it as source.
    const body = fp('src/Lib.hs:7:9: error: [GHC-83865]\n    • Couldn\'t match type ‘[Char]’ with ‘Int’\n');
    expect(body).toContain("Couldn't match type");
  });
});

describe('values said in a sentence, and whose values they are', () => {
  it('`expected 1200, got 1300` on its own line is a value line: the same failed check with another value differs', () => {
    const bats = (got: number) =>
      `1..1\nnot ok 1 total of three lines\n# (in test file test/total.bats, line 6)\n#   \`[ "$output" = "1200" ] || { echo "expected 1200, got $output"; false; }' failed\n# expected 1200, got ${got}\n`;
    expect(core(bats(1300))).toContain('expected 1200, got 1300');
    expect(core(bats(1199))).not.toBe(core(bats(1300)));
    // Other phrasings of the same sentence.
    expect(core(`FAIL: total\nexpected 1200 but was 1300\n`)).toContain('expected 1200 but was 1300');
  });

  it("the values under the next test's status line are that test's, not the error's (TAP, any order)", () => {
    const block = (n: number, name: string, body: string[]) => [`not ok ${n} cart > ${name}`, '  ---', ...body, '  ...'];
    const range = (n: number) =>
      block(n, 'discount over the cap', ['  message: |+', '    Died on test #1: discount 60 is over the 50% cap', '  severity: failed', '  stack: |', '    RangeError: discount 60 is over the 50% cap', '        at discount (/tmp/x/src/cart.js:20:23)']);
    const label = (n: number) => block(n, 'label of a coupon', ['  message: failed', '  severity: failed', '  actual  : voucher X', '  expected: coupon X']);
    const first = ['TAP version 13', ...range(1), ...label(2), '1..2', '# fail 2'].join('\n');
    const second = ['TAP version 13', ...label(1), ...range(2), '1..2', '# fail 2'].join('\n');
    expect(core(first)).toBe(core(second));
    expect(core(first)).toContain('RangeError: discount 60 is over the 50% cap');
    expect(core(first)).not.toContain('voucher X');
  });
});

describe('values of a report that change on every run', () => {
  it("a JUnit report's run id (a compact date-time) and its time attributes are normalised; its counts stay", () => {
    const head = (id: string, time: string) => `<testsuites id="${id}" name="TAP Tests" tests="11" failures="5" skipped="0" time="${time}">`;
    expect(normalizeValues(head('20261124_082932984', '1.490218'))).toBe(normalizeValues(head('20261125_101500117', '2.058849')));
    expect(normalizeValues(head('20261124_082932984', '1.490218'))).toBe('<testsuites id="<time>" name="TAP Tests" tests="11" failures="5" skipped="0" time="<dur>">');
    expect(normalizeValues('<testcase name="total" duration=\'0.0031\'>')).toBe('<testcase name="total" duration=\'<dur>\'>');
    expect(normalizeValues('report-20261124T082932.xml')).toBe('report-<time>.xml');
    // Not a number that only starts like a date: an id of eight digits, a step count.
    expect(normalizeValues('order 20261124 failed at step 3')).toBe('order 20261124 failed at step 3');
  });
});

describe('a label is never the last thing kept', () => {
  it('the value under a label closing the follow-up is kept too (`Expected:` over `(number) 1200`)', () => {
    const busted = (expected: number) =>
      `Failure -> spec/cart_spec.lua @ 4\ncart totals three lines\nspec/cart_spec.lua:5: Expected objects to be equal.\nPassed in:\n(number) 1300\nExpected:\n(number) ${expected}\n`;
    expect(core(busted(1200))).toBe('cart_spec.lua: Expected objects to be equal. | Passed in: ; (number) 1300 ; Expected: ; (number) 1200');
    expect(core(busted(1250))).not.toBe(core(busted(1200)));
  });
});
