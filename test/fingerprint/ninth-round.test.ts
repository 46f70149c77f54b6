/**
 * General rules of issue 17's ninth round (tools-l, first contact with shapes the other corpora
 * lack: a database client, template engines, test runners of other languages, a TOML checker):
 * each case is a written example of a shape, and checks the rule, not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { normalizeValues } from '../../src/fingerprint/normalize.js';

const fp = (text: string) => fingerprint(text).fingerprint;

describe('a relative path glued to a program name', () => {
  // A client that prefixes its errors with `prog:file:line:` and names the file as it was given.
  const sqlError = (file: string, line: number, column: string) =>
    `${file.startsWith('/') ? '' : 'psql:'}${file}:${line}: ERROR:  column "${column}" does not exist\nLINE 1: SELECT sum(price * qty) + ${column} AS total FROM items;\n                                  ^\n`;
  it('`psql:app/sql/cart.sql:3:` and `psql:sql/cart.sql:10:` name the same file: its basename stays', () => {
    expect(normalizeValues('psql:app/sql/cart.sql:3: ERROR:  division by zero')).toBe('psql:cart.sql: ERROR: division by zero');
    expect(fp(sqlError('app/sql/cart.sql', 3, 'totl'))).toBe(fp(sqlError('sql/cart.sql', 10, 'totl')));
    expect(fp(sqlError('sql/cart.sql', 3, 'cnt'))).not.toBe(fp(sqlError('sql/cart.sql', 3, 'totl')));
  });
  it('a module and its arity (`cart:total/1`) or a URL after a host stay what they were', () => {
    expect(normalizeValues('undef cart:total/1')).toBe('undef cart:total/1');
    expect(normalizeValues('GET http://example.test/a/b')).toBe('GET http://example.test/a/b');
  });
});

describe('an excerpt line marked `>>`', () => {
  // A template engine: the file and line, the excerpt with the failing line marked `>>`, the message.
  const thrown = (root: string, pad: number, items: number) =>
    [
      `ejs: ${root}/views/cart.ejs:${6 + pad}`,
      `    ${4 + pad}| <% }) %></ul>`,
      `    ${5 + pad}| <p>Total: <%= total %></p>`,
      ` >> ${6 + pad}| <% if (items.length > 1) throw new Error('too many items: ' + items.length) %>`,
      `    ${7 + pad}| `,
      '',
      `too many items: ${items}`,
    ].join('\n');
  it('is source, not the message: the message under it is the fingerprint, whatever line it is on', () => {
    expect(fp(thrown('/tmp/a1/app', 0, 2))).toBe('too many items: 2');
    expect(fp(thrown('/home/u/ci/app', 7, 2))).toBe(fp(thrown('/tmp/a1/app', 0, 2)));
    expect(fp(thrown('/tmp/a1/app', 0, 3))).not.toBe(fp(thrown('/tmp/a1/app', 0, 2)));
  });
});

describe('tallies read as how many failed', () => {
  // A runner that closes with ` 1 pass` / ` 3 fail` (counts before short verbs).
  const bunRun = (failing: string[]) =>
    [
      'test/cart.test.js:',
      '4 | test(\'total\', () => { expect(total(items)).toBe(1200); });',
      '                                               ^',
      'error: expect(received).toBe(expected)',
      '',
      'Expected: 1200',
      'Received: 1199',
      '',
      '      at <anonymous> (/tmp/x/app/test/cart.test.js:4:44)',
      ...failing.map((name) => `(fail) ${name} [0.37ms]`),
      '',
      ` ${4 - failing.length} pass`,
      ` ${failing.length} fail`,
      'Ran 4 tests across 1 file. [4.00ms]',
    ].join('\n');
  it('` 3 fail` is a tally: three failing is not the first of them failing alone', () => {
    expect(fp(bunRun(['total', 'label', 'discount']))).toContain('3 failing');
    expect(fp(bunRun(['total', 'label', 'discount']))).not.toBe(fp(bunRun(['total'])));
    expect(fp(bunRun(['total']))).not.toContain('failing');
  });

  // A runner whose blocks are fields between rules and which closes with `2/4 test failures`.
  const block = (name: string, kind: string, body: string[]) => ['--------------------', name, kind, 'name:       check-equal?', 'location:   cart-test.rkt:7:22', ...body, '--------------------'];
  const label = block('label', 'FAILURE', ['actual:     "voucher X"', 'expected:   "coupon X"']);
  const discount = block('discount', 'ERROR', ['', 'discount: 10 is over the cap']);
  it('`2/4 test failures` is a tally of two', () => {
    const two = ['raco test: "cart-test.rkt"', ...label, ...discount, '2/4 test failures'].join('\n');
    const one = ['raco test: "cart-test.rkt"', ...label, '1/4 test failures'].join('\n');
    expect(fp(two)).toContain('2 failing');
    expect(fp(two)).not.toBe(fp(one));
  });

  it('what a program prints after the rule closing the error block is not the error\'s', () => {
    const run = (after: string) => ['raco test: "cart-test.rkt"', ...discount, '1/4 test failures', after].join('\n');
    expect(fp(run('fixture 1650 at 1795561453611.467'))).toBe(fp(run('fixture 2211 at 1795561468044.12')));
    expect(fp(run('fixture 1650 at 1795561453611.467'))).toContain('discount: 10 is over the cap');
  });
});

describe('an info-level log line above a bare error title', () => {
  // A checker that logs what it collected at info level, then prints a title with its excerpt.
  const toml = (files: number) =>
    [
      ` INFO taplo:lint_files:collect_files: found files total=${files} excluded=0 cwd="/tmp/a/app"`,
      'error: invalid TOML',
      '   ┌─ /tmp/a/app/config/cart.toml:10:10',
      '   │',
      '10 │ coupon = "Coupon',
      '   │          ^ unexpected token',
      '',
      'error: invalid TOML',
    ].join('\n');
  it('is not read as what the title is about: more files collected is the same failure', () => {
    expect(fp(toml(3))).toBe(fp(toml(1)));
    expect(fp(toml(1))).not.toContain('found files');
  });
});

describe('failing units of a runner that marks each test `(fail) name [0.37ms]`', () => {
  // The same run printed plain (`(fail)`/`(pass)`) and with colour (`✗`/`✓`); each test's duration in brackets.
  const run = (failing: string[], colour: boolean, ms: string) =>
    ['total', 'label', 'discount', 'first sku']
      .map((name) => `${failing.includes(name) ? (colour ? '✗' : '(fail)') : colour ? '✓' : '(pass)'} ${name} [${ms}ms]`)
      .concat(['', ` ${4 - failing.length} pass`, ` ${failing.length} fail`])
      .join('\n');
  const units = (text: string) => fingerprint(text).failing_units;
  it('are the failing tests, without the duration that changes every run', () => {
    expect(units(run(['total', 'label', 'discount'], false, '0.37'))).toEqual(['discount', 'label', 'total']);
    expect(units(run(['total', 'label', 'discount'], true, '0.05'))).toEqual(['discount', 'label', 'total']);
  });
  it('shrink when one is fixed, with or without colour', () => {
    expect(units(run(['label', 'discount'], false, '0.41'))).toEqual(['discount', 'label']);
    expect(units(run(['label', 'discount'], true, '0.12'))).toEqual(['discount', 'label']);
  });
});

describe('Test::Builder\'s closing tally, read by the core alone', () => {
  // TAP from a Test::Builder-style library: the failing tests' comments, then `# You failed N tests of M`.
  const tap = (failing: string[]) =>
    ['ok 1 - lines', ...failing.flatMap((name, i) => [`not ok ${i + 2} - ${name}`, `# Failed test '${name}'`, `# at t/cart.t line ${5 + i}`, '# expected: 1200', '#      got: 1199'])]
      .concat([`1..${failing.length + 1}`, `# You failed ${failing.length} test${failing.length > 1 ? 's' : ''} of ${failing.length + 1}`])
      .join('\n');
  const core = (text: string) => fingerprint(text, { extractors: false }).fingerprint;
  it('`# You failed 2 tests of 3` says how many failed: fixing one of two is another fingerprint', () => {
    expect(core(tap(['label', 'total']))).toContain('2 failing');
    expect(core(tap(['label', 'total']))).not.toBe(core(tap(['label'])));
    expect(core(tap(['label']))).not.toContain('failing');
  });
});
