/**
 * Failing test units: the per-test failure blocks that test runners print (vitest/jest
 * `FAIL a > b` and `● a › b`, pytest `___ name ___`, go `--- FAIL:`, cargo `---- x stdout ----`,
 * TAP `not ok`, node's spec `✖ name`, unittest `FAIL: x (y)`, mocha/rspec/phpunit numbered
 * failures, gradle `X > y FAILED`, dotnet `Failed x [1 ms]`, maven surefire `<<< FAILURE!`).
 *
 * A unit is its name, the line carrying its message (the first meaningful line of its
 * block, an `E ` line in pytest, the exception closing a traceback) and value lines
 * (`Expected: …`, `left: …`) so that the same test failing with a different value differs.
 */
import type { Line } from './lines.js';
import { lineKind } from './noise.js';
import { basename } from './normalize.js';
import { isTracebackStart, tracebackException } from './signals.js';

export interface FailureUnit {
  /** The test's name as the runner prints it (durations removed, file as basename). */
  name: string;
  /** Index (into the line array) of the unit's header line. */
  header: number;
  /** Index of the line holding the failure message, or null when the block has none. */
  message: number | null;
  /** The message text (for pytest without the `E` marker). */
  messageText: string | null;
  /** Up to two value lines from the block (`Expected: 3`, `left: 4100`). */
  details: string[];
}

const DURATION_SUFFIX = /\s+\(?\[?\d+(?:\.\d+)?\s*(?:ms|s|µs|μs|sec)\]?\)?\s*$/;

function cleanName(name: string): string {
  return name.replace(DURATION_SUFFIX, '').replace(/\s+/g, ' ').trim();
}

interface HeaderMatch {
  name: string;
}

type HeaderRule = (text: string, ctx: ParseContext) => HeaderMatch | null;

interface ParseContext {
  /** The file of the latest `FAIL <file>` line (jest prints test names without it). */
  file: string | null;
  /** Inside a numbered failures list (mocha `N failing`, rspec `Failures:`, phpunit). */
  numbered: boolean;
}

