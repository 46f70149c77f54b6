/**
 * General rules of issue 17's eighth round (tuned on tools-k: build tools, config validators,
 * structured logs, property-based and snapshot runners, on the shared corpus's noise scheme): each
 * case is a written example of a shape, and checks the rule, not the tool.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/fingerprint/fingerprint.js';
import { normalizeValues } from '../../src/fingerprint/normalize.js';

const fp = (text: string) => fingerprint(text).fingerprint;

describe('log levels and the pid a logger prints after them', () => {
  // A config check that logs `time [level] pid#tid: message`, then closes with "test failed".
  const emerg = (pid: number, root: string, name: string) =>
    `2026/11/24 20:28:12 [emerg] ${pid}#${pid}: unknown directive "${name}" in ${root}/conf/site.conf:6\nsite: configuration file ${root}/conf/site.conf test failed\n`;
  it('a lower-case bracketed level (`[emerg]`) is an error level: its line, not the closing "test failed", is the cause', () => {
    expect(fp(emerg(1686, '/tmp/a1', 'totl'))).toBe('[emerg] <pid>: unknown directive totl in site.conf');
    expect(fp(emerg(27433, '/home/u/ci-9f/work', 'totl'))).toBe(fp(emerg(1686, '/tmp/a1', 'totl')));
    expect(fp(emerg(1686, '/tmp/a1', 'cnt'))).not.toBe(fp(emerg(1686, '/tmp/a1', 'totl')));
  });

  // A checker that prefixes every line with `[LEVEL] (pid) :` and closes with a count of errors.
  const alert = (pid: number, keyword: string) =>
    [
      `[NOTICE]   (${pid}) : version is 2.6.12`,
      `[ALERT]    (${pid}) : config : parsing [conf/proxy.cfg:16] : unknown keyword '${keyword}' in 'backend' section`,
      `[ALERT]    (${pid}) : config : Error(s) found in configuration file : conf/proxy.cfg`,
      `[ALERT]    (${pid}) : config : Fatal errors found in configuration.`,
    ].join('\n');
  it('`[ALERT] (pid)`: ALERT is an error level, the pid in parentheses goes, the first alert says what', () => {
    expect(fp(alert(27463, 'totl'))).toBe(fp(alert(1730, 'totl')));
    expect(fp(alert(27463, 'totl'))).toContain("unknown keyword totl in backend section");
    expect(fp(alert(27463, 'cnt'))).not.toBe(fp(alert(27463, 'totl')));
  });
});

describe('JSON log lines (one object a line, the level in a field)', () => {
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  const run = (pid: number, actual: number, runId?: string) =>
    [
      line({ name: 'import', ...(runId ? { run: runId } : {}), hostname: 'ci', pid, level: 30, count: 3, msg: 'items loaded', time: '2026-11-24T20:29:12.934Z', v: 0 }),
      line({ name: 'import', ...(runId ? { run: runId } : {}), hostname: 'ci', pid, level: 50, expected: 1200, actual, msg: 'total mismatch', time: '2026-11-24T20:29:13.101Z', v: 0 }),
    ].join('\n');
  it('the numeric level 50 makes the line the error (an info line, level 30, never is)', () => {
    expect(fp(run(5398, 1199))).toContain('msg:total mismatch');
    expect(fp(run(5398, 1199))).not.toContain('items loaded');
  });
  it('its pid, time and a run id the logger adds go; the values stay', () => {
    expect(fp(run(5462, 1199, 'f5eed053-763e-4c6a-97ae-6c1d43614741'))).toBe(fp(run(5398, 1199)));
    expect(fp(run(5398, 1300))).not.toBe(fp(run(5398, 1199)));
  });
  it('a level by name (`"level":"error"`) too', () => {
    const text = `${line({ level: 'info', message: 'start' })}\n${line({ level: 'error', message: 'upstream returned 503' })}\n`;
    expect(fp(text)).toContain('upstream returned 503');
  });
});

describe('fields whose whole value changes from run to run', () => {
  it('`key=value` log fields that are only a run value (`pid=…`, `run_id=…`) are dropped; the others stay', () => {
    const plain = '2026-11-24T20:28:06.346573Z [error    ] invalid quantity               qty=0 sku=B\n';
    const withRun = '2026-11-24T20:28:06.481147Z [error    ] invalid quantity               pid=27279 qty=0 run_id=c9359555-0b3b-4664-8599-85b59eb59f83 sku=B\n';
    expect(fp(withRun)).toBe(fp(plain));
    expect(fp(plain)).toBe('[error ] invalid quantity qty=0 sku=B');
    expect(fp(plain.replace('qty=0', 'qty=-1'))).not.toBe(fp(plain));
  });
  it('a tally is no field: `Tests: 3 passed` keeps its words', () => {
    expect(fp('error: build broke\nTests: 3 passed, 3 total\n')).toBe('error: build broke');
    expect(normalizeValues('Tests: 3 passed, 4 total')).toBe('Tests: <n> passed, <n> total');
  });
  it("a quoted id with a word before its number (`'id': 'ord-8245475'`) is an id", () => {
    expect(normalizeValues("{'id': 'ord-8245475', 'total': 800}")).toBe("{'id': '<id>', 'total': 800}");
  });
});

describe('property-based runners', () => {
  // fast-check: how many runs and shrinks it took, the seed and the replay path change with the seed;
  // the counterexample and the cause printed under `[cause]:` (after the stack and a blank line) do not.
  const property = (seed: number, path: string, runs: number, shrinks: number, got: number) =>
    [
      'Error: Property failed after ' + runs + ' tests',
      `{ seed: ${seed}, path: "${path}", endOnFailure: true }`,
      'Counterexample: [[]]',
      `Shrunk ${shrinks} time(s)`,
      '',
      'Hint: Enable verbose mode in order to have the list of all failing values encountered during the run',
      '    at buildError (file:///tmp/n/node_modules/fast-check/lib/fast-check.js:2469:16)',
      '    at file:///tmp/p/app/test/props.mjs:5:4 {',
      '  [cause]: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '  ',
      `  ${got} !== 0`,
      '  ',
      '      at file:///tmp/p/app/test/props.mjs:5:47',
      '}',
    ].join('\n');
  it('the counts of the search and the seed line go; the cause and its value under `[cause]:` stay', () => {
    expect(fp(property(-1539615048, '0:2:0:0', 3, 5, -1))).toBe(fp(property(1086673242, '0', 1, 0, -1)));
    expect(fp(property(1086673242, '0', 1, 0, -1))).toContain('caused by AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: -1 !== 0');
    expect(fp(property(1086673242, '0', 1, 0, 100))).not.toBe(fp(property(1086673242, '0', 1, 0, -1)));
  });
  it("QuickCheck's `(after 3 tests and 2 shrinks)` counts go too", () => {
    expect(normalizeValues('*** Failed! Falsified (after 3 tests and 2 shrinks):')).toBe('*** Failed! Falsified (after <n> tests and <n> shrinks):');
  });
});

describe('several failures of one run', () => {
  // unittest-style blocks: the unit spelled out sorts first and may stay while others are fixed.
  const block = (name: string, error: string) =>
    `======================================================================\nFAIL: ${name} (test_cart.Props.${name})\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File "/tmp/x/test_cart.py", line 9, in ${name}\n    self.check()\n${error}\n\n`;
  const run = (...blocks: string[]) => `.FF\n${blocks.join('')}----------------------------------------------------------------------\nRan 4 tests in 0.2s\n\nFAILED (failures=${blocks.length})\n`;
  it('how many units failed goes with the unit spelled out: fixing one of three is another fingerprint', () => {
    const discount = block('test_discount', 'ValueError: discount 10 is over the cap');
    const three = run(discount, block('test_label', 'AssertionError: False is not true'), block('test_total', 'AssertionError: -1 != 0'));
    const two = run(discount, block('test_label', 'AssertionError: False is not true'));
    const one = run(discount);
    expect(new Set([fp(three), fp(two), fp(one)]).size).toBe(3);
    expect(fp(three)).toContain('3 failing');
  });

  // A transcript or golden-file diff: the first change, and how many there are.
  const diff = (...changes: Array<[string, string]>) =>
    `--- tests/cart.t\n+++ tests/cart.t.err\n@@ -2,10 +2,11 @@\n   $ cart total\n${changes.map(([a, b]) => `-  ${a}\n+  ${b}\n   $ next\n`).join('')}\n# Ran 1 tests, 0 skipped, 1 failed.\n`;
  it('a diff with three changes is not the one with only its first left', () => {
    const three = diff(['total 1200', 'total 1199'], ['coupon X', 'voucher X'], ['discount 20', 'discount 10 is over the cap']);
    const one = diff(['total 1200', 'total 1199']);
    expect(fp(three)).not.toBe(fp(one));
    expect(fp(three)).toContain('3 changes');
    expect(fp(one)).toBe('cart.t.err: - total 1200 ; + total 1199');
  });
  it('a shell location quoted in a diff moves with the script (`+  /x/cart.sh: 6: cannot open …`)', () => {
    const at = (line: number) => diff(['3', `/tmp/r${line}/bin/cart.sh: ${line}: cannot open items.txt: No such file`]);
    expect(fp(at(13))).toBe(fp(at(6)));
  });
});

describe('headers that say only where', () => {
  // A compiler that opens with two decorated headers naming the file (and the unit it holds), then the message.
  const sorry = (name: string, root: string) =>
    [
      `===SORRY!=== Error while compiling ${root}/t/cart.rakutest`,
      `===SORRY!=== Error while compiling ${root}/lib/Cart.rakumod (Cart)`,
      `Variable '$${name}' is not declared.  Perhaps you forgot a 'sub' if this`,
      'was intended to be part of a signature?',
      `at ${root}/lib/Cart.rakumod (Cart):5`,
      `------>     $s + <HERE>$${name};`,
    ].join('\n');
  it('a rule of `=` decorates and the unit named after a file is where: the message under them is the fingerprint', () => {
    expect(fp(sorry('totl', '/tmp/a'))).toBe('Variable $totl is not declared. Perhaps you forgot a sub if this');
    expect(fp(sorry('cnt', '/tmp/a'))).not.toBe(fp(sorry('totl', '/tmp/a')));
    expect(fp(sorry('totl', '/home/u/ci-3/w'))).toBe(fp(sorry('totl', '/tmp/a')));
  });
});

describe('build steps', () => {
  // A build tool running its steps under a counter, a diagnostic drawn over several lines, then a
  // closing line that blames the errors above.
  const build = (steps: number, message: string) =>
    [
      '>>>> Start compiling',
      ...Array.from({ length: steps }, (_, i) => `builder: [${i + 1}/${steps}] src/Mod${i}.d`),
      'FAILED: src/Cart.cmj',
      '',
      '  We\'ve found a bug for you!',
      '  /tmp/r/app/src/Cart.res:4:67-70',
      '',
      '  4 │   items->reduce(0, add) + totl',
      '',
      `  ${message}`,
      '',
      'FAILED: cannot make progress due to previous errors.',
      '>>>> Finish compiling (exit: 1)',
    ].join('\n');
  it('a line blaming previous errors is a wrapper, and a `[3/9]` step counter is progress: the message is read', () => {
    expect(fp(build(3, 'The value totl can\'t be found'))).toContain("The value totl can't be found");
    expect(fp(build(9, 'The value totl can\'t be found'))).toBe(fp(build(3, 'The value totl can\'t be found')));
    expect(fp(build(3, 'The value cnt can\'t be found'))).not.toBe(fp(build(3, 'The value totl can\'t be found')));
  });
  it('a location with a line:column range on both ends (`Cart.res:12:2-13:0`) is a location, not a message', () => {
    expect(normalizeValues('/tmp/r/app/src/Cart.res:12:2-13:0')).toBe('Cart.res');
  });
  it("`don't know how to make x` is an error: it, not the closing `stopped in <dir>`, is the fingerprint", () => {
    const make = (target: string, dir: string) => `bmake: don't know how to make data/${target}.csv. Stop\n\nbmake: stopped in ${dir}/app\n`;
    expect(fp(make('totl', '/tmp/a'))).toBe("bmake: don't know how to make totl.csv. Stop");
    expect(fp(make('cnt', '/tmp/a'))).not.toBe(fp(make('totl', '/tmp/a')));
  });
  it('an upper-case kind before ERROR (`RUNTIME ERROR: missing key`) outranks the located frame under it', () => {
    const run = (key: string) => `RUNTIME ERROR: missing key: ${key}\n\tconfig/cart.conf:7:70-99\tobject <anonymous>\n\tDuring manifestation\t\n`;
    expect(fp(run('currency'))).toBe('RUNTIME ERROR: missing key: currency');
    expect(fp(run('total'))).not.toBe(fp(run('currency')));
  });
  it('a directory named by digits deep in a path is a directory (`/tmp/82946783/app/src`), an index near its end is not', () => {
    expect(normalizeValues("Can't resolve './cnt' in '/tmp/w/82946783/app/src'")).toBe("Can't resolve 'cnt' in 'src'");
    expect(normalizeValues('at /items/1/qty')).toBe('at /items/1/qty');
  });
});
