import { describe, expect, it } from 'vitest';
import { basename, looksLikePath, normalizeName, normalizeValues, stripLogPrefix, truncate } from '../../src/fingerprint/normalize.js';
import { stripAnsi, HEAD_LINES, TAIL_LINES } from '../../src/fingerprint/lines.js';
import { toLines } from '../../src/fingerprint/scan.js';

describe('normalizeValues: each dynamic-value category', () => {
  it.each([
    ['absolute paths → basename', 'imported from /tmp/fpgen/A/4fe16cbb/pricing/test/a.test.js', 'imported from a.test.js'],
    ['ci-<hex>/workspace roots', 'at /tmp/x/ci-543967/workspace/pricing/src/b.ts', 'at b.ts'],
    ['runs/<epoch>-<hex>/checkout roots', "open('/tmp/x/runs/1795301434001-3b74/checkout/data/orders.csv')", "open('orders.csv')"],
    ['tmp.<hex> roots', 'rootdir: /tmp/fpgen/A/tmp.7762c9fcc1/billing', 'rootdir: billing'],
    ['relative and parent-cwd paths', 'cart/src/cart.ts and src/cart.ts', 'cart.ts and cart.ts'],
    ['file:// URLs', '(file:///tmp/a/b/test/text.test.js:18:3)', '(text.test.js)'],
    ["Java's file:/ URLs", 'file:/tmp/a/b/src/Cart.groovy: 12: Apparent variable', 'Cart.groovy: Apparent variable'],
    ['a path glued to a word and a colon', 'ERROR:/tmp/ci-1/workspace/src/cart.vala.c:93:__lambda4_: assertion failed', 'ERROR:cart.vala.c:__lambda4_: assertion failed'],
    ['GNU line.column ranges', 'src/cart.vala:12.16-12.19: error: x', 'cart.vala: error: x'],
    ['a JSON pointer or route with an index is no file path', "instancePath: '/items/1/qty' at data/items/2/qty", "instancePath: '/items/1/qty' at data/items/2/qty"],
    ['a function/arity is no file path', 'function Cart.totl/1 is undefined', 'function Cart.totl/1 is undefined'],
    ['mktemp and tempfile names', 'open /tmp/x/tmp.Ab3dE9fG1h/out and tmpk3j4h5l9', 'open out and tmp<tmp>'],
    ['a position chain glued to a file is no clock', 'paper/cart.tex:4:43:26:You should avoid spaces', 'cart.tex:You should avoid spaces'],
    ['Pascal $ addresses', 'Runtime error 201 at $0000000000401142', 'Runtime error 201 at 0x<addr>'],
    ['windows paths', 'C:\\Users\\me\\proj\\src\\App.cs(12,5): error', 'App.cs: error'],
    ['line:col after a file', 'src/lib.rs:48:9: panicked', 'lib.rs: panicked'],
    ['tsc (line,col)', 'src/cart.ts(12,39): error TS2345', 'cart.ts: error TS2345'],
    ['maven [line,col]', 'App.java:[12,5] cannot find symbol', 'App.java cannot find symbol'],
    ['"line N" words', 'scripts/release.sh: line 17: minify-js: command not found', 'release.sh: line <n>: minify-js: command not found'],
    ['Makefile:N', 'make: *** [Makefile:12: check] Error 1', 'make: *** [Makefile: check] Error 1'],
    ['hex addresses', '<Invoice object at 0x7f2a3dea5d90>', '<Invoice object at 0x<addr>>'],
    ['go +0x offsets', 'testing.go:1396 +0x24e', 'testing.go +0x<addr>'],
    ['UUIDs', 'request c241a0cc-69db-4211-b7cf-db0355039595 failed', 'request <uuid> failed'],
    ['hashes', 'target/debug/deps/ledger-6bc935356f631c94 commit c607ddd2da8f', 'ledger-<hash> commit <hash>'],
    ['ISO timestamps', '[2026-11-21T22:52:16Z] checking', '[<time>] checking'],
    ['log timestamps with millis', '2026-11-21 23:58:04,159 ERROR', '<time> ERROR'],
    ['clock times', '[22:52:17.602198755] step', '[<time>] step'],
    ['ctime dates', 'Sat Nov 21 23:58:03 2026 [5328] starting', '<date> [<pid>] starting'],
    ['durations', 'took 12ms (0.03 sec) in 1.2s after 1001 milliseconds', 'took <dur> (<dur>) in <dur> after <dur>'],
    ['sizes', 'with 0 bytes received, bundle 1.5 MB', 'with <size> received, bundle <size>'],
    ['pids', 'checking (pid 27607) process 42', 'checking (pid <pid>) process <pid>'],
    ['log-level pids', 'INFO [5653] job: started', 'INFO [<pid>] job: started'],
    ['ports', 'http://127.0.0.1:45021/health and port 46297', 'http://127.0.0.1:<port>/health and port <port>'],
    ['rust thread ids', "thread 'tests::x' (26717) panicked", "thread 'tests::x' panicked"],
    ['thread and goroutine numbers', 'ThreadId(3) goroutine 22 [running]', 'ThreadId(<n>) goroutine <n> [running]'],
    ['linker temp objects', '/usr/bin/ld: /tmp/ccRLA1Il.o: in function', 'ld: cc<tmp>.o: in function'],
    ['python temp names', 'wrote to tmpx9y8z7w6 ok', 'wrote to tmp<tmp> ok'],
    ['random seeds', 'Running tests with seed "64457"; Seed: 867338771', 'Running tests with seed "<n>"; Seed: <n>'],
    ['long numbers', '-test.shuffle 1795301525230214827', '-test.shuffle <n>'],
    ['counts', 'Tests: 3 passed, 12 total, 1 previous error', 'Tests: <n> passed, <n> total, <n> previous error'],
    ['bash job pids', 'line 3: 12345 Segmentation fault (core dumped)', 'line <n>: <pid> Segmentation fault (core dumped)'],
    ['mktemp names', 'cannot open /tmp/tmp.Xk3aQ9vB2c and tmp.AbCdEf12', 'cannot open tmp.<tmp> and tmp.<tmp>'],
    ['java executor threads and lambdas', 'Exception in thread "pool-2-thread-3" at Report.lambda$main$0 on ForkJoinPool-1-worker-5', 'Exception in thread "pool-<n>-thread-<n>" at Report.lambda$main$<n> on ForkJoinPool-<n>-worker-<n>'],
    ['java identity hashes', 'expected: <shop.Item@5e9f23b4> but was: <shop.Item@1b6d3586>', 'expected: <shop.Item@<hash>> but was: <shop.Item@<hash>>'],
    ['valgrind loss records', '48 bytes in 1 blocks are definitely lost in loss record 3 of 7', '<size> in 1 blocks are definitely lost in loss record <n> of <n>'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeValues(input)).toBe(expected);
  });

  it('keeps what tells root causes apart', () => {
    for (const s of [
      'AssertionError: expected 16 to be 42',
      "KeyError: 'DATABASE_URL'",
      'curl: (22) The requested URL returned error: 404',
      'step 3/4: verify manifest',
      'error TS2339: Property',
      'left: "1 entries, 40 cents"',
      'Cost(3) = 9.5; want 12',
      'mail bob@cafe.com failed',
      'tmp.cfg missing',
    ]) {
      expect(normalizeValues(s)).toBe(s);
    }
  });

  it('is idempotent and collapses whitespace', () => {
    const once = normalizeValues('  a   /tmp/x/y/z.ts:1:2   took 3ms  ');
    expect(once).toBe('a z.ts took <dur>');
    expect(normalizeValues(once)).toBe(once);
  });

  it('stays fast on pathological lines', () => {
    const nasty = ['x'.repeat(2000), 'a/'.repeat(900), ':1'.repeat(900), `${'Error'.repeat(300)}(1,2)`];
    for (const s of nasty) expect(typeof normalizeValues(s)).toBe('string');
  });
});

