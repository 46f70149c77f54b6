/**
 * General rules of issue 17's seventh round (tuned on tools-j, built on the shared corpus's noise
 * scheme, and on tools-g/h/i): each case is a written example of a shape, and checks the rule,
 * not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';

const fp = (text: string) => fingerprint(text).fingerprint;
const ESC = '\u001b';
/** One escape per word, names in bold instead of quoted: what several tools print with colour on. */
const bold = (s: string) => `${ESC}[0;1m${s}${ESC}[0m`;

describe('colour that replaces quotes', () => {
  it('a name quoted without colour and printed in bold with it is one fingerprint', () => {
    const plain = "src/cart.lua:7:12: accessing undefined variable 'cnt'\n";
    const color = `src/cart.lua:7:12: accessing undefined variable ${bold('cnt')}\n`;
    expect(fp(color)).toBe(fp(plain));
    expect(fp(plain)).toBe('cart.lua: accessing undefined variable cnt');
    // Another name is another cause.
    expect(fp(plain)).not.toBe(fp("src/cart.lua:7:12: accessing undefined variable 'totl'\n"));
  });

  it('backquotes, double and typographic quotes go too; the values between them and apostrophes in words stay', () => {
    expect(fp('Error: Expected "voucher X" to equal `coupon X`\n')).toBe(fp('Error: Expected ‘voucher X’ to equal “coupon X”\n'));
    expect(fp('Error: Expected "voucher X" to equal `coupon X`\n')).toBe('Error: Expected voucher X to equal coupon X');
    expect(fp("Lib.hs:4:9: error: Couldn't match type 'Int' with 'Text'\n")).toContain("Couldn't match type Int with Text");
  });
});

describe('a header that says only where', () => {
  it('a header that says only where loses to the message under it, quoted or in bold', () => {
    const rule = '-'.repeat(60);
    const plain = `Error ${rule} src/cart.js:6:62\n\nCannot resolve name \`totl\`. [cannot-resolve-name]\n\n   6|   return s + totl;\n`;
    const color = `${ESC}[31mError ${rule} src/cart.js:6:62${ESC}[0m\n\n${bold('Cannot')} ${bold('resolve')} ${bold('name')} ${bold('totl')}. [cannot-resolve-name]\n\n   6|   return s + totl;\n`;
    expect(fp(plain)).toBe('Cannot resolve name totl.');
    // With colour the name is in bold, not quoted: the message is still the line kept, not the header.
    expect(fp(color)).toBe(fp(plain));
    expect(fp(color.replaceAll('totl', 'cnt'))).not.toBe(fp(color));
  });

  it('a header over an indented body keeps it: the body is its message', () => {
    const out = 'ERROR: /tmp/x/test_cart.pl:6:\n\ttest total: assertion failed\n\tAssertion: 1199==1200\nERROR: -g run_tests: false\n';
    expect(fp(out)).toContain('Assertion: 1199==1200');
  });
});

describe('positions and terms', () => {
  it('a line:column range opening a line moves with the lines: it goes', () => {
    const a = 'docs/README.md\n3:19-3:32  warning Unexpected reference to undefined definition (`totl`)  no-undefined-references\n';
    const shifted = 'docs/README.md\n10:19-10:32  warning Unexpected reference to undefined definition (`totl`)  no-undefined-references\n';
    expect(fp(shifted)).toBe(fp(a));
    expect(fp(a)).not.toMatch(/\d+:\d+/);
  });

  it('an error term with a slash inside its brackets is specific: a line printed after it is not read into it', () => {
    const a = 'error: error(evaluation_error(zero_divisor),(is)/2)\n';
    const withRunLine = 'error: error(evaluation_error(zero_divisor),(is)/2)\nrun 748785 at 1\n';
    expect(fp(withRunLine)).toBe(fp(a));
  });
});

describe('tallies of several failures', () => {
  it('`N of M tests failed`: one failing test is not three, whatever the first one says', () => {
    const block = '  1) cart totals the items:\n\n      Expected 1199 to equal specified value: 1200\n\n      at test/cart.js:9:63\n';
    const one = `${block}\n\n1 of 4 tests failed\nTest duration: 5 ms\n`;
    const three = `${block}\n  2) cart labels a coupon:\n\n      Expected 'voucher X' to equal specified value: 'coupon X'\n\n3 of 5 tests failed\nTest duration: 4 ms\n`;
    expect(fp(three)).not.toBe(fp(one));
    expect(fp(three)).toContain('3 failing');
    // More passing tests do not change it.
    expect(fp(one.replace('1 of 4', '1 of 7'))).toBe(fp(one));
  });

  it('`FAILED (failures=N)`: a count after its word is a tally too', () => {
    const one = 'testTotal\nASSERT:expected:<1200> but was:<1199>\n\nRan 4 tests.\n\nFAILED (failures=1)\n';
    const three = 'testTotal\nASSERT:expected:<1200> but was:<1199>\ntestLabel\nASSERT:expected:<coupon X> but was:<voucher X>\n\nRan 4 tests.\n\nFAILED (failures=3)\n';
    expect(fp(three)).not.toBe(fp(one));
    expect(fp(three)).toContain('3 failing');
    expect(fp(one.replace('Ran 4', 'Ran 7'))).toBe(fp(one));
  });
});