const HEADER_RULES: HeaderRule[] = [
  // vitest: ` FAIL  test/a.test.ts > suite > name` and suite-level ` FAIL  test/a.test.ts [ test/a.test.ts ]`
  (t) => {
    const m = /^\s*FAIL\s+(\S+?)\s+>\s+(.+?)\s*$/.exec(t);
    if (m) return { name: `${basename(m[1]!)} > ${cleanName(m[2]!)}` };
    const s = /^\s*FAIL\s+(\S+)\s+\[\s*\S+\s*\]\s*$/.exec(t);
    return s ? { name: basename(s[1]!) } : null;
  },
  // jest: `● suite › name` (not `● Console`)
  (t, ctx) => {
    const m = /^\s*●\s+(.+?)\s*$/.exec(t);
    if (!m || /^Console\b/.test(m[1]!)) return null;
    const name = cleanName(m[1]!);
    return { name: ctx.file ? `${basename(ctx.file)} › ${name}` : name };
  },
  // pytest: `____ test_name ____`, `____ ERROR collecting tests/x.py ____`
  (t) => {
    const m = /^_{3,}\s+(.+?)\s+_{3,}$/.exec(t);
    return m ? { name: m[1]!.replace(/\S*\/(\S+)/g, '$1') } : null;
  },
  // go test: `--- FAIL: TestName (0.00s)` (subtests are indented)
  (t) => {
    const m = /^\s*--- FAIL:\s+(\S+)/.exec(t);
    return m ? { name: m[1]! } : null;
  },
  // cargo test / libtest: `---- tests::name stdout ----`
  (t) => {
    const m = /^---- (.+?) stdout ----$/.exec(t);
    return m ? { name: m[1]! } : null;
  },
  // TAP: `not ok 3 - name` (TODO/SKIP are not failures)
  (t) => {
    const m = /^\s*not ok\s+\d+(?:\s+-)?\s*(.*?)\s*$/.exec(t);
    if (!m || /#\s*(?:TODO|SKIP)\b/i.test(m[1]!)) return null;
    return { name: cleanName(m[1]!.replace(/\s+#.*$/, '')) || '(unnamed)' };
  },
  // node --test spec reporter: `✖ name (7.1ms)`
  (t) => {
    // (always with its duration: a bare `✖ message` is a linter's or CLI's error line)
    const m = /^\s*✖\s+(.+?\(\d+(?:\.\d+)?m?s\))\s*$/.exec(t);
    if (!m || /^failing tests:?$|^\d+ problems?\b/.test(m[1]!)) return null;
    return { name: cleanName(m[1]!) };
  },
  // unittest: `FAIL: test_x (pkg.mod.Case.test_x)` / `ERROR: ...`
  (t) => {
    const m = /^(?:FAIL|ERROR):\s+(\S+\s+\([^)]+\).*?)\s*$/.exec(t);
    return m ? { name: m[1]! } : null;
  },
  // dotnet test: `  Failed Ns.Class.Test [12 ms]`
  (t) => {
    const m = /^\s*Failed\s+(\S+)\s+\[[^\]]*\]\s*$/.exec(t);
    return m ? { name: m[1]! } : null;
  },
  // maven surefire: `[ERROR] testFoo(com.x.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!`
  (t) => {
    const m = /^\[ERROR\]\s+(\S+?)(?:\(([\w.$]+)\))?\s+(?:--\s+)?Time elapsed:.*<<<\s*(?:FAILURE|ERROR)!/.exec(t);
    return m ? { name: m[2] ? `${m[2]}.${m[1]}` : m[1]! } : null;
  },
  // gradle: `FooTest > testBar() FAILED`
  (t) => {
    const m = /^(\S.*?)\s+>\s+(.+?)\s+FAILED\s*$/.exec(t);
    return m ? { name: `${m[1]} > ${m[2]}` } : null;
  },
  // deno test: `name => ./file_test.ts:7:6`
  (t) => {
    const m = /^(\S.*?) => \S+:\d+:\d+\s*$/.exec(t);
    return m ? { name: cleanName(m[1]!) } : null;
  },
  // CTest: `2/3 Test #2: ring_wrap ........***Failed    0.00 sec` (its output follows)
  (t) => {
    const m = /^\s*\d+\/\d+\s+Test\s+#\d+:\s+(\S+)\s+\.*\s*\*{3}(?:Failed|Exception|Timeout|Not Run)\b/.exec(t);
    return m ? { name: m[1]! } : null;
  },
  // Perl Test::More / Test2 diagnostics: `#   Failed test 'name'` (TODO failures are not failures)
  (t) => {
    const m = /^\s*#\s+Failed test (?:'(.*)'|(?:at|in) (\S+) line \d+)/.exec(t);
    return m ? { name: m[1] ?? `${basename(m[2]!)} (unnamed)` } : null;
  },
  // mocha / rspec / phpunit / minitest numbered failures, only inside their failures list
  (t, ctx) => {
    if (!ctx.numbered) return null;
    const m = /^\s*\d+\)\s+(.+?)\s*$/.exec(t);
    return m ? { name: cleanName(m[1]!.replace(/:$/, '')) } : null;
  },
];

const NUMBERED_SECTION = /^\s*(?:\d+ failing\b|Failures:\s*$|There (?:was|were) \d+ (?:failures?|errors?):?\s*$|\d+ failed\s*$)/;
const FILE_FAIL = /^\s*FAIL\s+(\S+)(?:\s+\([\d.]+\s*m?s\))?\s*$/;
const FILE_PASS = /^\s*PASS\s+\S+/;
const BLOCK_END = /^\s*(?:failures|Failures|FAILURES|Summary of all failing tests|short test summary info)\s*:?\s*$|^(?:FAIL|ok)\s+\S+\s+(?:[\d.]+s|\[[^\]]*\]|\(cached\))\s*$|^FAIL\s*$/;
/** go test -v prints a test's log lines before its `--- FAIL:` line, after `=== RUN   name`. */
const GO_RUN = /^\s*=== (?:RUN|CONT)\s+(\S+)/;
const MAX_BLOCK = 150;

