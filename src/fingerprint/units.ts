/**
 * The block reader: turns the runner extractors' headers (./extractors/) into failing units,
 * each with its first error. A unit is its name, the line carrying its message (the first
 * meaningful line of its block, the exception closing a traceback, or where the extractor
 * says the runner marks it) and value lines (`Expected: …`, `left: …`) so that the same test
 * failing with a different value differs. A block ends where any runner's next unit or
 * section starts, at a summary, banner or passing line, or after 150 lines.
 */
import { indentOf, type Line } from './lines.js';
import { classifyLine, lineKind } from './noise.js';
import { SCORE_WEAK, errorScore, isTracebackStart, tracebackException } from './signals.js';
import { EXTRACTORS, type BlockState, type RunnerExtractor } from './extractors/index.js';

export interface FailureUnit {
  /** The extractor that found the unit (its `name`). */
  runner: string;
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

const BLOCK_END = /^\s*(?:failures|Failures|FAILURES|Summary of all failing tests|short test summary info)\s*:?\s*$|^(?:FAIL|ok)\s+\S+\s+(?:[\d.]+s|\[[^\]]*\]|\(cached\))\s*$|^FAIL\s*$/;
const MAX_BLOCK = 150;

/** A value line worth keeping next to a message: `Expected: "a"`, `left: 4100`, `symbol: variable x`, `but got: 1199`, `Reason: {badmatch,1199}`. */
export const VALUE_LINE = /^\s*(?:#\s*)?(?:but\s+)?(?:(?:Expected|Received|Actual|Got|expected|received|actual|got|left|right|Left|Right|symbol|found|required|want|wanted|Rejected to value|Resolved to value|Difference|Diff|Thrown|was|Reason)\b[^:\n]{0,24}:\s*\S|[Ee]xpected\s[^:\n]{1,40}?\b(?:got|was|received|actual|found)\s+\S)/;
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
  /^\s*[+-]\s/,
  /^\s*(?:code|name):\s+'[^']*'\s*$/,
  // A location alone (`test/x.js:12:5`, `# spec/cart_spec.lua @ 4`): where, not what.
  /^\s*(?:#\s*)?\S+(?::\d+(?::\d+)?:?| @ \d+)\s*$/,
  /^\s*Error Trace:/,
  /^\s*#\s*\(in test file/,
  /^\s*#\s+at \S+ line \d+\.?\s*$/,
];

/**
 * A message that only says the unit failed, not why: node --test's `'test failed'`,
 * `exitCode: 1`, go's `FAIL`. A test file that cannot even load (a syntax error, a top-level
 * ReferenceError) fails that way in every reporter, its cause printed above the header.
 */
