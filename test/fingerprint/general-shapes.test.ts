/**
 * Output shapes of tools nobody tuned for (issue 17's third round, corpora tools-g and tools-h):
 * each case is a real output cut short, and the general rule it needs, not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';

const fp = (text: string) => fingerprint(text).fingerprint;
const core = (text: string) => fingerprint(text, { extractors: false }).fingerprint;

describe('positions and severities in other shapes', () => {
  it('`file(line,col) Error:` without a colon after the position is a compiler error, not the wrapper after it (fpc)', () => {
    const fpc = (name: string, col: number) =>
      `Compiling src/cart.pas\ncart.pas(9,${col}) Error: Identifier not found "${name}"\ncart.pas(21) Fatal: There were 1 errors compiling module, stopping\nFatal: Compilation aborted\nError: /usr/bin/ppcx64 returned an error exitcode\n`;
    expect(fp(fpc('totl', 22))).toBe('cart.pas: error: Identifier not found totl');
    expect(fp(fpc('cnt', 20))).toBe('cart.pas: error: Identifier not found cnt');
  });

  it('a message located `at line N, column M` is a diagnostic (perlcritic), the earliest one wins', () => {
    const out = (first: string) =>
      `${first} at line 11, column 5.  See page 108 of PBP.  (Severity: 5)\nClose filehandles as soon as possible after opening them at line 17, column 5.  See page 209 of PBP.  (Severity: 4)\n`;
    expect(fp(out('Loop iterator is not lexical'))).toBe('Loop iterator is not lexical at line <n>, column <n>. (Severity: 5)');
    expect(fp(out('Code before strictures are enabled'))).not.toBe(fp(out('Loop iterator is not lexical')));
  });

  it('a severity followed by a bracketed rule and no colon reads like the stylish form (html-validate)', () => {
    const text = fp('/tmp/a/site/index.html:9:5: error [no-dup-id] Duplicate ID "total"\n');
    const stylish = fp('/tmp/b/site/index.html\n  9:5  error  Duplicate ID "total"  no-dup-id\n');
    expect(text).toBe('index.html: error: Duplicate ID total');
    expect(stylish).toBe(text);
  });

  it('`Issue:` announces a linter finding (bandit), not the metrics after it', () => {
    const out = (code: string) =>
      `Run started:2026-11-24 05:31:53.832255\n\nTest results:\n>> Issue: [${code}] Possible hardcoded password: 'hunter2'\n   Severity: Low   Confidence: Medium\n   Location: src/store.py:4\n\nRun metrics:\n\tTotal issues (by severity):\n\t\tUndefined: 0.0\n\t\tLow: 1.0\n`;
    expect(fp(out('B107:hardcoded_password_default'))).toContain('Issue: [B107:hardcoded_password_default]');
    expect(fp(out('B105:hardcoded_password_string'))).not.toBe(fp(out('B107:hardcoded_password_default')));
  });

  it('`Assertion Failed: message` is an assertion whatever its case (behave), over the scenario list', () => {
    const out = (got: number) =>
      `  Scenario: three lines                      # features/cart.feature:3\n    Then the total is 1200                   # features/steps/cart_steps.py:19\n      Assertion Failed: expected 1200, got ${got}\n\n\nFailing scenarios:\n  features/cart.feature:3  three lines\n`;
    expect(fp(out(1199))).toBe('Assertion Failed: expected 1200, got 1199 | failing cart.feature three lines');
    expect(fp(out(1300))).not.toBe(fp(out(1199)));
  });
});

describe('what completes a line that says little', () => {
  it('a closing line that only says it failed follows what was printed just above it (a testbench $fatal)', () => {
    const out = (got: number) => `FAIL: total expected 500, got ${got}\nFATAL: tb/tb.v:8: total mismatch\n       Time: 1 Scope: tb\n`;
    expect(fp(out(499))).toBe('FAIL: total expected 500, got 499 | FATAL: tb.v: total mismatch');
    expect(fp(out(600))).not.toBe(fp(out(499)));
  });

  it('source lines numbered without a gutter bar are an excerpt, not the message (lessc)', () => {
    const out = (shift: number) =>
      `NameError: variable @brand-colr is undefined in /tmp/a/styles/site.less on line ${6 + shift}, column 10:\n${5 + shift} .card {\n${6 + shift}   color: @brand-colr;\n${7 + shift}   padding: @gap-small;\n`;
    expect(fp(out(0))).toBe('NameError: variable @brand-colr is undefined in site.less on line <n>, column <n>:');
    expect(fp(out(7))).toBe(fp(out(0)));
  });

  it('a diff whose markers are doubled and glued to the value (uvu `++1200` / `--1199`) gives the values; `-- Configuring` is no diff', () => {
    const out = (got: number) =>
      `   FAIL  "total of three lines"\n    Expected values to be strictly equal:  (is)\n\n        ++1200    (Expected)\n        --${got}    (Actual)\n\n    at assert (/tmp/n/node_modules/uvu/assert/index.js:33:8)\n`;
    expect(fp(out(1199))).toBe('FAIL total of three lines | - 1199 (Actual) ; + 1200 (Expected)');
    expect(fp(out(1300))).not.toBe(fp(out(1199)));
    expect(fp('CMake Error at CMakeLists.txt:3 (add_exectuable):\n  Unknown CMake command "add_exectuable".\n\n\n-- Configuring incomplete, errors occurred!\n')).not.toContain('Configuring');
  });

  it('an excerpt ending on an empty numbered line is still an excerpt (lessc)', () => {
    const out = (line: number) => `ParseError: Unrecognised input. Possibly missing something in /tmp/a/site.less on line ${line}, column 1:\n${line - 1} }\n${line} \n\n`;
    expect(fp(out(13))).toBe('ParseError: Unrecognised input. Possibly missing something in site.less on line <n>, column <n>:');
    expect(fp(out(20))).toBe(fp(out(13)));
  });

  it('a value line that is the error line brings the value lines right above it (core alone, QUnit TAP)', () => {
    const out = (got: number) =>
      `TAP version 13\nnot ok 1 cart > total of three lines\n  ---\n  message: failed\n  severity: failed\n  actual  : ${got}\n  expected: 1200\n  stack: |\n        at Object.<anonymous> (/tmp/a/test/cart.test.js:5:12)\n  ...\n`;
    expect(core(out(1199))).toContain('actual : 1199 | expected: 1200');
    expect(core(out(1300))).not.toBe(core(out(1199)));
  });

  it('a value diagram under a message: its rows of pointers do not end the body', () => {
    const out = ['Error: check failed', '    total(items) == 1200', '    |            |', '    got 1199     false'].join('\n');
    expect(core(out)).toContain('got 1199 false');
  });

  it('`Call history:` heads a stack (CHICKEN): its frames are not the message', () => {
    const out = (name: string) =>
      `\nError: unbound variable: ${name}\n\n\tCall history:\n\n\t<eval>\t  (total (quote ((250 . 2))))\n\t<eval>\t  [total] (${name} items)\t<--\n`;
    expect(fp(out('totl'))).toBe('Error: unbound variable: totl');
    expect(fp(out('cnt'))).toBe('Error: unbound variable: cnt');
  });

  it('the ASCII `x` of a status glyph is the same mark as the colour `×` (oxlint)', () => {
    const ascii = "  x eslint(no-unused-vars): Variable 'cnt' is declared but never used.\n   ,-[src/cart.js:3:9]\n 3 |   const cnt = items.length;\n";
    const colour = "  \u001b[31m×\u001b[0m eslint(no-unused-vars): Variable 'cnt' is declared but never used.\n   ╭─[src/cart.js:3:9]\n 3 │   const cnt = items.length;\n";
    expect(fp(ascii)).toBe("cart.js: Variable cnt is declared but never used.");
    expect(fp(colour)).toBe(fp(ascii));
    // The ASCII box around the excerpt (`,-[file:3:9]`) names the file, like `╭─[file:3:9]`.
    const boxed = (line: number) => `  x eslint(no-debugger): \`debugger\` statement is not allowed\n   ,-[src/cart.js:${line}:3]\n ${line} |   debugger;\n   \`----\n`;
    expect(fp(boxed(3))).toBe('cart.js: debugger statement is not allowed');
    expect(fp(boxed(10))).toBe(fp(boxed(3)));
  });
});

describe('a summary that lists the failing units', () => {
  const behave = (failing: string[]) =>
    [
      '  Scenario: coupon label         # features/cart.feature:7',
      '      Traceback (most recent call last):',
      '        File "features/steps/cart_steps.py", line 32, in step_label',
      '          assert cart.label(ctx.code) == text',
      "      AttributeError: 'str' object has no attribute 'get'",
      '',
      'Failing scenarios:',
      ...failing.map((f) => `  features/cart.feature:${f}`),
      '',
      '0 features passed, 1 failed, 0 skipped',
    ].join('\n');

  it('names the failing units when no runner block does (`Failing scenarios:`, `The following tests FAILED:`)', () => {
    expect(fingerprint(behave(['3  three lines', '7  coupon label'])).failing_units).toEqual(['cart.feature three lines', 'cart.feature coupon label'].sort());
    expect(fingerprint('The following tests FAILED:\n\t  2 - ring_wrap (Failed)\nErrors while running CTest\n', { extractors: false }).failing_units).toEqual(['2 - ring_wrap (Failed)']);
  });

  it('"fixed one of N": the same first error with fewer failing units is another fingerprint', () => {
    const three = fingerprint(behave(['3  three lines', '7  coupon label']));
    const two = fingerprint(behave(['7  coupon label']));
    expect(two.fingerprint).not.toBe(three.fingerprint);
    expect(three.failing_units).toEqual(expect.arrayContaining(two.failing_units));
    expect(fingerprint(behave(['7  coupon label', '3  three lines'])).fingerprint).toBe(three.fingerprint);
  });
});
