/**
 * Error fingerprint: the first stable failure signature of a verification output.
 *
 * Design
 * ------
 * The loop stops when the same fingerprint repeats N times and counts progress when it
 * changes, so a fingerprint must be EQUAL for the same root cause however the run was
 * decorated (colour, project root, shifted lines, extra passing tests, shuffled order,
 * timestamps, pids, ports, ids, addresses) and DIFFERENT for another root cause, even a
 * near miss (same test with another received value, another missing symbol).
 *
 * 1. Clean (lines.ts): strip ANSI/OSC escapes, keep what `\r` redraws finally showed,
 *    bound the input (first 5000 + last 2000 lines, 2000 chars a line): linear time.
 * 2. Failing test units first (units.ts). When the output has per-test failure blocks,
 *    the signature is `<test name> | <message> | <values>` of ONE unit: the one whose
 *    name sorts first. Sorting (not output order) keeps shuffled/parallel runs stable;
 *    the name gives identity (sibling tests differ), the message and value lines
 *    (`Expected: …`, `left: …`) separate the same test failing differently.
 * 3. Otherwise the strongest error line (signals.ts), earliest on ties. Noise lines never
 *    compete (noise.ts: banners, separators, frames, code excerpts, counts, passing tests,
 *    progress, npm headers). Strength: exception closing a traceback / pytest `E` >
 *    `file:line: error`, `error[E…]`, `XxxError:`, `panic:`, shell/curl/linker errors >
 *    `file:line: message` > any error word > wrappers (`make: *** [x] Error 1`, `npm ERR!`,
 *    `ld returned 1`) > warnings. A wrapper is kept with the line just above it (what the
 *    recipe printed). Compiler diagnostics are re-rendered as `file: error CODE: message`
 *    so `tsc --pretty` and plain agree; eslint's file header and rustc's `-->` supply the
 *    file. Value lines and rustc caret labels right after the line are appended (also past
 *    a stack: Node prints `actual:`/`expected:` after it), and the line after a message
 *    ending with ':'. A runtime error that is not a compiler diagnostic also gets its root
 *    cause (last `Caused by:` / `[cause]:`) and its crash site: the sanitizer access
 *    (`READ of size 8`) and the innermost stack frame in project code (`at mean (stats.c)`),
 *    so the same exception raised in two places differs.
 * 4. No error line at all (a script that fails silently): the first change of a unified
 *    diff if there is one (golden-file tests), else the last meaningful line, which says
 *    how far the run got.
 * 5. Normalise values (normalize.ts) in the composed text: paths → basename, `:line:col`
 *    and `(l,c)` dropped, UUIDs, hashes, 0x addresses, timestamps, durations, sizes, pids,
 *    ports, thread ids, seeds, long numbers, counts; then collapse spaces and cut to 200.
 *
 * Pure: no I/O, no clock. `exitCode`, when given, is only used when no error line exists.
 */
import { detectTool } from './detect-tool.js';
import { indentOf, type Line } from './lines.js';
import { toLines } from './scan.js';
import { failureTally, lineKind } from './noise.js';
import { dropVolatileFields, SPACES, basename, normalizeName, normalizeValues, stripLogPrefix, truncate } from './normalize.js';
import {
  SCORE_EXCEPTION,
  SCORE_LOCATED,
  SCORE_NOTE,
  SCORE_STRONG,
  SCORE_WEAK,
  SCORE_WRAPPER,
  CARET_MESSAGE,
  POINTER_LINE,
  lineScore,
  isTracebackStart,
  isWrapper,
  parseDiagnostic,
  renderDiagnostic,
  tracebackException,
} from './signals.js';
import { VALUE_LINE, failureUnits, listedFailures, valueDetails, type FailureUnit } from './units.js';
import { unitNames } from './failing-tests.js';
import { EXTRACTORS, type RunnerExtractor } from './extractors/index.js';

export interface FingerprintResult {
  /** One line, at most ~200 characters. */
  fingerprint: string;
  /** 1-based line of the input the signature came from, or null. */
  line: number | null;
  /**
   * The tool that produced the output, when recognisable: a known signature (`detect-tool.ts`),
   * else the runner extractor that read its failing units (`ctest`, `tap`, `deno-test`).
   */
  tool: string | null;
  /**
   * The SET of failing units the output reports, normalised and sorted: failing test names
   * when a runner prints per-test failures, else the distinct error diagnostics
   * (`file: error CODE: message`). Empty when the output names none. Lets the loop tell
   * "fixed one of N" (the set shrank) from "the same failure" whatever unit sorts first.
   */
  failing_units: string[];
}

export interface FingerprintOptions {
  exitCode?: number | null;
  /**
   * The runner extractors to use (default: all registered, `extractors/index.ts`). `false`
   * (or `[]`): the generic core alone, which measures how much of the score the general
   * pipeline carries by itself.
   */
  extractors?: boolean | readonly RunnerExtractor[];
}

export const NO_OUTPUT = '(no output)';
const MAX_LENGTH = 200;