const SAYS_ONLY_IT_FAILED = /^\s*(?:#\s*)?(?:FAIL\b.*|(?:error:\s*)?(['"]?)test failed\1|exitCode:\s*\d+|signal:\s*\S+|failureType:\s*\S+|Subtest:\s.*)\s*$/;
/** The end of the test before's YAML diagnostics (TAP's `  ...`): what is above it is that test's. */
const isYamlEnd = (text: string): boolean => text.trim() === '...';
/** A marker a runner prints before a message (`→`, `›`, `❯`, `>`, TAP's `#`). */
const MARKER_PREFIX = /^[→›❯>#]\s*/;
/** How far above a header the cause of a unit that only says it failed is looked for. */
const MAX_BACK = 40;

/**
 * The cause of a unit whose block only says it failed, printed above its header: the strongest
 * error line (the earliest of equals; TAP's `# ` taken off) back to the end of what came before
 * (another unit's header or diagnostics, a passing line, a summary), at most MAX_BACK lines; null
 * when no line there reads as an error.
 */
function causeAbove(lines: Line[], header: number, state: BlockState, extractors: readonly RunnerExtractor[]): { index: number; text: string } | null {
  let best: { index: number; text: string } | null = null;
  let bestScore = SCORE_WEAK - 1;
  for (let j = header - 1; j >= 0 && header - j <= MAX_BACK && !isHeaderOrEnd(lines, j, state, extractors) && !isYamlEnd(lines[j]!.text); j--) {
    if (lineKind(lines[j]!) !== 'text') continue;
    const text = lines[j]!.text.trim().replace(MARKER_PREFIX, '');
    const score = errorScore(text);
    if (score >= bestScore) {
      best = { index: j, text };
      bestScore = score;
    }
  }
  return best;
}

function isHeaderOrEnd(lines: Line[], j: number, state: BlockState, extractors: readonly RunnerExtractor[]): boolean {
  const t = lines[j]!.text;
  if (BLOCK_END.test(t)) return true;
  const kind = lineKind(lines[j]!);
  if (kind === 'pass' || kind === 'summary' || kind === 'banner') return true;
  return extractors.some((x) => x.section?.(t, { ...state }) === true || x.header(t, state) !== null);
}

function extractMessage(lines: Line[], from: number, to: number, runner: RunnerExtractor, skipBare = false): { index: number; text: string } | null {
  const marked = runner.firstError?.(lines, from, to);
  if (marked) return marked;
  for (let j = from; j < to; j++) {
    const t = lines[j]!.text;
    if (skipBare && SAYS_ONLY_IT_FAILED.test(t)) continue;
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
    return { index: j, text: t.trim().replace(MARKER_PREFIX, '') };
  }
  return null;
}

// (`- 42`, or doubled with no space: uvu's `++1200` / `--1199`; never a `---`/`+++` header)
const DIFF_LINE = /^\s*([-+])(?:\1(?=[^\s>+-])|(?![->+])\s*)(\S.*)$/;

function extractDetails(lines: Line[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let j = from; j < to && out.length < 2; j++) {
    const t = lines[j]!.text;
    let v: string | null = null;
    const label = VALUE_LABEL_ONLY.exec(t);
    if (VALUE_LINE.test(t)) v = t.trim().replace(/^#\s*/, '').replace(/,$/, '');
    else if (label && j + 1 < to && indentOf(lines[j + 1]!.text) > label[1]!.length && lines[j + 1]!.text.trim() !== '') {
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
    if (lineKind(lines[j]!) === 'progress') continue; // a diff legend (`- Expected  - 1`)
    const d = DIFF_LINE.exec(t);
    if (!d || !/[\p{L}\p{N}]/u.test(d[2]!)) continue;
    if (d[1] === '-' && minus === null) minus = `- ${d[2]!.trim()}`;
    if (d[1] === '+' && plus === null) plus = `+ ${d[2]!.trim()}`;
  }
  return [minus, plus].filter((x): x is string => x !== null);
}

/** The next line of (from, to) that can carry a message, trimmed, or null. */
function nextText(lines: Line[], from: number, to: number): string | null {
  for (let j = from; j < Math.min(to, lines.length); j++) if (lineKind(lines[j]!) === 'text') return lines[j]!.text.trim();
  return null;
}

/** Value lines (and rustc caret labels) in lines (from, to), at most two. */
export function valueDetails(lines: Line[], from: number, to: number): string[] {
  return extractDetails(lines, from, Math.min(to, lines.length));
}

/**
 * Parses every failing test unit the extractors recognise, in output order (a name repeated
 * in a summary is kept once). With no extractors, none.
 */
export function failureUnits(lines: Line[], extractors: readonly RunnerExtractor[] = EXTRACTORS): FailureUnit[] {
  const state: BlockState = { file: null, numbered: false };
  const units: FailureUnit[] = [];
  const seen = new Map<string, FailureUnit>();
  if (extractors.length === 0) return units;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (t.length === 0) continue;
    if (extractors.some((x) => x.section?.(t, state) === true)) continue;
    let runner: RunnerExtractor | null = null;
    let name: string | null = null;
    for (const x of extractors) {
      name = x.header(t, state);
      if (name !== null) {
        runner = x;
        break;
      }
    }
    if (runner === null || name === null) continue;
    let start = i + 1;
    if (runner.title) {
      const title = runner.title(lines, i, name);
      name = title.name;
      start = title.end + 1;
    }
    let end = start;
    while (end < lines.length && end - start < MAX_BLOCK && !isHeaderOrEnd(lines, end, state, extractors)) end++;
    const earlier = seen.get(name);
    if (earlier && earlier.message !== null) {
      i = end - 1;
      continue;
    }
    let msg = extractMessage(lines, start, end, runner);
    // A runner that prints the error before the header (go test -v), when the block has none.
    if ((msg === null || SAYS_ONLY_IT_FAILED.test(msg.text)) && runner.errorBefore) {
      const before = runner.errorBefore(lines, i, name);
      const back = before ? extractMessage(lines, before.from, before.to, runner) : null;
      if (back && before) {
        msg = back;
        end = before.to;
      }
    }
    // A unit that only says it failed: its cause above the header (a file that failed to load),
    // else further down its own block.
    if (msg && SAYS_ONLY_IT_FAILED.test(msg.text)) {
      const cause = causeAbove(lines, i, state, extractors) ?? extractMessage(lines, msg.index + 1, end, runner, true);
      if (cause) {
        if (cause.index < i) end = i;
        msg = cause;
      }
    }
    const details = msg ? extractDetails(lines, msg.index + 1, Math.max(end, msg.index + 1)) : [];
    if (msg && details.length === 0 && msg.text.trimEnd().endsWith(':')) {
      // A message that announces what follows (`Expected values to be strictly equal:`): the
      // next meaningful line of the block says it (`5 !== 13`).
      const next = nextText(lines, msg.index + 1, end);
      if (next !== null) details.push(next);
    } else if (msg && details.length === 0 && lines[msg.index]!.text.trimStart().startsWith('#')) {
      // TAP diagnostics go on in `#` lines: the one after the message (bats' `# expected 1200, got 1199`),
      // and the one after that when it only labels it (busted's `# Passed in:` over `# (number) 1300`).
      for (let k = msg.index + 1; k < end && k <= msg.index + 2; k++) {
        const next = lines[k]!;
        if (!next.text.trimStart().startsWith('#') || lineKind(next) !== 'text' || classifyLine(next.text.trim().replace(MARKER_PREFIX, '')) !== 'text') break;
        details.push(next.text.trim().replace(/^#\s*/, ''));
        if (!next.text.trimEnd().endsWith(':')) break;
      }
    }
    if (earlier) {
      // A bare marker first (TAP `not ok 1 - x`), its diagnostics under a second header.
      if (msg) Object.assign(earlier, { message: msg.index, messageText: msg.text, details });
    } else {
      const unit: FailureUnit = { runner: runner.name, name, header: i, message: msg?.index ?? null, messageText: msg?.text ?? null, details };
      units.push(unit);
      seen.set(name, unit);
    }
    i = Math.max(i, end - 1);
  }
  return units;
}

/** The names the extractors' one-line failure markers give (`test x ... FAILED`, `✕ name`). */
export function markerNames(lines: Line[], extractors: readonly RunnerExtractor[] = EXTRACTORS): string[] {
  const out: string[] = [];
  for (const line of lines) {
    // A tally (`✖ 2 problems (2 errors, 0 warnings)`) names no unit.
    if (line.text.length === 0 || lineKind(line) === 'summary') continue;
    const text = line.text;
    for (const x of extractors) {
      const name = x.marker?.(text);
      if (name) {
        out.push(name);
        break;
      }
    }
  }
  return out;
}

/** A header announcing a list of failing units: `Failing scenarios:`, `The following tests FAILED:`, `Failed examples:`. */
const FAILING_LIST = /^(?:the following )?(?:(?:failing|failed) (?:tests|scenarios|specs|examples|cases|suites|features)|(?:tests|scenarios|specs|examples|cases|suites|features) (?:failing|failed))(?: \w+)?:$/i;

/**
 * The names a runner lists under a header of failing units (behave's `Failing scenarios:` over
 * `  features/cart.feature:3  three lines`, ctest's `The following tests FAILED:`): the lines
 * indented under the header, up to the first blank or outdented line. A summary names which
 * units failed when no per-test block does.
 */
export function listedFailures(lines: Line[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FAILING_LIST.test(lines[i]!.text.trim())) continue;
    const base = indentOf(lines[i]!.text);
    for (let j = i + 1; j < lines.length && out.length < 500; j++) {
      const t = lines[j]!.text;
      if (t.trim() === '' || indentOf(t) <= base) break;
      out.push(t.trim());
    }
  }
  return out;
}