describe('normalizeName (test names)', () => {
  it('drops the line of a rustdoc test name only', () => {
    expect(normalizeName('src/lib.rs - fee (line 12)')).toBe('lib.rs - fee (line <n>)');
    expect(normalizeName('parses line 12 of the header')).toBe('parses line 12 of the header');
  });

  it('keeps counts and durations that are part of the name, drops paths and ids', () => {
    expect(normalizeName('handles 3 items in 5s')).toBe('handles 3 items in 5s');
    expect(normalizeName('tests/unit/test_a.py::test_x[/tmp/pytest-of-root/pytest-12/x0]')).toBe('test_a.py::test_x[x0]');
    expect(normalizeName('loads c241a0cc-69db-4211-b7cf-db0355039595')).toBe('loads <uuid>');
  });
});

describe('path helpers', () => {
  it('basename handles slashes and trailing separators', () => {
    expect(basename('/a/b/c.ts')).toBe('c.ts');
    expect(basename('a/b/')).toBe('b');
    expect(basename('C:\\x\\y.cs')).toBe('y.cs');
  });
  it('looksLikePath rejects fractions and prose', () => {
    expect(looksLikePath('3/4')).toBe(false);
    expect(looksLikePath('and/or')).toBe(false);
    expect(looksLikePath('src/a.ts')).toBe(true);
    expect(looksLikePath('/tmp/x')).toBe(true);
  });
});