/** Joins parts with ` | `, shrinking the longest parts so the whole fits in `max`. */
function fit(parts: string[], max: number): string {
  // (fields a run adds are dropped before the parts are measured: a truncated part ends alike in every run)
  const p = parts.map((s) => dropVolatileFields(s).replace(SPACES, ' ').trim()).filter((s) => s !== '');
  const sep = 3 * Math.max(0, p.length - 1);
  let total = p.reduce((n, s) => n + s.length, 0) + sep;
  while (total > max) {
    let longest = 0;
    for (let i = 1; i < p.length; i++) if (p[i]!.length > p[longest]!.length) longest = i;
    const cur = p[longest]!;
    if (cur.length <= 40) break;
    const cut = Math.max(40, cur.length - (total - max));
    p[longest] = truncate(cur, cut);
    total = p.reduce((n, s) => n + s.length, 0) + sep;
  }
  return truncate(p.join(' | ').replace(QUOTES, '').replace(SPACES, ' ').trim(), max);
}

/**
 * Quote marks around names and values: whether a tool prints them is a choice of its output
 * format, not of the cause. With colour on, several print the name in bold instead (flow,
 * luacheck: `cnt` where the plain run says `'cnt'`), so the signature keeps only the text between.
 */
// (an apostrophe inside a word stays: `Couldn't match type`)
const QUOTES = /[`"‘“”]|(?<!\p{L})['’]|['’](?!\p{L})/gu;


/**
 * A unit printed after its failing children, deeper-indented right above it (TAP subtests:
 * `    not ok 1 - should be equal` … `not ok 1 - total of three lines` … `not ok 1 - test/cart.test.js`):
 * it failed because they did and says nothing of its own.
 */
function closesChildren(lines: Line[], unit: FailureUnit, extractors: readonly RunnerExtractor[]): boolean {
  const runner = extractors.find((x) => x.name === unit.runner);
  if (!runner) return false;
  const indent = indentOf(lines[unit.header]!.text);
  for (let j = unit.header - 1; j >= 0 && unit.header - j <= MAX_CHILD_LINES; j--) {
    const t = lines[j]!.text;
    if (t.trim() === '') continue;
    if (indentOf(t) <= indent) return false;
    if (runner.header(t, { file: null, numbered: false }) !== null) return true;
  }
  return false;
}
const MAX_CHILD_LINES = 400;

/** The failing units that carry their own error (not containers of others), else all. */
function leafUnits(lines: Line[], units: FailureUnit[], extractors: readonly RunnerExtractor[]): FailureUnit[] {
  // Containers (a unit without a message, a subtest closing its failing children: node's `N subtests failed`) carry none of their own.
  const leaves = units.filter((u) => u.messageText !== null && !closesChildren(lines, u, extractors));
  return leaves.length > 0 ? leaves : units;
}

/** The unit whose name sorts first (order-independent), or null. */
function pickUnit(pool: FailureUnit[]): FailureUnit | null {
  if (pool.length === 0) return null;
  let best = pool[0]!;
  let bestKey = normalizeName(best.name);
  for (const u of pool.slice(1)) {
    const key = normalizeName(u.name);
    if (key < bestKey) {
      best = u;
      bestKey = key;
    }
  }
  return best;
}

/**
 * `<name> | <message> | <values>` of the unit, then the value lines of the other failing units
 * (sorted, so run order does not matter): the same tests failing with other values differ
 * even when the unit spelled out failed alike (bats prints the value in the second test only).
 */
function fromUnit(lines: Line[], unit: FailureUnit, others: FailureUnit[]): { text: string; line: number } {
  const name = normalizeName(unit.name);
  const message = unit.messageText ? normalizeValues(unit.messageText) : '';
  const own = unit.details.map(normalizeValues);
  const also = [...new Set(others.filter((u) => u !== unit).flatMap((u) => u.details.map(normalizeValues)))].filter((d) => !own.includes(d)).sort();
  const line = lines[unit.message ?? unit.header]!.no;
  // How many failed when several did: fixing one of three, the unit spelled out may stay the same.
  return { text: fit([name, message, own.join(' ; '), also.length > 0 ? `also ${also.join(' ; ')}` : '', failingCount(others.length)], MAX_LENGTH), line };
}

/**
 * Where the value lines of the error at `index` can be: the next 8 lines, not counting
 * stack frames (Node prints `actual:`/`expected:` after the stack), and not past the
 * next diagnostic of a compiler that reports several or the next test's status line.
 */
function detailsEnd(lines: Line[], index: number): number {
  let budget = 8;
  let j = index + 1;
  for (; j < Math.min(lines.length, index + 40) && budget > 0; j++) {
    const t = lines[j]!.text;
    const kind = lineKind(lines[j]!);
    if (kind === 'frame') continue;
    if (kind === 'text' && /^\S/.test(t) && lineScore(lines[j]!) >= SCORE_LOCATED) break;
    // Nor past the next test's status line (`not ok 3 label`): the values under it are that test's.
    if (kind === 'text' && TEST_STATUS.test(t)) break;
    budget--;
  }
  return j;
}

/** The nearest meaningful line above a wrapper (what the failing recipe/script printed). */
function contextAbove(lines: Line[], i: number): number {
  for (let j = i - 1; j >= 0 && j >= i - 6; j--) {
    const t = lines[j]!.text;
    const kind = lineKind(lines[j]!);
    if (kind === 'blank' || kind === 'separator') continue;
    if (kind !== 'text' || isWrapper(t)) continue;
    return j;
  }
  return -1;
}

/**
 * What an output format adds around a message, never the cause: rule tags closing it (`(W117)`,
 * `[readability/todo] [2]`, `[Error/eslint(no-debugger)]`, `(no-unused-vars)`, `[arrayIndexOutOfBounds]`:
 * an id with letters and a digit, `/`, `_` or `-`, or in camelCase, in brackets), a rule tag opening
 * it (`[InputOutput::ProhibitTwoArgOpen] …`, `[whitespace/braces] …`: a bracketed id with `::` or `/`),
 * and a reference sentence (`… used at line 16.  See page 207 of PBP.`, `See https://…`). Whether a
 * tool prints them, and where, is a choice of its output format (`--verbose`, `-f unix`,
 * `--output=vs7`); the message is the cause. (A class in PascalCase, Ruby's `(NoMethodError)`, is
 * the error's kind and stays.)
 */
// (a number in brackets, cpplint's confidence `[2]`, only after a tag: alone it is a value, `[1,2]`;
// a reference only as a sentence of its own, after one that ended)
const FORMAT_ADDITIONS =
  /^\[(?=[^\s\]]*[A-Za-z])(?=[^\s\]]*(?:::|\/))[^\s\[\]'"`]+\]\s+(?=\S)|(?<=\.)\s+See\s+\S.*?(?:\.(?=\s)|$)|(?<!\s)\s+(?:\[(?=[^\s\]]*[A-Za-z])(?=[^\s\]]*[\d/_-]|[a-z][^\s\]]*[A-Z])[^\s\[\]'"`]+\]|\((?=[^\s)]*[A-Za-z])(?=[^\s)]*[\d/_-]|[a-z][^\s)]*[A-Z])[^\s()'"`]+\))(?:\s+(?:\[(?=[^\s\]]*[A-Za-z])(?=[^\s\]]*[\d/_-]|[a-z][^\s\]]*[A-Z])[^\s\[\]'"`]+\]|\((?=[^\s)]*[A-Za-z])(?=[^\s)]*[\d/_-]|[a-z][^\s)]*[A-Z])[^\s()'"`]+\)|\[\d+\]))*\s*$/g;

function describeLine(lines: Line[], i: number): string {
  const diag = parseDiagnostic(lines, i);
  const raw = diag ? renderDiagnostic(diag) : lines[i]!.text.replace(CARET_MESSAGE, '').trim();
  const text = stripLogPrefix(normalizeValues(raw.replace(/^E\s+/, '')));
  // (a value line's brackets are its value: `expected: [a-b]`)
  return VALUE_LINE.test(text) ? text : text.replace(FORMAT_ADDITIONS, '');
}

/** A diff hunk header: unified `@@ -a,b +c,d @@`, or rustfmt's `Diff in src/lib.rs:7:`. */
const DIFF_HUNK = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|^Diff in (\S+?)(?::\d+)*(?: at line \d+)?:\s*$/;

/** A line of a hunk's body: context, a change, `\\ No newline at end of file`, or blank. */
const DIFF_BODY = /^[ +\-\\]|^$/;

const FAILURE_WORD = /\b(?:fail(?:s|ed|ure)?|error|errors)\b/i;

/**
 * A test's status line (`✕ is low-stock (5 ms)`, `not ok 1 total of three lines`, `sums price FAILED [1]`): it names
 * WHICH test failed, not why; a later line of the same strength says why.
 */
const TEST_STATUS: RegExp = /^\s*(?:[✕✖✗×]|not ok\b(?:\s+\d+)?(?:\s+-)?)\s+\S|^\s*\w[^:]*\s(?:FAILED|FAIL)(?: \[\d+\])?$/;

/** Index and strength of the strongest error line (earliest on ties), or score 0. */
function strongestLine(lines: Line[]): { index: number; score: number } {
  let index = -1;
  let score = 0;
  let genericBest = false;
  let bareBest = false;
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.text;
    // The body of a diff hunk is file content (`-    panic!("negative")`), not a report.
    if (DIFF_HUNK.test(text)) {
      inHunk = true;
      continue;
    }
    if (inHunk && /^(?:[ +\-\\]|$)/.test(text)) continue;
    inHunk = false;
    if (text.length === 0) continue;
    if (isTracebackStart(text)) {
      const k = tracebackException(lines, i);
      if (k >= 0) {
        if (SCORE_EXCEPTION > score) {
          index = k;
          score = SCORE_EXCEPTION;
        }
        i = k;
      }
      continue;
    }
    if (lineKind(lines[i]!) !== 'text') continue;
    const s = lineScore(lines[i]!);
    // Earliest wins a tie, unless it only says that something failed and a later line of
    // the same strength says what (`✗ Build failed in 204ms` … `Could not resolve './x.js'`).
    // A header that says nothing but where (`Error ------ src/cart.js:6:62`) loses to the message under it,
    // even one without quotes (colour prints names in bold instead): `Cannot resolve name totl.`
    if (s > score || (s === score && s > 0 && ((genericBest && !saysOnlyThatItFailed(text)) || (bareBest && specifics(text) !== '')) && !TEST_STATUS.test(text))) {
      index = i;
      score = s;
      // (not one over an indented body: `ERROR: x.pl:6:` over `\ttest total: assertion failed` is read with it)
      bareBest = specifics(text) === '' && !TEST_STATUS.test(text) && indentedBody(lines, i) === 0;
      // A header whose indented body says what (`ERROR: x.pl:6:` + `\ttest total: …`) is specific.
      genericBest = ((FAILURE_WORD.test(text) || s === SCORE_WEAK) && saysOnlyThatItFailed(text) && !(endsWithColon(text) && indentedBody(lines, i) > 0)) || TEST_STATUS.test(text);
    }
  }
  return { index, score };
}