/** A value line worth keeping next to a message: `Expected: "a"`, `left: 4100`, `symbol: variable x`. */
export const VALUE_LINE = /^\s*(?:#\s*)?(?:Expected|Received|Actual|Got|expected|received|actual|got|left|right|Left|Right|symbol|found|required|want|wanted|Rejected to value|Resolved to value|Difference|Diff|Thrown|but was)\b[^:\n]{0,24}:\s*\S/;
/**
 * A value label alone on its line, the value indented on the next (doctest `Expected:` /
 * `Got:`, TAP diagnostics `#   got:`).
 */
const VALUE_LABEL_ONLY = /^(\s*)(?:#\s*)?(Expected|Received|Actual|Got|expected|received|actual|got|want|wanted)\s*:\s*$/;
/** rustc's label under the carets: `|   ^^^^^ expected `String`, found `usize``. */
const CARET_LABEL = /^\s*(?:\d+\s*)?\|.*?\^+\s+([^\s^|~].*)$/;

const SKIP_IN_BLOCK = [
  /^\s*error:\s*[|>][-+]?\s*$/,
  /^\s*thread '.*'\s*(?:\(\d+\)\s*)?panicked at \S+:\d+(?::\d+)?:?\s*$/,
  /^\s*test at \S+/,
  /^\s*(?:Error Message|Stack Trace|Standard Output Messages|Standard Error Messages|Message):\s*$/,
  /^\s*(?:async\s+)?(?:def|class)\s+\w+.*:\s*$/,
  /^\s*[+-]\s/,
  /^\s*(?:code|name):\s+'[^']*'\s*$/,
  /^\s*\S+:\d+(?::\d+)?:?\s*$/,
  /^\s*Error Trace:/,
  /^\s*#\s*\(in test file/,
  /^\s*#\s+at \S+ line \d+\.?\s*$/,
];

function isHeaderOrEnd(lines: Line[], j: number, ctx: ParseContext): boolean {
  const t = lines[j]!.text;
  if (FILE_FAIL.test(t) || FILE_PASS.test(t) || BLOCK_END.test(t) || NUMBERED_SECTION.test(t)) return true;
  const kind = lineKind(lines[j]!);
  if (kind === 'pass' || kind === 'summary' || kind === 'banner') return true;
  return HEADER_RULES.some((rule) => rule(t, ctx) !== null);
}

/** mocha prints long titles over several indented lines, the last ending with ':'. */
function mochaTitle(lines: Line[], i: number, name: string): { name: string; end: number } {
  const header = lines[i]!.text;
  if (/:\s*$/.test(header)) return { name, end: i };
  const indent = header.search(/\S/);
  const parts = [name];
  for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
    const t = lines[j]!.text;
    if (t.trim() === '' || t.search(/\S/) <= indent) break;
    parts.push(t.trim().replace(/:$/, ''));
    if (/:\s*$/.test(t)) return { name: cleanName(parts.join(' ')), end: j };
  }
  return { name, end: i };
}

