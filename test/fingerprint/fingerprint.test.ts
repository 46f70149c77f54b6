import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint, NO_OUTPUT } from '../../src/fingerprint/fingerprint.js';
import { repoRoot } from '../helpers/cli.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'fingerprint');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const fp = (text: string) => fingerprint(text).fingerprint;

describe('fingerprint: shape', () => {
  it('empty or blank input gives a stable one-line fingerprint', () => {
    expect(fingerprint('')).toEqual({ fingerprint: NO_OUTPUT, line: null, tool: null });
    expect(fp('\n  \n\u001b[0m\n')).toBe(NO_OUTPUT);
    expect(fingerprint('', { exitCode: 3 }).fingerprint).toBe(`${NO_OUTPUT} (exit 3)`);
  });

  it('every fixture gives one deterministic line of at most 200 characters', () => {
    for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.txt'))) {
      const text = read(name);
      const a = fingerprint(text);
      expect(a.fingerprint, name).not.toMatch(/[\r\n]/);
      expect(a.fingerprint.length, name).toBeGreaterThan(0);
      expect(a.fingerprint.length, name).toBeLessThanOrEqual(200);
      expect(fingerprint(text), name).toEqual(a);
    }
  });

  it('reports the 1-based input line of the signature and the tool', () => {
    const pytest = read('pytest-assert-rounding.txt');
    const r = fingerprint(pytest);
    expect(pytest.split('\n')[r.line! - 1]).toMatch(/^E\s+AssertionError: assert 379 == 380/);
    expect(r.tool).toBe('pytest');
    expect(fingerprint(read('tsc-missing-prop.txt'))).toMatchObject({ line: 1, tool: 'tsc' });
    expect(fingerprint(read('vitest-off-by-one.txt')).tool).toBe('vitest');
    expect(fingerprint(read('jest-status-threshold.txt')).tool).toBe('jest');
    expect(fingerprint(read('cargo-test-balance-off.txt')).tool).toBe('cargo');
    expect(fingerprint(read('go-test-nil-map.txt')).tool).toBe('go');
    expect(fingerprint(read('node-test-tap-slug.txt')).tool).toBe('node-test');
  });
});

describe('fingerprint: same root cause, same fingerprint', () => {
  it('ignores colour, roots and shifted lines (vitest, tsc --pretty)', () => {
    expect(fp(read('vitest-off-by-one-color.txt'))).toBe(fp(read('vitest-off-by-one.txt')));
    expect(fp(read('tsc-missing-prop-pretty.txt'))).toBe(fp(read('tsc-missing-prop.txt')));
  });

  it('ignores the order parallel tests ran in (cargo)', () => {
    expect(fp(read('cargo-test-balance-off-shifted.txt'))).toBe(fp(read('cargo-test-balance-off.txt')));
  });

  it('ignores ids, timestamps, pids and durations in the message', () => {
    const a = read('jest-async-reject-randomized.txt');
    const b = a.replace(/request [0-9a-f-]{36}/, 'request 00000000-1111-2222-3333-444444444444').replace('Time:        0.504 s', 'Time:        9.9 s');
    expect(fp(b)).toBe(fp(a));
    expect(fp(a)).toContain('<uuid>');
  });
});

describe('fingerprint: different root cause, different fingerprint', () => {
  it('same test, different received value', () => {
    const a = read('vitest-off-by-one.txt');
    expect(fp(a.replaceAll('expected 40 to be 42', 'expected 16 to be 42'))).not.toBe(fp(a));
  });

  it('different failing test in the same file', () => {
    const a = read('jest-status-threshold.txt');
    const b = a.replace('● stockStatus › is in-stock at the threshold', '● stockStatus › is low-stock with a single unit left');
    expect(fp(b)).not.toBe(fp(a));
  });

  it('different missing symbol', () => {
    const a = read('tsc-missing-prop.txt');
    expect(fp(a.replace("'discount'", "'coupon'"))).not.toBe(fp(a));
  });

  it('a type error, then a failing test, then another failing test (npm run verify)', () => {
    const step1 = "\n> orders@1.0.0 verify\n> tsc -p . && vitest run\n\nsrc/orders.ts(12,34): error TS2339: Property 'shipping' does not exist on type 'Order'.\n";
    const step2 = read('npm-verify-step2.txt');
    const step3 = step2.replace(/ FAIL {2}test\/orders\.test\.ts > adds shipping[\s\S]*?(?= FAIL)/, '');
    const prints = [fp(step1), fp(step2), fp(step3)];
    expect(new Set(prints).size).toBe(3);
    expect(prints[0]).toBe("orders.ts: error TS2339: Property 'shipping' does not exist on type 'Order'.");
    expect(prints[1]).toMatch(/^orders\.test\.ts > adds shipping to the grand total \| AssertionError: expected 5000 to be 5750/);
    expect(prints[2]).toMatch(/^orders\.test\.ts > formats a receipt line/);
  });
});