/** A path or a file name: where, not what. */
const WHERE_TOKEN = /^[^(]*[\\/]|\.[A-Za-z]\w{0,9}\W*$/;

/** A leading `file.ext:` (the file a message is about is no specific of the message). */
const FILE_HEAD = /^[^\s:]+\.\w+:\s*/;

/**
 * True for a line with no specifics: once paths, file names, severities, durations and
 * tallies are gone, at most six plain words and no quotes, digits, dots or operators
 * (`Error: Unsupported argument`, `✗ Build failed in 204ms`, `error during build:`,
 * `== [models/orders.sql] FAIL`). Such a line says THAT something failed, not what.
 */
function saysOnlyThatItFailed(line: string): boolean {
  const rest = specifics(line);
  // Quotes, digits, dotted or snake_case names, operators, CamelCase types: specifics.
  return rest.split(SPACES).filter(Boolean).length <= 6 && !/['"`‘’“”\d.<>=_(){}]|[a-z][A-Z]/.test(rest);
}

/**
 * What a line says once paths, file names, positions, severities, durations, tallies and rules
 * are gone. Empty for a diagnostic's header that leaves its message to the lines under it
 * (`Error ------------ src/cart.js:6:62`).
 */
function specifics(line: string): string {
  return normalizeValues(line)
    .replace(/<(?:dur|n|time|date|pid|port|id|size)>/g, ' ')
    .replace(/\b\d+ (?:errors?|failures?|problems?|warnings?|tests?|files?)\b/gi, ' ')
    .split(SPACES)
    // (a path, not a term with a slash inside its brackets: `error(evaluation_error(zero_divisor),(is)/2)`;
    // nor the unit a path's file holds, named after it: `compiling lib/Cart.rakumod (Cart)`)
    .filter((tok, i, all) => /[\p{L}\p{N}'"`‘’“”]/u.test(tok) && !WHERE_TOKEN.test(tok) && !(tok.startsWith('(') && tok.endsWith(')') && i > 0 && WHERE_TOKEN.test(all[i - 1]!)))
    .join(' ')
    .replace(FILE_HEAD, '')
    .replace(/\b(?:fatal error|error|warning|Error|ERROR|FATAL|FAIL(?:ED)?)(?:\[[^\]]*\])?(?:\s+[A-Z]+\d+)?\s*:?/g, ' ')
    // (a rule of `=` or `-` decorates, `===SORRY!===`: no operator)
    .replace(/[^\p{L}\p{N}'"`‘’“”.<>=_(){}\s-]|={2,}|-{2,}/gu, ' ')
    .replace(/\.(?=\s|$)/g, '')
    .trim();
}

/**
 * True for a bare diagnostic title with no specifics (`Error: Unsupported argument`):
 * at most four words and no quotes, digits, dots or paths once file and severity are removed.
 */
function isGenericTitle(primary: string): boolean {
  const rest = primary
    .replace(FILE_HEAD, '')
    .replace(/^(?:fatal error|error|warning|Error|ERROR|FATAL)(?:\[[^\]]*\])?(?:\s+[A-Z]+\d+)?\s*:\s*/, '');
  return rest.split(SPACES).filter(Boolean).length <= 4 && !/['"`‘’“”\d./\\:<>]/.test(rest);
}

/** A message that announces what follows (`Cannot find source file:`). */
function endsWithColon(text: string): boolean {
  return text.trimEnd().endsWith(':');
}

/**
 * A line's brackets: those it opens and does not close (`{assertEqual,[{module,m},` → 2
 * open) and those it closes that it did not open (`{value,1199}]}` → 2 closed).
 */
function brackets(text: string): { open: number; closed: number } {
  let open = 0;
  let closed = 0;
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') open++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (open > 0) open--;
      else closed++;
    }
  }
  return { open, closed };
}

/**
 * How many message lines right under line i are indented deeper than it (at most 3, or up to
 * 8 while a term it opened is unclosed: `**error:{assertEqual,[…` over `{expected,1200},`
 * `{value,1199}]}`): a blank line, a stack frame or a source excerpt ends the body. A rule of
 * marks between them (`|     |`, the pointers of a value diagram) is part of it, not an end.
 * Returns how many lines the body spans (marks included).
 */
function indentedBody(lines: Line[], i: number): number {
  const base = indentOf(lines[i]!.text);
  let open = brackets(lines[i]!.text).open;
  let n = 0;
  let span = 0;
  for (let j = i + 1; j < lines.length && (n < 3 || (open > 0 && n < 8)); j++) {
    const t = lines[j]!.text;
    const kind = lineKind(lines[j]!);
    if (indentOf(t) <= base || (kind !== 'text' && kind !== 'separator')) break;
    if (kind === 'separator') continue;
    // A line a pointer marks (`    return s + cnt;` over `      ^`) is the source quoted, not the message.
    if (POINTER_LINE.test(lines[j + 1]?.text ?? '')) break;
    n++;
    span = j - i;
    if (open > 0) {
      const b = brackets(t);
      open = Math.max(0, open + b.open - b.closed);
    }
  }
  return span;
}

/**
 * What completes a message that does not stand on its own: the next line after one ending
 * with ':' (`thread 'main' panicked at x.rs:5:5:`, `Expected values to be strictly equal:`),
 * or the body of a bare title (`Error: Unsupported argument` → its location and explanation),
 * stopping at the next error, wrapper or traceback.
 */
function followUp(lines: Line[], index: number, primary: string): string {
  const colon = endsWithColon(lines[index]!.text);
  const generic = isGenericTitle(primary) || (!colon && saysOnlyThatItFailed(primary));
  // A header over an indented body (`ERROR: x.pl:6:` then `\ttest total: assertion failed`,
  // `\tAssertion: 1199==1200`; a message wrapped under `Unhandled TYPE-ERROR in thread …`):
  // the body, up to three lines, is the message.
  // (A complete sentence, `… Does the file exist?`, is not wrapped: what is under it is other.)
  // A bare title's body right under it (`**error:badarith` over `  output:<<"">>`) is all it has.
  const body = '.?!'.includes(lines[index]!.text.trimEnd().slice(-1)) ? 0 : indentedBody(lines, index);
  if (!colon && !generic && body === 0) return '';
  let want = generic ? (body > 0 ? body : 3) : Math.max(1, body);
  const out: string[] = [];
  let pointed = '';
  for (let j = index + 1; j < Math.min(lines.length, index + 12) && out.length < want; j++) {
    const t = lines[j]!.text;
    if ((body > 1 || (generic && body > 0)) && j > index + body) break;
    const kind = lineKind(lines[j]!);
    // (a rule closes the block: what comes after it is not this error's, `--------------------`)
    if (kind === 'separator' && isRule(t)) break;
    if (kind !== 'text' || /^\s*[+-]\s/.test(t)) continue;
    if (isWrapper(t) || isTracebackStart(t) || TEST_STATUS.test(t)) break;
    if (lineScore(lines[j]!) >= SCORE_LOCATED && !(colon && out.length === 0)) break;
    // The source a pointer under it marks (`...wed", "currency": 'EUR',` over `-----^`) is a
    // window on the input that starts where the tool likes: the message is after the pointer,
    // and the source from the pointed column on says where (`'EUR', "items": [`).
    const pointer = lines[j + 1]?.text ?? '';
    if (body === 0 && POINTER_LINE.test(pointer)) {
      pointed = normalizeValues(`at: ${t.slice(pointer.indexOf('^'))}`);
      j++;
      continue;
    }
    out.push(describeLine(lines, j));
    // `Cannot find source file:` → the file is on the next line: follow a chain of colons. A
    // label is never the last line kept (`Expected:` over `(number) 1200`): its value follows.
    if (endsWithColon(t) && (generic ? out.length === want : want < 3)) want++;
  }
  if (pointed) out.push(pointed);
  return out.join(' ; ');
}

/**
 * A rule drawn across: four or more of `-`, `=`, `─`, `━`, `═`, `⎯` and nothing else (not YAML's
 * `---`, which opens TAP's diagnostics under a failing test).
 */
function isRule(text: string): boolean {
  const t = text.trim();
  return t.length >= 4 && [...t].every((ch) => '-=─━═⎯'.includes(ch));
}

const PY_FRAME = /^\s*File "([^"]+)", line \d+(?:, in (\S.*?))?\s*$/;

/**
 * Python prints the raising location as the innermost `File "…", line N, in fn` frame
 * just above the exception (also for a SyntaxError, which has no `Traceback` header).
 * It tells apart the same exception raised in two places.
 */
function pythonFrame(lines: Line[], index: number): string {
  for (let j = index - 1; j >= 0 && j >= index - 12; j--) {
    const m = PY_FRAME.exec(lines[j]!.text);
    if (m) return normalizeValues(`at ${basename(m[1]!)}${m[2] ? ` in ${m[2]}` : ''}`);
    if (!/^\s/.test(lines[j]!.text) && lines[j]!.text.trim() !== '') return '';
  }
  return '';
}

/**
 * A stack frame (sanitizer/gdb `#0 0x… in fn file:line`, valgrind `at 0x…: fn (file:line)`,
 * Java `at pkg.Cls.fn(File.java:12)`, JS `at fn (file:line:col)`) as `[function, location]`.
 */
const STACK_FRAMES: RegExp[] = [
  /^\s*#\d+\s+0x[0-9a-fA-F]+\s+in\s+(.+?)\s+\(?([^\s()]+)\)?$/,
  /^\s*(?:at|by) 0x[0-9A-Fa-f]+: (.+?) \((?:in )?([^()]+)\)$/,
  /^\s*at (?:[\w$.@-]+\/\/?)?((?:[\w$]+[./])*[\w$<>]+)\(([^()]*)\)$/,
  /^\s*at (?:async )?((?:new )?\S+(?: \[as \w+\])?) \((.+)\)(?: \{)?$/,
  /^\s*at (?:async )?()(\S+?)(?: \{)?$/,
];
/** Frames inside the runtime, the C library, the sanitizer or the checker itself. */
const RUNTIME_FRAME = /^(?:node:|internal\/|java\.base\/|jdk\.|\.\.\/sysdeps|\.\.\/csu|<anonymous>|native|Native Method|Unknown Source)|^\/(?:usr|lib|lib64)\/|\/libsanitizer\/|vgpreload|\.so(?:\.[\d.]+)?(?:\+0x[0-9a-f]+)?$/;
const RUNTIME_FUNCTION = /^(?:__|_start$|java\.|javax\.|jdk\.|sun\.)/;

function parseFrame(text: string): { fn: string; where: string } | null {
  for (const re of STACK_FRAMES) {
    const m = re.exec(text);
    // C++ frames carry the signature: `Canvas::resize(int, int)` → `Canvas::resize`.
    if (m) return { fn: m[1]!.replace(/\(.*$/, ''), where: m[2]!.replace(/(?::\d+)+$/, '') };
  }
  return null;
}

/**
 * What a runtime error line is missing to tell two crashes apart: the sanitizer's access
 * (`READ of size 8`) and the innermost frame of the stack under it that is in the
 * project's own code (`at mean (stats.c)`), not in the runtime or the C library.
 */
function crashSite(lines: Line[], index: number): string {
  const out: string[] = [];
  let others = 0;
  let sawFrame = false;
  for (let j = index + 1; j < Math.min(lines.length, index + 40); j++) {
    const t = lines[j]!.text;
    if (t.trim() === '') {
      if (sawFrame) break;
      continue;
    }
    const access = /^\s*((?:READ|WRITE) of size \d+)\b/.exec(t);
    if (access) {
      out.push(access[1]!);
      continue;
    }
    const f = parseFrame(t);
    if (!f) {
      if (sawFrame || ++others > 2) break;
      continue;
    }
    sawFrame = true;
    if (RUNTIME_FRAME.test(f.where) || RUNTIME_FUNCTION.test(f.fn)) continue;
    // (a `file:///…` URL's basename is the file's)
    const file = basename(f.where);
    // CommonJS top-level code runs as `Object.<anonymous>`: the file alone says it.
    out.push(f.fn && !/<anonymous>$/.test(f.fn) ? `at ${f.fn} (${file})` : `at ${file}`);
    break;
  }
  return normalizeValues(out.join(' ; '));
}

/** A numbered source excerpt line (`> 9 │ code`, `>> 6| code`, `  11 | code`): its `>` marks the spot. */
const EXCERPT = /^\s*(?:(>>?)\s*)?\d+\s*[|│]\s?(.*\S)\s*$/;
/** The gutter line under an excerpt that points at the spot: `  │   ^^^^^^`. */
const POINTER = /^\s*[|│]\s*[\^~]+/;

/**
 * The source line a diagnostic points at, from the excerpt printed under it (before the
 * next diagnostic): the line its gutter marks with `>`, or the one a caret line points at
 * when the message alone says nothing specific. Code, not position: it stays
 * when lines shift and differs for the same message about another statement.
 */
function pointedSource(lines: Line[], index: number, primary: string): string {
  // Without the `>` mark, only a message that cannot tell two spots apart by itself
  // (`Error: Undefined variable.`) takes the line a caret points at.
  const unspecific = isGenericTitle(primary) || saysOnlyThatItFailed(primary);
  for (let j = index + 1; j < Math.min(lines.length, index + 14); j++) {
    const t = lines[j]!.text;
    const m = EXCERPT.exec(t);
    if (m && (m[1] || (unspecific && POINTER.test(lines[j + 1]?.text ?? '')))) return normalizeValues(`at: ${m[2]!.trim()}`);
    if (j > index + 1 && /^\S/.test(t) && lineScore(lines[j]!) >= SCORE_LOCATED) break;
  }
  return '';
}

/** The root cause of a chained error: the last `Caused by:` (Java) or `[cause]:` (Node) of its block. */
function rootCause(lines: Line[], index: number): string {
  let cause = '';
  let at = -1;
  for (let j = index + 1; j < Math.min(lines.length, index + 80); j++) {
    const t = lines[j]!.text;
    // (Node prints an error's `[cause]:` after its stack and a blank line or two: not past the next error)
    if (t.trim() === '') continue;
    const m = /^\s*(?:Caused by:|\[cause\]:)\s*(\S.*?)\s*\{?$/.exec(t);
    if (m) {
      cause = m[1]!;
      at = j;
    } else if (t[0] !== ' ' && t[0] !== '\t' && lineKind(lines[j]!) === 'text' && lineScore(lines[j]!) >= SCORE_STRONG) break;
  }
  if (!cause) return '';
  // A cause announcing its value (`AssertionError: Expected values to be strictly equal:` … `100 !== 0`) reads it.
  let value = '';
  for (let j = at + 1; endsWithColon(cause) && j < Math.min(lines.length, at + 4); j++) {
    if (lines[j]!.text.trim() === '') continue;
    if (lineKind(lines[j]!) === 'text') value = ` ${lines[j]!.text.trim()}`;
    break;
  }
  return `caused by ${normalizeValues(cause + value)}`;
}

/**
 * The first change of a unified diff (golden-file tests, `diff -u`, formatters' `--diff`):
 * `file: -old ; +new`. Such output often has no error line at all, and its last line is
 * just trailing context shared by unrelated changes.
 */
function diffChange(lines: Line[]): string {
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    const plus = /^\+\+\+ (?:[ab]\/)?(\S+)/.exec(t);
    if (plus) {
      file = basename(plus[1]!);
      continue;
    }
    // (also a hunk quoted as a block, indented: TAP's YAML `diff: |`; its lines lose that indent)
    const indent = indentOf(t);
    const hunk = DIFF_HUNK.exec(indent > 0 ? t.slice(indent) : t);
    if (!hunk) continue;
    if (hunk[1]) file = basename(hunk[1]);
    let minus: string | null = null;
    let added: string | null = null;
    let j = i + 1;
    for (; j < Math.min(lines.length, i + 200) && (minus === null || added === null); j++) {
      const raw = lines[j]!.text;
      if (indent > 0 && raw.trim() !== '' && indentOf(raw) < indent) break;
      const h = raw.slice(Math.min(indent, indentOf(raw)));
      if (h.startsWith('@@') || !DIFF_BODY.test(h)) break;
      if (h.startsWith('-') && minus === null) minus = h;
      else if (h.startsWith('+') && added === null) added = h;
      else if (h.startsWith(' ') && (minus !== null || added !== null)) break;
    }
    if (minus === null && added === null) {
      i = j - 1;
      continue;
    }
    const change = [minus, added].filter((x): x is string => x !== null).map(normalizeValues).join(' ; ');
    // How many changes the diff holds, when several: a transcript or golden file with three wrong
    // lines is not the one with only its first still wrong.
    const more = changeBlocks(lines, i, indent);
    return truncate(`${file ? `${file}: ` : ''}${change}${more >= 2 ? ` | ${more} changes` : ''}`, MAX_LENGTH);
  }
  return '';
}

/** The runs of changed lines (`-`/`+`) of a diff from its first hunk at `from` on (other hunks too). */
function changeBlocks(lines: Line[], from: number, indent: number): number {
  let blocks = 0;
  let inChange = false;
  for (let j = from + 1; j < Math.min(lines.length, from + 2000); j++) {
    const raw = lines[j]!.text;
    if (indent > 0 && raw.trim() !== '' && indentOf(raw) < indent) break;
    const h = raw.slice(Math.min(indent, indentOf(raw)));
    if (DIFF_HUNK.test(h) || h.startsWith('+++ ') || h.startsWith('--- ')) {
      inChange = false;
      continue;
    }
    if (!DIFF_BODY.test(h)) break;
    const changed = h.startsWith('+') || h.startsWith('-');
    if (changed && !inChange) blocks++;
    inChange = changed;
  }
  return blocks;
}

/** `3 failing` for a count of two or more failures, else nothing. */
function failingCount(n: number): string {
  return n >= 2 ? `${n} failing` : '';
}

/** At most this many units are listed (a run with thousands of failures stays small). */
const MAX_UNITS = 500;

/** A failing unit as listed: its line's values normalised, a log prefix dropped, bounded. */
function unitText(text: string): string {
  return truncate(stripLogPrefix(normalizeValues(text.trim())), MAX_LENGTH);
}

/**
 * The distinct error diagnostics of a compiler or linter run (`cart.ts: error TS2339: …`),
 * as failing units when no test runner reported any: fixing one of three type errors
 * shrinks the set. Only located errors count (`file:line: …` with no severity or an error
 * one, stylish `3:10 ✖ …` under its file; not warnings, notes or wrappers).
 */
function diagnosticUnits(lines: Line[]): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  for (let i = 0; i < lines.length && out.size < MAX_UNITS; i++) {
    const t = lines[i]!.text;
    if (t.length === 0 || !/\d/.test(t) || lineKind(lines[i]!) !== 'text' || lineScore(lines[i]!) < SCORE_LOCATED) continue;
    const diag = parseDiagnostic(lines, i);
    if (!diag || diag.file === null || (diag.severity !== null && !/error/.test(diag.severity))) continue;
    // Runners often print the same diagnostic twice (a list, then a summary): normalise it once.
    const rendered = renderDiagnostic(diag);
    if (seen.has(rendered)) continue;
    seen.add(rendered);
    // (as the fingerprint reads it: with or without the format's rule tags, one unit)
    out.add(unitText(rendered).replace(FORMAT_ADDITIONS, ''));
  }
  return [...out];
}

/**
 * Failing units when neither a test runner nor located diagnostics name any: the error lines
 * that open with the same word as the chosen one (`FAIL alpha: …`, `FAIL beta: …` from a check
 * script, `ERROR: …` lines of a home-made runner), or that say the same after their first word
 * (`s:total_test failed on line 7`, `s:label_test failed on line 8`), normalised, when the output holds at least
 * two (one is the fingerprint itself; the delta reads a list shrunk to it). A list
 * of failures printed in one shape is a list of units whatever printed it, so fixing one of
 * them shrinks the set instead of reading as "the same error" while the first one remains.
 */
function siblingUnits(lines: Line[], chosen: number): string[] {
  const first = unitText(lines[chosen]!.text);
  const lead = first.slice(0, first.indexOf(' ') + 1);
  // A word (`FAIL`, `ERROR:`; not a symbol, path or number: code frames and locations are not a list).
  if (lead === '' || lead.toLowerCase() === lead.toUpperCase()) return [];
  // Or the same sentence about another unit, named first: `suite:total_test failed on line 7`,
  // `suite:label_test failed on line 8` (the words after the name are the shape).
  const tail = first.slice(lead.length - 1);
  // (cheap tests first: only a line holding the lead or the tail's first word is normalised)
  const leadWord = lead.trim();
  const tailWord = tail.trim().split(' ')[0] ?? '';
  const out = new Set<string>();
  for (let i = 0; i < lines.length && out.size < MAX_UNITS; i++) {
    const t = lines[i]!.text;
    if (!t.includes(leadWord) && !(tailWord !== '' && t.includes(tailWord))) continue;
    if (lineKind(lines[i]!) !== 'text' || lineScore(lines[i]!) < SCORE_WEAK) continue;
    const n = unitText(t);
    if (n.startsWith(lead) || (n.endsWith(tail) && n.indexOf(' ') === n.length - tail.length)) out.add(n);
  }
  return out.size >= 2 ? [...out] : [];
}

function lastMeaningful(lines: Line[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lineKind(lines[i]!) === 'text') return i;
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.text.trim() !== '') return i;
  return -1;
}

/**
 * The normalised failure signature of a verification output (see the design note above).
 */
export function fingerprint(output: string, opts: FingerprintOptions = {}): FingerprintResult {
  return fingerprintLines(toLines(output), opts);
}

/** The fingerprint of lines already read (by `OutputScanner`, streamed over a whole output). */
export function fingerprintLines(lines: Line[], opts: FingerprintOptions = {}): FingerprintResult {
  const signature = detectTool(lines);
  const exit = opts.exitCode === undefined || opts.exitCode === null ? '' : ` (exit ${opts.exitCode})`;
  if (!lines.some((l) => l.text.trim() !== '')) return { fingerprint: `${NO_OUTPUT}${exit}`, line: null, tool: signature, failing_units: [] };

  const extractors = opts.extractors === false ? [] : opts.extractors === true || opts.extractors === undefined ? EXTRACTORS : opts.extractors;
  const units = failureUnits(lines, extractors);
  // No known signature: the runner shape whose failing units were read names the tool (`ctest`, `tap`).
  const tool = signature ?? units[0]?.runner ?? null;
  const leaves = leafUnits(lines, units, extractors);
  const unit = pickUnit(leaves);
  if (unit) {
    const r = fromUnit(lines, unit, leaves);
    return { fingerprint: r.text, line: r.line, tool, failing_units: unitNames(lines, units, extractors, diagnosticUnits) };
  }

  const { index, score } = strongestLine(lines);
  const failing_units = unitNames(lines, units, extractors, (ls) => {
    const located = diagnosticUnits(ls);
    return located.length > 0 || index < 0 ? located : siblingUnits(ls, index);
  });
  if (index < 0) {
    const diff = diffChange(lines);
    if (diff) return { fingerprint: diff, line: null, tool, failing_units };
    const last = lastMeaningful(lines);
    const text = last >= 0 ? dropVolatileFields(stripLogPrefix(normalizeValues(lines[last]!.text))).replace(SPACES, ' ').trim() : '';
    return { fingerprint: truncate(`${text || NO_OUTPUT}${exit}`, MAX_LENGTH), line: last >= 0 ? lines[last]!.no : null, tool, failing_units };
  }

  const parts: string[] = [];
  let source = index;
  if (score === SCORE_WRAPPER) {
    const ctx = contextAbove(lines, index);
    if (ctx >= 0) {
      parts.push(describeLine(lines, ctx));
      source = ctx;
    }
  }
  // A value line that is the error (`expected: 1200`, a word `expected` makes it one) goes with
  // the value lines right above it (`actual  : 1199`): one value alone does not tell two apart.
  if (VALUE_LINE.test(lines[index]!.text)) {
    for (let j = index - 1; j >= 0 && j >= index - 2 && VALUE_LINE.test(lines[j]!.text); j--) {
      parts.unshift(describeLine(lines, j));
      source = j;
    }
  }
  const primary = describeLine(lines, index);
  parts.push(primary);
  const details = valueDetails(lines, index + 1, detailsEnd(lines, index)).map(normalizeValues).join(' ; ');
  // A message ending with ':' continues on the next line (`Failed example:`), before any values.
  const follow = details === '' || endsWithColon(lines[index]!.text) ? followUp(lines, index, primary) : '';
  parts.push(follow, details === follow ? '' : details);
  // A closing line that only says THAT it failed (`FATAL: tb.v:8: total mismatch`), with nothing
  // under it, follows what the check printed just above it (`FAIL: total expected 500, got 600`),
  // as a wrapper does.
  if (follow === '' && details === '' && score > SCORE_WRAPPER && saysOnlyThatItFailed(primary)) {
    const ctx = contextAbove(lines, index);
    // (not a header that only says where: the line chosen is its message)
    // (nor a note or an info-level log line: `INFO … found files total=3`)
    if (ctx >= 0 && lineScore(lines[ctx]!) > SCORE_NOTE && specifics(lines[ctx]!.text) !== '') {
      parts.unshift(describeLine(lines, ctx));
      source = ctx;
    }
  }
  // The same message about another spot of the same file (a second `==`) differs by the
  // source line the tool points at, when it prints one.
  if (details === '' && score >= SCORE_LOCATED) parts.push(pointedSource(lines, index, primary));
  if (score < SCORE_LOCATED && details === '') parts.push(diffChange(lines));
  const where = pythonFrame(lines, index);
  if (where) parts.push(where);
  else if (!parseDiagnostic(lines, index)) parts.push(rootCause(lines, index), crashSite(lines, index));
  // The units a summary lists as failing (`Failing scenarios:`): fixing one of them is another state.
  const listed = [...new Set(listedFailures(lines).map(normalizeName))].sort();
  if (listed.length > 0) parts.push(`failing ${listed.join(' ; ')}`);
  // How many failed, when the runner's tally says several: fixing one of three failing tests is
  // progress even when the first error stays, and one failure is not three.
  else parts.push(failingCount(failureTally(lines)));
  return { fingerprint: fit(parts, MAX_LENGTH), line: lines[source]!.no, tool, failing_units };
}
