/**
 * General rules of issue 17's sixth round (tuned on tools-g, tools-h, tools-i): each case is a
 * written example of a shape, and checks the rule, not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';

const fp = (text: string) => fingerprint(text).fingerprint;
const units = (text: string) => fingerprint(text).failing_units;

describe('what an output format adds around a message', () => {
  it('a rule tag opening the message (a bracketed id with :: or /) is the format\'s: with and without it, one fingerprint', () => {
    const plain = fp('Two-argument "open" used at line 16, column 5.  (Severity: 5)\n');
    expect(fp('[InputOutput::ProhibitTwoArgOpen] Two-argument "open" used at line 16, column 5.  (Severity: 5)\n')).toBe(plain);
    expect(fp('[style/semicolon] error: missing semicolon after the statement\n')).toBe(fp('error: missing semicolon after the statement\n'));
    expect(plain).toBe('Two-argument open used at line <n>, column <n>. (Severity: 5)');
  });

  it('a bracket opening a line that is no rule id stays: a level, a count, a name', () => {
    expect(fp('[ERROR] total mismatch: expected 1200, got 1300\n')).toContain('total mismatch');
    expect(fp('[cart_totals] FAILED: expected 1200, got 1300\n')).toContain('[cart_totals]');
    expect(fp('[3/7] error: cannot compile cart.c\n')).toContain('cannot compile');
  });

  it('a reference sentence (See page N / See URL) is advice, not the cause: a format that omits it agrees', () => {
    const withRef = fp('Loop iterator is not lexical at line 9, column 3.  See page 108 of PBP.  (Severity: 5)\n');
    expect(withRef).toBe(fp('Loop iterator is not lexical at line 9, column 3.  (Severity: 5)\n'));
    expect(fp('src/a.js:3:1: Missing semicolon. See https://example.org/docs/rules/semi.html\n')).toBe(fp('src/a.js:3:1: Missing semicolon.\n'));
    // Another message is another fingerprint; "see" inside a sentence is part of it.
    expect(withRef).not.toBe(fp('Code before strictures are enabled at line 9, column 3.  See page 429 of PBP.  (Severity: 5)\n'));
    expect(fp('src/a.c:3:1: error: cannot see through opaque type foo\n')).toContain('cannot see through opaque type foo');
  });

  it('failing units read like the fingerprint: a rule tag a format adds does not make another unit', () => {
    const a = 'src/a.c:3:5: error: unused variable ‘x’ [-Werror=unused-variable]\nsrc/a.c:9:5: error: unused variable ‘y’ [-Werror=unused-variable]\n';
    const b = 'src/a.c:3:5: error: unused variable ‘x’\nsrc/a.c:9:5: error: unused variable ‘y’\n';
    expect(units(a)).toEqual(units(b));
    expect(units(a)).toEqual(['a.c: error: unused variable ‘x’', 'a.c: error: unused variable ‘y’']);
  });
});

describe('the file of a diagnostic in the box drawn under it', () => {
  it('a glyph and a plugin(rule) id over a box header naming the file: the file and the message, as a one-line format gives them', () => {
    const boxed = (file: string, line: number) =>
      `\n  × eslint(no-debugger): \`debugger\` statement is not allowed\n   ╭─[${file}:${line}:3]\n ${line - 1} │ function total() {\n ${line} │   debugger;\n   ·   ─────────\n   ╰────\n  help: Remove the debugger statement\n\nFound 0 warnings and 1 error.\n`;
    const ascii = '\n  x eslint(no-debugger): `debugger` statement is not allowed\n   ,-[src/cart.js:4:3]\n 4 |   debugger;\n   :   ^^^^^^^^^\n   `----\n';
    const oneLine = 'src/cart.js:4:3: `debugger` statement is not allowed [Error/eslint(no-debugger)]\n\n1 problem\n';
    expect(fp(boxed('src/cart.js', 4))).toBe('cart.js: debugger statement is not allowed');
    expect(fp(boxed('/tmp/run-2/src/cart.js', 9))).toBe(fp(boxed('src/cart.js', 4)));
    expect(fp(ascii)).toBe(fp(boxed('src/cart.js', 4)));
    expect(fp(oneLine)).toBe(fp(boxed('src/cart.js', 4)));
    // Another file is another fingerprint.
    expect(fp(boxed('src/label.js', 4))).not.toBe(fp(boxed('src/cart.js', 4)));
  });

  it('a glyph with no box under it is no diagnostic: a failing test\'s status line stays what it was', () => {
    const spec = '✖ total of three lines (1.2ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n  1300 !== 1200\n';
    expect(fp(spec)).not.toContain('total of three lines:');
    expect(fp(spec)).toContain('1300 !== 1200');
  });
});
