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
    expect(plain).toBe('Two-argument "open" used at line <n>, column <n>. (Severity: 5)');
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