describe('fingerprint: tool-agnostic signals', () => {
  it('python traceback → the exception line and where it was raised', () => {
    const out = [
      '2026-11-21T22:51:44.399056 [pid 24190] import started',
      'Traceback (most recent call last):',
      '  File "/tmp/x/scripts/run.py", line 9, in <module>',
      '    main()',
      '  File "/tmp/x/scripts/run.py", line 5, in main',
      '    url = settings["DATABASE_URL"]',
      "KeyError: 'DATABASE_URL'",
    ].join('\n');
    expect(fingerprint(out)).toMatchObject({ fingerprint: "KeyError: 'DATABASE_URL' | at run.py in main", line: 7, tool: 'python' });
  });

  it('chained python exceptions → the last one', () => {
    const out = [
      'Traceback (most recent call last):',
      '  File "a.py", line 2, in f',
      "KeyError: 'x'",
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "a.py", line 4, in g',
      'RuntimeError: config incomplete',
    ].join('\n');
    expect(fp(out)).toBe('RuntimeError: config incomplete | at a.py in g');
  });

  it('a panic message on the line after "panicked at …:"', () => {
    const out = "   Compiling app v0.1.0 (/tmp/a)\nthread 'main' panicked at src/main.rs:4:13:\nindex out of bounds: the len is 3 but the index is 11\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
    expect(fp(out)).toBe("thread 'main' panicked at main.rs: | index out of bounds: the len is 3 but the index is 11");
  });

  it('errors beat earlier warnings; compiler diagnostics name the file', () => {
    const out = 'warning: unused variable: `x`\n --> src/lib.rs:2:9\n\nerror[E0425]: cannot find value `y` in this scope\n --> src/lib.rs:3:5\n  |\n3 |     y\n  |     ^ not found in this scope\n\nerror: could not compile `app` (lib) due to 1 previous error; 1 warning emitted\n';
    expect(fp(out)).toBe('lib.rs: error E0425: cannot find value `y` in this scope | not found in this scope');
  });

  it('a generic wrapper keeps the line the failing step printed above it', () => {
    const out = './scripts/check-links.sh build/site.html\nbroken link: /docs/setup.html (referenced in build/site.html)\nmake: *** [Makefile:12: check] Error 1\n';
    expect(fingerprint(out)).toMatchObject({ fingerprint: 'broken link: setup.html (referenced in site.html)', line: 2 });
    const wrapperOnly = 'mdrender --standalone index.md\nrendered 3 pages\nmake: *** [Makefile:3: index.html] Error 2\n';
    expect(fp(wrapperOnly)).toBe('rendered 3 pages | make: *** [Makefile: index.html] Error 2');
  });

  it('a silent failure → the last meaningful line (how far it got)', () => {
    const out = '[22:52:17.602198755] [27795] release started in /tmp/a/widget\n[22:52:17.603915962] [27795] step 1/4: prepare\n[22:52:17.614071870] [27795] step 3/4: verify manifest\n';
    expect(fingerprint(out)).toMatchObject({ fingerprint: 'step 3/4: verify manifest', line: 3 });
  });

  it('a bare diagnostic title takes its body (terraform boxes)', () => {
    const box = (arg: string) =>
      `\u001b[31m╷\u001b[0m\n\u001b[31m│\u001b[0m \u001b[1m\u001b[31mError: \u001b[0mUnsupported argument\n│ \n│   on main.tf line 6, in resource "x" "y":\n│    6:   ${arg} = "bar"\n│ \n│ An argument named "${arg}" is not expected here.\n╵\n`;
    expect(fp(box('foo'))).toContain('An argument named "foo" is not expected here.');
    expect(fp(box('foo'))).not.toBe(fp(box('baz')));
  });

  it('log levels: an ERROR line beats INFO lines that mention failures', () => {
    const out = '2026-11-21 23:58:04,159 INFO [5653] job: retry policy: failed attempts are logged\n2026-11-21 23:58:04,170 ERROR [5653] job: could not connect to database at 127.0.0.1:29152\n';
    expect(fp(out)).toBe('ERROR [<pid>] job: could not connect to database at 127.0.0.1:<port>');
  });

  it('uncaught node errors and javac symbols', () => {
    expect(fp(read('node-uncaught-verbose.txt'))).toBe('Error: config key "port" is missing');
    expect(fp(read('javac-cannot-find-symbol.txt'))).toBe('App.java: error: cannot find symbol | symbol: variable totl');
  });

  it('test runners: unit name, message and values', () => {
    expect(fp(read('pytest-assert-rounding.txt'))).toBe('test_tax_rounds_half_up | AssertionError: assert 379 == 380');
    expect(fp(read('go-test-cost-wrong-shuffled.txt'))).toBe('TestCost | shipping_test.go: Cost(3) = 9.5; want 12');
    expect(fp(read('node-test-tap-slug.txt'))).toBe("slugify collapses punctuation | Expected values to be strictly equal: | expected: 'hello-world' ; actual: 'hello---world'");
    expect(fp(read('python-unittest-add.txt'))).toBe('test_add (test_calc.TestCalc.test_add) | AssertionError: 3 != 4');
    expect(fp(read('cargo-test-balance-off.txt'))).toBe('tests::balance_sums_entries | assertion `left == right` failed | left: 4100 ; right: 4200');
  });

  it('inspects only the head and tail of huge output, in bounded time per line', () => {
    const filler = Array.from({ length: 20_000 }, (_, i) => `[${i}] INFO processed /tmp/w/a${i}/file${i}.ts in ${i % 90}ms ${'x'.repeat(i % 3 === 0 ? 3000 : 10)}`);
    const out = ['src/a.ts(3,1): error TS1005: ";" expected.', ...filler].join('\n');
    expect(fingerprint(out)).toMatchObject({ fingerprint: 'a.ts: error TS1005: ";" expected.', line: 1 });
  });
});