describe('stripLogPrefix and truncate', () => {
  it('drops leading timestamps and pids', () => {
    expect(stripLogPrefix('[<time>] [<pid>] step 3/4: verify manifest')).toBe('step 3/4: verify manifest');
    expect(stripLogPrefix('<time> [pid <pid>] import started')).toBe('import started');
  });
  it('cuts long text with an ellipsis', () => {
    const t = truncate('x'.repeat(300), 200);
    expect(t.length).toBe(200);
    expect(t.endsWith('…')).toBe(true);
  });
});

describe('input cleaning', () => {
  it('strips terminfo charset designations (ESC ( B)', () => {
    expect(stripAnsi('\u001b(B\u001b[m\u001b[32m+    x\u001b)0')).toBe('+    x');
  });

  it('strips ANSI CSI/OSC sequences', () => {
    expect(stripAnsi('\u001b[1m\u001b[31mERROR\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u001b[01m\u001b[K')).toBe('ERROR link ');
  });
  it('keeps what a \\r progress redraw finally showed, and CRLF', () => {
    const lines = toLines('10%\r50%\rdone\r\nnext\r\n');
    expect(lines.map((l) => l.text)).toEqual(['done', 'next']);
  });
  it('treats erase-line/cursor-to-column redraws like \\r (spinners)', () => {
    const lines = toLines('\u001b[2K\u001b[1G⠋ Building\u001b[2K\u001b[1G⠙ Building\u001b[2K\u001b[1GError: build failed\n');
    expect(lines.map((l) => l.text)).toEqual(['Error: build failed']);
    // gcc's `ESC[K` (erase to end of line) after colour codes is not a redraw.
    expect(toLines("\u001b[01m\u001b[Ksrc/a.c:3:5:\u001b[m\u001b[K \u001b[01;31m\u001b[Kerror: \u001b[m\u001b[K'x' undeclared")[0]!.text).toBe("src/a.c:3:5: error: 'x' undeclared");
  });
  it('drops the pid prefix of memory checkers (valgrind, sanitizers)', () => {
    expect(toLines('==27677== Invalid read of size 8\n==27677==    at 0x10926E: main (main.c:20)\n==123==ERROR: AddressSanitizer: x\n--42-- warn\n').map((l) => l.text)).toEqual([
      'Invalid read of size 8',
      '   at 0x10926E: main (main.c:20)',
      'ERROR: AddressSanitizer: x',
      'warn',
    ]);
  });

  it('bounds huge inputs to head and tail, keeping original line numbers', () => {
    const n = HEAD_LINES + TAIL_LINES + 1000;
    const text = Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
    const lines = toLines(text);
    // Head, one blank line where the (error-free) middle was dropped, tail.
    expect(lines).toHaveLength(HEAD_LINES + 1 + TAIL_LINES);
    expect(lines[HEAD_LINES]!.text).toBe('');
    expect(lines[HEAD_LINES + 1]!.no).toBe(n - TAIL_LINES + 1);
    expect(lines[lines.length - 1]!.text).toBe(`line ${n}`);
  });
});
