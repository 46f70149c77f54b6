import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint, NO_OUTPUT } from '../../src/fingerprint/fingerprint.js';
import { classifyLine } from '../../src/fingerprint/noise.js';
import { repoRoot } from '../helpers/cli.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'fingerprint');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const fp = (text: string) => fingerprint(text).fingerprint;

describe('fingerprint: shape', () => {
  it('empty or blank input gives a stable one-line fingerprint', () => {
    expect(fingerprint('')).toEqual({ fingerprint: NO_OUTPUT, line: null, tool: null, failing_units: [] });
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
    expect(prints[0]).toBe("orders.ts: error TS2339: Property shipping does not exist on type Order.");
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
    expect(fingerprint(out)).toMatchObject({ fingerprint: "KeyError: DATABASE_URL | at run.py in main", line: 7, tool: 'python' });
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
    expect(fp(out)).toBe("thread main panicked at main.rs: | index out of bounds: the len is 3 but the index is 11");
  });

  it('errors beat earlier warnings; compiler diagnostics name the file', () => {
    const out = 'warning: unused variable: `x`\n --> src/lib.rs:2:9\n\nerror[E0425]: cannot find value `y` in this scope\n --> src/lib.rs:3:5\n  |\n3 |     y\n  |     ^ not found in this scope\n\nerror: could not compile `app` (lib) due to 1 previous error; 1 warning emitted\n';
    expect(fp(out)).toBe('lib.rs: error E0425: cannot find value y in this scope | not found in this scope');
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
    expect(fp(box('foo'))).toContain('An argument named foo is not expected here.');
    expect(fp(box('foo'))).not.toBe(fp(box('baz')));
  });

  it('log levels: an ERROR line beats INFO lines that mention failures', () => {
    const out = '2026-11-21 23:58:04,159 INFO [5653] job: retry policy: failed attempts are logged\n2026-11-21 23:58:04,170 ERROR [5653] job: could not connect to database at 127.0.0.1:29152\n';
    expect(fp(out)).toBe('ERROR [<pid>] job: could not connect to database at 127.0.0.1:<port>');
  });

  it('uncaught node errors and javac symbols', () => {
    expect(fp(read('node-uncaught-verbose.txt'))).toBe('Error: config key port is missing | at app.js');
    expect(fp(read('javac-cannot-find-symbol.txt'))).toBe('App.java: error: cannot find symbol | symbol: variable totl');
  });

  it('test runners: unit name, message and values', () => {
    expect(fp(read('pytest-assert-rounding.txt'))).toBe('test_tax_rounds_half_up | AssertionError: assert 379 == 380');
    expect(fp(read('go-test-cost-wrong-shuffled.txt'))).toBe('TestCost | shipping_test.go: Cost(3) = 9.5; want 12');
    expect(fp(read('node-test-tap-slug.txt'))).toBe("slugify collapses punctuation | Expected values to be strictly equal: | expected: hello-world ; actual: hello---world");
    expect(fp(read('python-unittest-add.txt'))).toBe('test_add (test_calc.TestCalc.test_add) | AssertionError: 3 != 4');
    // Two tests fail: the first by name spelled out, the other's values after `also`.
    expect(fp(read('cargo-test-balance-off.txt'))).toBe('tests::balance_sums_entries | assertion left == right failed | left: 4100 ; right: 4200 | also left: 1 entries, 3900 cents ; right: 1 entries, 4000 cents | 2 failing');
  });

  it('memory checkers: the error record and the project frame, not the banner or the pid', () => {
    const vg = (pid: number, kind: string, fn: string) =>
      [
        `==${pid}== Memcheck, a memory error detector`,
        `==${pid}== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.`,
        `==${pid}== Command: ./stats data.csv`,
        `==${pid}== `,
        `==${pid}== ${kind}`,
        `==${pid}==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)`,
        `==${pid}==    by 0x10926E: ${fn} (main.c:${pid % 50})`,
        `==${pid}== `,
        `==${pid}== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)`,
      ].join('\n');
    expect(fp(vg(27677, 'Invalid write of size 8', 'main'))).toBe('Invalid write of size 8 | at main (main.c)');
    expect(fp(vg(31, 'Invalid write of size 8', 'main'))).toBe(fp(vg(27677, 'Invalid write of size 8', 'main')));
    expect(fp(vg(31, 'Invalid write of size 8', 'load'))).not.toBe(fp(vg(31, 'Invalid write of size 8', 'main')));
    expect(fp(vg(31, '48 bytes in 1 blocks are definitely lost in loss record 2 of 5', 'main'))).toMatch(/definitely lost in loss record <n> of <n> \| at main/);
    expect(fp(vg(31, 'Conditional jump or move depends on uninitialised value(s)', 'main'))).toMatch(/^Conditional jump/);
  });

  it('sanitizers: the access and the first frame in project code', () => {
    const asan = (pid: number, access: string, fn: string, file: string) =>
      [
        '=================================================================',
        `==${pid}==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60600000005${pid % 9} at pc 0x55d4 bp 0x7ffd sp 0x7ffc`,
        `${access} of size 8 at 0x606000000058 thread T0`,
        `    #0 0x557aebc9d39d in ${fn} ${file}:${pid % 40}`,
        '    #1 0x7fcea2645249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58',
        '',
        `SUMMARY: AddressSanitizer: heap-buffer-overflow ${file}:${pid % 40} in ${fn}`,
      ].join('\n');
    expect(fp(asan(27446, 'WRITE', 'main', 'src/main.c'))).toBe(
      'ERROR: AddressSanitizer: heap-buffer-overflow on address 0x<addr> at pc 0x<addr> bp 0x<addr> sp 0x<addr> | WRITE of size 8 ; at main (main.c)',
    );
    expect(fp(asan(5, 'WRITE', 'main', '/tmp/b/src/main.c'))).toBe(fp(asan(27446, 'WRITE', 'main', 'src/main.c')));
    expect(fp(asan(5, 'READ', 'mean', 'src/stats.c'))).not.toBe(fp(asan(5, 'WRITE', 'main', 'src/main.c')));
    const leak = '==9==ERROR: LeakSanitizer: detected memory leaks\n\nDirect leak of 48 byte(s) in 1 object(s) allocated from:\n    #0 0x7fbf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69\n    #1 0x564e in load_names src/names.c:4\n';
    expect(fp(leak)).toBe('ERROR: LeakSanitizer: detected memory leaks | at load_names (names.c)');
    const cxx = '==7==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000\n    #0 0x55d1 in Canvas::resize(int, int) src/canvas.cpp:12\n    #1 0x55d2 in main src/main.cpp:8\n';
    expect(fp(cxx)).toBe('ERROR: AddressSanitizer: SEGV on unknown address 0x<addr> | at Canvas::resize (canvas.cpp)');
    const vgcxx = '==9== Invalid read of size 4\n==9==    at 0x10918F: Canvas::area() const (canvas.hpp:14)\n==9==    by 0x1091A0: main (main.cpp:9)\n';
    expect(fp(vgcxx)).toBe('Invalid read of size 4 | at Canvas::area (canvas.hpp)');
    const java9 = 'Exception in thread "main" java.lang.IllegalArgumentException: negative size\n\tat app//com.shop.Cart.resize(Cart.java:41)\n\tat app//com.shop.Main.main(Main.java:7)\n';
    expect(fp(java9)).toBe('Exception in thread main java.lang.IllegalArgumentException: negative size | at com.shop.Cart.resize (Cart.java)');
  });

  it('a C assertion beats the shell\'s "Aborted" report', () => {
    const out = (expr: string, pid: number) => `stats: src/stats.c:5: mean: Assertion \`${expr}' failed.\nbash: line 1: ${pid} Aborted                 ./stats data.csv\n`;
    expect(fp(out('n > 0', 28687))).toBe("stats: stats.c: mean: Assertion n > 0 failed.");
    expect(fp(out('n <= 4', 1))).not.toBe(fp(out('n > 0', 28687)));
  });

  it('a merge conflict names the conflicting file', () => {
    const merge = (f: string) => `Auto-merging ${f}\nCONFLICT (content): Merge conflict in ${f}\nAutomatic merge failed; fix conflicts and then commit the result.\n`;
    expect(fp(merge('app.py'))).toBe('CONFLICT (content): Merge conflict in app.py');
    expect(fp(merge('setup.cfg'))).not.toBe(fp(merge('app.py')));
  });

  it('an indented traceback (doctest) ends at its own indentation; label-only value lines', () => {
    const exc = [
      '**********************************************************************',
      'File "/tmp/a/units.py", line 13, in units.to_grams',
      'Failed example:',
      '    to_grams("1lb")',
      'Exception raised:',
      '    Traceback (most recent call last):',
      '      File "/tmp/a/units.py", line 19, in to_grams',
      '        raise ValueError(f"unknown unit {unit!r}")',
      "    ValueError: unknown unit 'lb'",
      '**********************************************************************',
      '1 items had failures:',
      '   1 of   3 in units.to_grams',
      '***Test Failed*** 1 failures.',
    ].join('\n');
    expect(fp(exc)).toBe("ValueError: unknown unit lb | at units.py in to_grams");
    const got = (v: string) =>
      `**********************************************************************\nFile "/tmp/a/units.py", line 11, in units.to_grams\nFailed example:\n    to_grams("2kg")\nExpected:\n    2000\nGot:\n    ${v}\n**********************************************************************\n1 items had failures:\n   1 of   3 in units.to_grams\n***Test Failed*** 1 failures.\n`;
    expect(fp(got('200'))).toBe('Failed example: | to_grams(2kg) | Expected: 2000 ; Got: 200 | at units.py in units.to_grams');
    expect(fp(got('20000'))).not.toBe(fp(got('200')));
  });

  it('a header over an indented body: the body is the message, not a later generic error (plunit)', () => {
    const plunit = (root: string, got: number) =>
      `% PL-Unit: cart \nERROR: ${root}/app/test_cart.pl:6:\n\ttest total: assertion failed\n\tAssertion: ${got}==1200\nA.**FAILED 0.039 sec\n% 1 assertion failed\n% 1 test failed\n% 1 tests passed\nERROR: -g run_tests: false\n`;
    expect(fp(plunit('/tmp/a', 1199))).toBe('ERROR: test_cart.pl: | test total: assertion failed ; Assertion: 1199==1200');
    expect(fp(plunit('/srv/ci/b', 1199))).toBe(fp(plunit('/tmp/a', 1199)));
    expect(fp(plunit('/tmp/a', 1300))).not.toBe(fp(plunit('/tmp/a', 1199)));
    // A message wrapped under its header (SBCL): the wrapped part and the message under it.
    const sbcl = (fn: string) =>
      `Unhandled UNDEFINED-FUNCTION in thread #<SB-THREAD:THREAD "main thread" RUNNING\n                                          {1001348003}>:\n  The function COMMON-LISP-USER::${fn} is undefined.\n\nBacktrace for: #<SB-THREAD:THREAD "main thread" RUNNING {1001348003}>\n0: ("undefined function" ((250 . 2)))\n`;
    expect(fp(sbcl('TOTL'))).toContain('The function COMMON-LISP-USER::TOTL is undefined.');
    expect(fp(sbcl('CNT'))).not.toBe(fp(sbcl('TOTL')));
  });

  it('a generic message takes the source line its caret points at; a caret message is a diagnostic', () => {
    const sass = (pad: number, code: string) =>
      `Error: Undefined variable.\n  ╷\n${6 + pad} │   ${code}\n  │          ^^^^^^^^^^^\n  ╵\n  src/site.scss ${6 + pad}:10  root stylesheet\n`;
    expect(fp(sass(0, 'color: $brand-colr;'))).toBe('Error: Undefined variable. | site.scss root stylesheet | at: color: $brand-colr;');
    expect(fp(sass(7, 'color: $brand-colr;'))).toBe(fp(sass(0, 'color: $brand-colr;')));
    expect(fp(sass(0, 'padding: $gap-smal;'))).not.toBe(fp(sass(0, 'color: $brand-colr;')));
    // htmlhint: the gutter `L10 |` is the source line; the message is under the caret.
    const htmlhint = (line: number) =>
      `\n   /tmp/x/app/site/index.html\n      L${line} |  <p CLASS="note" id="note">prices in EUR</p>\n               ^ The attribute name of [ CLASS ] must be in lowercase. (attr-lowercase)\n\nScanned 1 files, found 1 errors in 1 files (9 ms)\n`;
    expect(fp(htmlhint(10))).toBe('The attribute name of [ CLASS ] must be in lowercase.');
    expect(fp(htmlhint(17))).toBe(fp(htmlhint(10)));
    // erlc's excerpt gutter behind a comment sign is no message.
    const erlc = (line: number) => `src/cart.erl:${line}:5: function fmt/1 undefined\n%    ${line}|     fmt(Code).\n%     |     ^\n\n`;
    expect(fp(erlc(16))).toBe('cart.erl: function fmt/1 undefined');
    expect(fp(erlc(9))).toBe(fp(erlc(16)));
  });

  it('a TAP diagnostic goes on in the next `#` line (bats prints the value there)', () => {
    const bats = (got: number) =>
      `1..2\nnot ok 1 total of three lines\n# (in test file test/total.bats, line 6)\n#   \`[ "$output" = "1200" ] || { echo "expected 1200, got $output"; false; }' failed\n# expected 1200, got ${got}\nok 2 total of nothing is zero\n`;
    expect(fp(bats(1199))).toBe('total of three lines | [ $output = 1200 ] || { echo expected 1200, got $output; false; } failed | expected 1200, got 1199');
    expect(fp(bats(1300))).not.toBe(fp(bats(1199)));
  });

  it('several failing units: the other units\' values are kept too, in any run order', () => {
    // bats: both tests fail; only the second one's `# expected 1200, got N` tells the causes apart.
    const bats = (got: number, order: 'a' | 'b') => {
      const three = `not ok 1 total of three lines\n# (in test file test/total.bats, line 6)\n#   \`[ "$output" = "1200" ] || { echo "expected 1200, got $output"; false; }' failed\n# expected 1200, got ${got}\n`;
      const zero = `not ok 2 total of nothing is zero\n# (in test file test/total.bats, line 11)\n#   \`[ "$output" = "0" ]' failed\n`;
      return `1..2\n${order === 'a' ? three + zero : zero + three}`;
    };
    expect(fp(bats(1199, 'a'))).toBe('total of nothing is zero | [ $output = 0 ] failed | also expected 1200, got 1199 | 2 failing');
    expect(fp(bats(1199, 'b'))).toBe(fp(bats(1199, 'a')));
    expect(fp(bats(1300, 'a'))).not.toBe(fp(bats(1199, 'a')));
  });

  it('core alone: a test\'s status line (`✕ name (5 ms)`, `not ok 1 name`) loses to the line that says why', () => {
    const jest = (ms: number, extra: string) =>
      `FAIL test/stock.test.js\n  stock\n    ✕ is low-stock with a single unit left (${ms} ms)\n${extra}\n  ● stock › is low-stock with a single unit left\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: "low-stock"\n    Received: "out-of-stock"\n`;
    const core = (text: string) => fingerprint(text, { extractors: false }).fingerprint;
    expect(core(jest(5, ''))).toBe('expect(received).toBe(expected) // Object.is equality | Expected: low-stock ; Received: out-of-stock');
    expect(core(jest(12, '    ✓ is in-stock with ten units (1 ms)'))).toBe(core(jest(5, '')));
  });

  it('an error term continued over indented lines is read to its closing bracket (EUnit)', () => {
    const eunit = (line: number, value: number) =>
      `cart_tests: total_test...*failed*\nin function cart_tests:total_test/0 (test/cart_tests.erl, line ${line})\nin call from eunit_test:run_testfun/1 (eunit_test.erl, line 71)\n**error:{assertEqual,[{module,cart_tests},\n              {line,${line}},\n              {expression,"cart : total ( Items )"},\n              {expected,1200},\n              {value,${value}}]}\n  output:<<"">>\n\n=======================================================\n  Failed: 1.  Skipped: 0.  Passed: 2.\n`;
    expect(fp(eunit(4, 1199))).toBe('**error:{assertEqual,[{module,cart_tests}, | {line,<n>}, ; {expression,cart : total ( Items )}, ; {expected,1200}, ; {value,1199}]}');
    expect(fp(eunit(11, 1199))).toBe(fp(eunit(4, 1199)));
    expect(fp(eunit(4, 1300))).not.toBe(fp(eunit(4, 1199)));
  });

  it('a message ending with ":" follows a chain of colons to the specific value', () => {
    const cmake = (src: string) => `CMake Error at CMakeLists.txt:5 (add_executable):\n  Cannot find source file:\n\n    ${src}\n\n  Tried extensions .c .C .c++ .cc .cpp\n\n-- Generating done\nCMake Generate step failed.  Build files cannot be regenerated correctly.\n`;
    expect(fp(cmake('src/stat.c'))).toBe('CMake Error at CMakeLists.txt (add_executable): | Cannot find source file: ; stat.c');
    expect(fp(cmake('src/util.c'))).not.toBe(fp(cmake('src/stat.c')));
  });

  it('uncaught errors: values printed after the stack, the root cause and the raising frame', () => {
    const assertion = (actual: number) =>
      `node:internal/modules/run_main:123\n    triggerUncaughtException(\n    ^\n\nAssertionError [ERR_ASSERTION]: index total must match\n\n${actual} !== 1200\n\n    at file:///tmp/a/scripts/build.mjs:21:8\n    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)\n    at async ModuleLoader.import (node:internal/modules/esm/loader:606:24)\n    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5) {\n  generatedMessage: false,\n  code: 'ERR_ASSERTION',\n  actual: ${actual},\n  expected: 1200,\n  operator: 'strictEqual'\n}\n\nNode.js v20.20.2\n`;
    expect(fp(assertion(1197))).toBe('AssertionError [ERR_ASSERTION]: index total must match | actual: 1197 ; expected: 1200 | at build.mjs');
    expect(fp(assertion(1199))).not.toBe(fp(assertion(1197)));
    const rejected = (port: number, code: string) =>
      `TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n    at async publish (file:///tmp/b/app/scripts/build.mjs:24:15) {\n  [cause]: Error: connect ${code} 127.0.0.1:${port}\n      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16) {\n    errno: -111,\n    code: '${code}',\n    port: ${port}\n  }\n}\n\nNode.js v20.20.2\n`;
    expect(fp(rejected(52871, 'ECONNREFUSED'))).toBe('TypeError: fetch failed | caused by Error: connect ECONNREFUSED 127.0.0.1:<port> | at publish (build.mjs)');
    expect(fp(rejected(4000, 'ECONNREFUSED'))).toBe(fp(rejected(52871, 'ECONNREFUSED')));
    expect(fp(rejected(4000, 'ECONNRESET'))).not.toBe(fp(rejected(4000, 'ECONNREFUSED')));
    const java = [
      'Exception in thread "main" java.lang.IllegalStateException: bad quantity',
      '\tat report.Report.parseQty(Report.java:12)',
      '\tat report.Report.main(Report.java:29)',
      'Caused by: java.lang.NumberFormatException: For input string: "1 2"',
      '\tat java.base/java.lang.Integer.parseInt(Integer.java:668)',
      '\t... 2 more',
    ].join('\n');
    expect(fp(java)).toBe('Exception in thread main java.lang.IllegalStateException: bad quantity | caused by java.lang.NumberFormatException: For input string: 1 2 | at report.Report.parseQty (Report.java)');
  });

  it('a unified diff with no error line → its first change, not the trailing context', () => {
    const diff = (minus: string, plus: string) =>
      `checking report\n--- golden/report.txt\t2026-11-22 02:14:20.148896336 +0000\n+++ out/report.txt\t2026-11-22 02:14:20.425560980 +0000\n@@ -1,6 +1,6 @@\n item  qty  unit\n-${minus}\n+${plus}\n ----------------\n total        171\n`;
    expect(fp(diff('washer   7     3', 'washr    7     3'))).toBe('report.txt: -washer 7 3 ; +washr 7 3');
    expect(fp(diff('nut     10     5', 'nut     10     6'))).not.toBe(fp(diff('washer   7     3', 'washr    7     3')));
  });

  it('diff hunks are file content, not error lines (rustfmt --check, with terminfo escapes)', () => {
    const fmt = (root: string, line: number) =>
      `Diff in ${root}/src/lib.rs:${line}:\n /// \`\`\`\n pub fn fee(cents: i64) -> i64 {\n\u001b[31m-    if cents < 0 { panic!("negative") }\n\u001b(B\u001b[m\u001b[32m+    if cents < 0 {\n\u001b(B\u001b[m\u001b[32m+        panic!("negative")\n\u001b(B\u001b[m     cents / 50\n`;
    expect(fp(fmt('/tmp/a', 7))).toBe('lib.rs: - if cents < 0 { panic!("negative") } ; + if cents < 0 {');
    expect(fp(fmt('/work/ci-3/b', 12))).toBe(fp(fmt('/tmp/a', 7)));
  });

  it('a rustdoc test is named without its line', () => {
    const doc = (line: number) =>
      `running 1 test\ntest src/lib.rs - fee (line ${line}) ... FAILED\n\nfailures:\n\n---- src/lib.rs - fee (line ${line}) stdout ----\nTest executable failed (exit status: 101).\n\nstderr:\n\nthread 'main' (19398) panicked at src/lib.rs:5:1:\nassertion \`left == right\` failed\n  left: 20\n right: 10\n\nfailures:\n    src/lib.rs - fee (line ${line})\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.46s\n`;
    expect(fp(doc(7))).toBe('lib.rs - fee (line <n>) | Test executable failed (exit status: 101). | left: 20 ; right: 10');
    expect(fp(doc(12))).toBe(fp(doc(7)));
  });

  it('compiler value lines stop at the next diagnostic', () => {
    const out = [
      "src/main.c:17:25: error: implicit declaration of function 'median' [-Werror=implicit-function-declaration]",
      '   17 |   printf("%.2f", median(col, n));',
      '      |                  ^~~~~~',
      "src/main.c:17:19: error: format '%f' expects argument of type 'double' [-Werror=format=]",
      '   17 |   printf("%.2f", median(col, n));',
      '      |           ~~~^   ~~~~~~~~~~~~~~',
      '      |              |   int',
    ].join('\n');
    expect(fp(out)).toBe("main.c: error: implicit declaration of function median");
  });

  it('Perl Test::More diagnostics are failure units; verbose TAP and plain prove agree', () => {
    const diag = (name: string, got: string, want: string) => `#   Failed test '${name}'\n#   at t/total.t line 7.\n#          got: '${got}'\n#     expected: '${want}'\n`;
    const plain = (got: string) =>
      `t/parse.t .. ok\n\n${diag('total sums', got, '800')}# Looks like you failed 1 test of 2.\nt/total.t .. \nDubious, test returned 1 (wstat 256, 0x100)\nFailed 1/2 subtests \n\nTest Summary Report\n-------------------\nt/total.t (Wstat: 256 (exited 1) Tests: 2 Failed: 1)\n  Failed test:  1\nFiles=2, Tests=4,  0 wallclock secs\nResult: FAIL\n`;
    const verbose = (got: string) =>
      `t/total.t .. \nnot ok 1 - total sums\n${diag('total sums', got, '800')}ok 2 - empty cart is zero\n1..2\n# Looks like you failed 1 test of 2.\nDubious, test returned 1 (wstat 256, 0x100)\nFailed 1/2 subtests \nResult: FAIL\n`;
    expect(fp(plain('799'))).toBe("total sums | got: 799 | expected: 800");
    expect(fp(verbose('799'))).toBe(fp(plain('799')));
    expect(fp(plain('1600'))).not.toBe(fp(plain('799')));
  });

  it('a unittest loader failure is the traceback it explains, not its headline', () => {
    const out = (missing: string) =>
      [
        'ERROR: tests.test_stock (unittest.loader._FailedTest.tests.test_stock)',
        '----------------------------------------------------------------------',
        'ImportError: Failed to import test module: tests.test_stock',
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3.11/unittest/loader.py", line 419, in _find_test_path',
        '    module = self._get_module_from_name(name)',
        '  File "/tmp/a/tests/test_stock.py", line 3, in <module>',
        `    from inventory.stock import ${missing}`,
        `ImportError: cannot import name '${missing}' from 'inventory.stock' (/tmp/a/inventory/stock.py)`,
        '',
        '----------------------------------------------------------------------',
        'Ran 1 test in 0.000s',
        '',
        'FAILED (errors=1)',
      ].join('\n');
    expect(fp(out('price_with_vat'))).toBe("tests.test_stock (unittest.loader._FailedTest.tests.test_stock) | ImportError: cannot import name price_with_vat from inventory.stock (stock.py)");
    expect(fp(out('label'))).not.toBe(fp(out('price_with_vat')));
  });

  it('stays fast on pathological frames, paths, diffs and shell locations', () => {
    const bad = [
      'Error: boom',
      `    #0 0x1 in f ${':1'.repeat(900)}`,
      `    at ${'a.'.repeat(900)}(`,
      `    at x (${'('.repeat(1500)}`,
      `failed ${'x'.repeat(1900)} a/b`,
      `${'a.'.repeat(900)}: 3: x`,
      `Assertion \`${"'".repeat(1900)}`,
      ...Array.from({ length: 3000 }, (_, i) => (i % 2 ? '@@ -1 +1 @@' : ' context')),
    ].join('\n');
    const t0 = performance.now();
    for (let k = 0; k < 5; k++) fingerprint(bad);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it('inspects only the head and tail of huge output, in bounded time per line', () => {
    const filler = Array.from({ length: 20_000 }, (_, i) => `[${i}] INFO processed /tmp/w/a${i}/file${i}.ts in ${i % 90}ms ${'x'.repeat(i % 3 === 0 ? 3000 : 10)}`);
    const out = ['src/a.ts(3,1): error TS1005: ";" expected.', ...filler].join('\n');
    expect(fingerprint(out)).toMatchObject({ fingerprint: 'a.ts: error TS1005: ; expected.', line: 1 });
  });

  it('normalises epoch seconds with their fraction (time.time(), Date.now() / 1000)', () => {
    const at = (t: string) => fingerprint(`Traceback (most recent call last):\n  File "t.py", line 3, in <module>\nAssertionError: stale at ${t}: want 1 got 2\n`).fingerprint;
    expect(at('1764000000.5299013')).toBe(at('1764000931.0012'));
    expect(at('1764000000.5299013')).toContain('want 1 got 2');
  });

  it('reads long lines of rule characters, spaces or words without backtracking (a banner regex took 12 s per such line)', () => {
    const long = [`${'='.repeat(1999)}x`, `${'-'.repeat(1999)}x`, `${' '.repeat(1999)}x`, `${'x'.repeat(1990)} at line 3`, `${'a.'.repeat(1000)}`, '_'.repeat(2000)];
    const out = ['src/a.ts(3,1): error TS1005: ";" expected.', ...Array.from({ length: 40 }, (_, i) => long[i % long.length]!)].join('\n');
    expect(fingerprint(out)).toMatchObject({ fingerprint: 'a.ts: error TS1005: ; expected.', line: 1 });
    expect(classifyLine(`${'='.repeat(40)} FAILURES ${'='.repeat(40)}`)).toBe('banner');
  });
});