function extractMessage(lines: Line[], from: number, to: number): { index: number; text: string } | null {
  // pytest: the first `E ` line is the assertion/exception.
  for (let j = from; j < to; j++) {
    const m = /^E\s+(\S.*)$/.exec(lines[j]!.text);
    if (m) return { index: j, text: m[1]! };
  }
  for (let j = from; j < to; j++) {
    const t = lines[j]!.text;
    if (isTracebackStart(t)) {
      const k = tracebackException(lines, j);
      if (k >= 0 && k < to) return { index: k, text: lines[k]!.text.trim() };
      continue;
    }
    if (lineKind(lines[j]!) !== 'text') continue;
    if (SKIP_IN_BLOCK.some((re) => re.test(t))) continue;
    // A headline followed by the traceback that explains it (unittest's
    // `ImportError: Failed to import test module: x`): the traceback's exception is the cause.
    for (let k = j + 1; k < Math.min(to, j + 4); k++) {
      if (!isTracebackStart(lines[k]!.text)) continue;
      const e = tracebackException(lines, k);
      if (e >= 0 && e < to) return { index: e, text: lines[e]!.text.trim() };
    }
    return { index: j, text: t.trim().replace(/^[→›❯>#]\s*/, '') };
  }
  return null;
}

const DIFF_LEGEND = /^\s*[-+]\s*(?:Expected|Received|Actual|expected|received|actual)\b/;
const DIFF_LINE = /^\s*([-+])(?![->+])\s*(\S.*)$/;

function indent(text: string): number {
  return text.length - text.trimStart().length;
}

function extractDetails(lines: Line[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let j = from; j < to && out.length < 2; j++) {
    const t = lines[j]!.text;
    let v: string | null = null;
    const label = VALUE_LABEL_ONLY.exec(t);
    if (VALUE_LINE.test(t)) v = t.trim().replace(/^#\s*/, '').replace(/,$/, '');
    else if (label && j + 1 < to && indent(lines[j + 1]!.text) > label[1]!.length && lines[j + 1]!.text.trim() !== '') {
      v = `${label[2]}: ${lines[j + 1]!.text.trim()}`;
      j++;
    } else {
      const c = CARET_LABEL.exec(t);
      if (c) v = c[1]!.trim();
    }
    if (v && !out.includes(v)) out.push(v);
  }
  if (out.length > 0) return out;
  // No labelled values: the first removed and added lines of a diff (`- 42` / `+ 40`).
  let minus: string | null = null;
  let plus: string | null = null;
  for (let j = from; j < to && (minus === null || plus === null); j++) {
    const t = lines[j]!.text;
    if (DIFF_LEGEND.test(t)) continue;
    const d = DIFF_LINE.exec(t);
    if (!d || !/[\p{L}\p{N}]/u.test(d[2]!)) continue;
    if (d[1] === '-' && minus === null) minus = `- ${d[2]!.trim()}`;
    if (d[1] === '+' && plus === null) plus = `+ ${d[2]!.trim()}`;
  }
  return [minus, plus].filter((x): x is string => x !== null);
}

/** Value lines (and rustc caret labels) in lines (from, to), at most two. */
export function valueDetails(lines: Line[], from: number, to: number): string[] {
  return extractDetails(lines, from, Math.min(to, lines.length));
}

/** Parses every failing test unit, in output order (a name repeated in a summary is kept once). */
export function failureUnits(lines: Line[]): FailureUnit[] {
  const ctx: ParseContext = { file: null, numbered: false };
  const units: FailureUnit[] = [];
  const seen = new Map<string, FailureUnit>();
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (t.length === 0) continue;
    const ff = FILE_FAIL.exec(t);
    if (ff) {
      ctx.file = ff[1]!;
      continue;
    }
    if (NUMBERED_SECTION.test(t)) {
      ctx.numbered = true;
      continue;
    }
    let match: HeaderMatch | null = null;
    for (const rule of HEADER_RULES) {
      match = rule(t, ctx);
      if (match) break;
    }
    if (!match) continue;
    let name = match.name;
    let start = i + 1;
    if (ctx.numbered && /^\s*\d+\)/.test(t)) {
      const title = mochaTitle(lines, i, name);
      name = title.name;
      start = title.end + 1;
    }
    let end = start;
    while (end < lines.length && end - start < MAX_BLOCK && !isHeaderOrEnd(lines, end, ctx)) end++;
    const earlier = seen.get(name);
    if (earlier && earlier.message !== null) {
      i = end - 1;
      continue;
    }
    let msg = extractMessage(lines, start, end);
    if ((msg === null || /^FAIL\b/.test(msg.text)) && /^\s*--- FAIL:/.test(t)) {
      // go test -v: the test's output sits between `=== RUN   name` and `--- FAIL: name`.
      const base = name.replace(/\s.*$/, '');
      let run = i - 1;
      while (run >= 0 && i - run < MAX_BLOCK && GO_RUN.exec(lines[run]!.text)?.[1] !== base) run--;
      if (run >= 0 && i - run < MAX_BLOCK) {
        let stop = run + 1;
        while (stop < i && !GO_RUN.test(lines[stop]!.text) && !/^\s*--- (?:FAIL|PASS|SKIP):/.test(lines[stop]!.text)) stop++;
        const back = extractMessage(lines, run + 1, stop);
        if (back) {
          msg = back;
          end = stop;
        }
      }
    }
    const details = msg ? extractDetails(lines, msg.index + 1, Math.max(end, msg.index + 1)) : [];
    if (earlier) {
      // A bare marker first (TAP `not ok 1 - x`), its diagnostics under a second header.
      if (msg) Object.assign(earlier, { message: msg.index, messageText: msg.text, details });
    } else {
      const unit: FailureUnit = { name, header: i, message: msg?.index ?? null, messageText: msg?.text ?? null, details };
      units.push(unit);
      seen.set(name, unit);
    }
    i = Math.max(i, end - 1);
  }
  return units;
}
