/**
 * Tool-agnostic error signals: how strongly a (non-noise) line says "this is the failure",
 * plus parsers for the two shapes that need more than one regex: compiler-style
 * diagnostics (rendered canonically so `--pretty` and plain output agree) and Python
 * tracebacks (the exception line at the end, not the frames).
 */
import { basename } from './normalize.js';
import type { Line } from './lines.js';
import { anyOf, matchesAny } from './noise.js';

/** Exception line closing a traceback; pytest `E   ` lines. */
export const SCORE_EXCEPTION = 100;
/** `file:line: error`, `file(9,22) Error:`, `error[E0308]`, `TypeError: x`, `panic:`, `command not found`, `curl: (7)`. */
export const SCORE_STRONG = 90;
/** `file:line[:col]: message` without a severity (go vet, ruff, flake8, make). */
export const SCORE_LOCATED = 85;
/** Any error-ish word: failed, cannot, not found, invalid, ✖, HTTP 5xx, a linter's `Issue:`. */
export const SCORE_WEAK = 70;
/** Generic wrappers that only say "something above failed": `make: *** [x] Error 1`, `npm ERR!`. */
export const SCORE_WRAPPER = 40;
export const SCORE_WARNING = 20;
export const SCORE_NOTE = 10;

const WRAPPER = [
  /^make(?:\[\d+\])?: \*\*\* \[[^\]]*\] (?:Error|Killed|Terminated|Segmentation)/,
  /\bld returned \d+ exit status/,
  /\bcould not compile\b/,
  // (or any line blaming earlier errors: `FAILED: cannot make progress due to previous errors.`)
  /^error: aborting due to|\bdue to (?:the )?previous errors?\b/,
  /^error: test failed\b/,
  /^npm (?:ERR!|error)\b/,
  /^(?:FAIL|ok)\s+\S+\s+(?:\[[^\]]*\]|[\d.]+s|\(cached\))\s*$/,
  /^FAIL\s*$/,
  // Any runner's "it exited N": `Process completed with exit code 1`, just's `Recipe `x` failed … with exit
  // code 1`, yarn's `Command failed with exit code 1`, Python's `returned non-zero exit status 2`.
  /\bexit(?:ed)? (?:with )?(?:exit )?(?:code|status)\s*[:=]?\s*-?\d+/i,
  /^Error: Command failed\b/,
  /\bELIFECYCLE\b/,
  /^(?:FAILED|FAILURE|BUILD FAILED|FAILURES!?|ERRORS!?|Tests failed\.?)\s*$/,
  /^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|To see the full stack trace|Re-run Maven|For more information about the errors|->|$)/,
];

const STRONG = [
  /^\S.{0,300}?:\d+(?:[:.]\d+)?(?:-\d+(?:\.\d+)?)?:?\s*(?:fatal error|error)\b/i,
  /\(\d+(?:,\d+)?\):?\s*(?:fatal error|error)\b/i,
  /\berror\s+[A-Z]{1,5}\d{2,6}\b/,
  // (also behind asterisks: Erlang's `**error:{badmatch,…}`)
  // (and an upper-case kind before it: `RUNTIME ERROR: missing key`, `STATIC ERROR: …`)
  /^(?:\*+\s*)?(?:error|fatal error|fatal|ERROR|FATAL|Error|[A-Z]+ ERROR(?=:))(?:\[[\w-]+\])?\s*:/,
  /^\s*\d+:\d+\s+(?:error|✖)\s/,
  /^(?:Uncaught |Unhandled(?: \w+)? |Caused by: )?(?:[\w$]+\.)*(?:[A-Z][\w$]*)?(?:Error|Exception|Failure|Fault)(?:\s*\[[\w-]+\])?(?::|$|\s+at\s)/,
  // An exception type after a one-word prefix: `Sorry: IndentationError: …`, `FATAL: RuntimeError: …`.
  /^[A-Za-z]+: (?:[\w$]+\.)*[A-Z][\w$]*(?:Error|Exception): /,
  /^panic:|\bpanicked at\b/,
  /^Exception in thread /,
  /undefined reference to|unresolved external symbol|multiple definition of|\bld: cannot find\b|\bld: library not found/,
  /: command not found\b|: not found$|[Nn]o such file or directory|[Pp]ermission denied|unbound variable|cannot stat|Segmentation fault|core dumped|\bKilled\b|[Oo]ut of memory/,
  /^\*\*\s*\([A-Z]\w*(?:Error|Exception)\)/,
  /^curl: \(\d+\)/,
  /^\S+: line \d+: /,
  /\*\*\* .*(?:Stop\.|missing separator|No rule to make target)/,
  // C assert(): glibc `prog: file.c:5: fn: Assertion `x' failed.`, BSD/musl `Assertion failed: (x), …`.
  /\bAssertion [`'‘].{0,300}[`'’] failed\.?$|^Assertion [Ff]ailed: /,
  // Memory-checker error records (valgrind, after its `==pid==` prefix is removed).
  /^(?:Invalid (?:read|write|free\(\)|delete|delete\[\]|size value)\b|Mismatched free\(\)|Conditional jump or move depends on uninitialised|Use of uninitialised value|Syscall param \S+ (?:points to|contains) (?:uninitialised|unaddressable)|Source and destination overlap|[\d,]+ (?:\([\d,]+ direct, [\d,]+ indirect\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost|Process terminating with default action of signal)/,
];

const WRAPPER_LINE = anyOf(WRAPPER);
const STRONG_LINE = anyOf(STRONG);

// `file:line: message` (a column range too: `Cart.hs:10:15-33:`), also after the program's name (`lua5.4: ./config.lua:13: attempt to …`),
// or a message located in words: `Loop iterator is not lexical at line 11, column 5.`, `… at x.pl line 7.`
const LOCATED = /^(?:[\w.-]+: )?(?:\.{0,2}\/)?[\w.\/@+-]*(?:\.[A-Za-z]\w{0,9}|Makefile|makefile|Dockerfile)(?::\d+(?::\d+(?:-\d+)?)?|:\[\d+,\d+\]):?\s+\S|^\W*\w.*?\sat (?:\S+ )?line \d+\b/;
const LOCATED_MINOR = /^\S+:\d+(?::\d+)?:?\s+(?:warning|note|info|hint|help|remark)\b/i;

/** A note or warning that also says `error` is an error. */
const ERROR_WORD = /\berror\b/i;
const WARNING = /\bwarn(?:ing|ings)?\b|\bdeprecat/i;
const NOTE = /^\s*(?:note|info|hint|help|remark|tip)\b\s*:?/i;

const WEAK = /\b(?:errors?|fail(?:s|ed|ure|ures|ing)?|FAIL(?:ED)?|fatal|panic|exception|assert(?:ion)?s?|cannot|can't|could not|couldn't|unable to|don't know how to|not found|does not exist|doesn't exist|is not defined|not declared|undeclared|invalid|missing|refused|denied|timed out|unreachable|unexpected|mismatch(?:ed)?|broken|violat(?:ion|ed)|forbidden|unauthorized|abort(?:ed)?|crash(?:ed)?|not ok|not allowed|illegal|unsupported|incompatible|overflow|deadlock|uncaught|unhandled|rejected|expected|unresolved|died|undefined|would reformat|would be reformatted|not formatted|needs formatting|conflicts?|issue(?=:))\b|[✖✗×✕❌]|\b(?:status|code)\s*[:=]?\s*[45]\d\d\b/i;
const HTTP_ERROR = /\bHTTP\/[\d.]+ [45]\d\d\b/i;

// Log prefixes: timestamps, `[12:00:01]`, `[pid 42]`, `(1234)`; then an optional level tag.
const LOG_PREFIX = /^\s*(?:(?:<time>|#\d+\s+\d+\.\d+(?=\s)|\[[^\]]{0,60}\d[^\]]{0,60}\]|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?|\(\d+\))\s*[:|-]?\s*)+/;
const LEVEL = /^\s*(?:\[\s*(ERROR|ERR|FATAL|CRIT(?:ICAL)?|SEVERE|PANIC|ALERT|EMERG|WARN(?:ING)?|INFO|DEBUG|TRACE|NOTICE|error|err|fatal|crit|alert|emerg|warn|notice|info|debug)\s*\]|(ERROR|FATAL|CRITICAL|SEVERE|PANIC|WARN(?:ING)?|INFO|DEBUG|TRACE|NOTICE)(?=[\s|])|\{.*?"(?:level|severity)"\s*:\s*"?(\w+)"?)\s*[:|-]?\s*/;

/**
 * Splits a log line into its level tag (upper-cased, or null) and the message after it. A JSON
 * log line (pino, bunyan, winston: one object a line) says its level in a field, by name or by
 * number (10 trace … 30 info, 40 warn, 50 error, 60 fatal).
 */
export function splitLogPrefix(text: string): { level: string | null; rest: string } {
  const noTime = text.replace(LOG_PREFIX, '');
  const m = LEVEL.exec(noTime);
  if (!m) return { level: null, rest: noTime };
  const tag = m[1] ?? m[2] ?? m[3]!;
  const n = Number(tag);
  const level = Number.isNaN(n) ? tag.toUpperCase() : n >= 60 ? 'FATAL' : n >= 50 ? 'ERROR' : n >= 40 ? 'WARN' : 'INFO';
  return { level, rest: noTime.slice(m[0].length) };
}

/** A pointer under a quoted line: `     ^`, `^~~~`, `-----------^`. */
export const POINTER_LINE = /^[-~=.\s]*\^[\^~\s]*$/;

/** A message under the spot it points at (`^ Tag must be paired … (tag-pair)`): a diagnostic. */
export const CARET_MESSAGE = /^\s*[\^~]+\s+(?=[\p{L}\p{N}])/u;

function scoreMessage(t: string): number {
  if (/^E\s{2,}\S/.test(t)) return SCORE_EXCEPTION;
  if (CARET_MESSAGE.test(t)) return Math.max(SCORE_LOCATED, scoreMessage(t.replace(CARET_MESSAGE, '')));
  if (matchesAny(WRAPPER_LINE, t)) return SCORE_WRAPPER;
  if (LOCATED_MINOR.test(t)) return /warn/i.test(t) ? SCORE_WARNING : SCORE_NOTE;
  if (NOTE.test(t) && !ERROR_WORD.test(t)) return SCORE_NOTE;
  if (matchesAny(STRONG_LINE, t)) return SCORE_STRONG;
  if (WARNING.test(t) && !ERROR_WORD.test(t)) return SCORE_WARNING;
  if (LOCATED.test(t) || DIAG_CODE_FIRST.test(t)) return SCORE_LOCATED;
  if (WEAK.test(withoutPaths(t)) || HTTP_ERROR.test(t) || CAMEL_ERROR.test(t)) return SCORE_WEAK;
  return 0;
}

/**
 * The line without its path-like tokens: a word in a path (`tests/expected/x.yml`,
 * `jobs/failed_uploads.py`) says nothing about whether the line reports an error.
 */
function withoutPaths(t: string): string {
  if (!t.includes('/')) return t;
  return t
    .split(/\s+/)
    .map((tok) => (tok.includes('/') ? '' : tok))
    .join(' ');
}

/** `NoMethodError`, `CompileError`: an error type name anywhere in the line (case-sensitive, linear). */
const CAMEL_ERROR = /[a-z](?:Error|Exception)\b/;

/** How strongly one non-noise line signals the failure (0: not at all). */
export function errorScore(text: string): number {
  const t = text.trim();
  const raw = scoreMessage(t);
  const { level, rest } = splitLogPrefix(t);
  if (level === null && rest === t) return raw;
  const s = Math.max(raw, scoreMessage(rest.trim()));
  if (level === null) return s;
  if (/^(?:ERROR|ERR|FATAL|CRIT|CRITICAL|SEVERE|PANIC|ALERT|EMERG)$/.test(level)) return Math.max(s, SCORE_WEAK);
  if (/^WARN/.test(level)) return SCORE_WARNING;
  return Math.min(s, 30);
}

/** `errorScore` of one line of `toLines`, computed once. */
export function lineScore(line: Line): number {
  return (line.score ??= errorScore(line.text));
}

/** True for generic "something above failed" lines. */
export function isWrapper(text: string): boolean {
  const t = splitLogPrefix(text.trim()).rest.trim();
  return matchesAny(WRAPPER_LINE, t);
}

export interface Diagnostic {
  file: string | null;
  severity: string | null;
  code: string | null;
  message: string;
}

const DIAG_PAREN = /^(\S+?)\((\d+)(?:,(\d+))?\):?\s*(fatal error|error|warning)\s*([A-Z]+\d+)?\s*:\s*(.*)$/i;
const DIAG_PRETTY = /^(\S+?):(\d+):(\d+)\s+-\s+(fatal error|error|warning)\s+([A-Z]+\d+)\s*:\s*(.*)$/i;
// (`file:9:16 rule` has no message after a colon: the `16` is not one.)
const DIAG_COLON = /^([^\s:]+):(\d+)(?:[:.](\d+))?(?:-\d+(?:\.\d+)?)?:(?![\d:-]+(?:\s|$))\s*(?:(fatal error|error|warning|note)\s*(?:\[([\w-]+)\]\s*:?|:)\s*)?(\S.*)$/i;
// (stylelint marks the severity with a glyph: `3:10  ✖  Invalid hex color "#fffff"  color-no-invalid-hex`)
const DIAG_STYLISH = /^\s*(\d+):(\d+)\s+(error|warning|✖|⚠)\s+(.+?)(?:\s{2,}([\w@/-]+))?$/;
// A severity and a rule after the position, no colon (markdownlint): `docs/a.md:6:18 error MD034/no-bare-urls Bare URL used`.
const DIAG_SEVERITY_RULE = /^([^\s:]+):(\d+)(?::\d+)?\s+(error|warning)\s+([\w@/-]+)\s+(\S.*)$/;
// (or a status glyph and a `plugin(rule):` id, the file in the box drawn under it: `✖ eslint(no-debugger): msg`
// over `╭─[src/cart.js:4:3]`, ASCII `,-[…]`; the glyph and the id are the format's, as a rule tag is)
const DIAG_RUST = /^(?:(error|warning)(?:\[([A-Z]?\d+)\])?:|✖(?:\s+[\w-]+\([\w@/.-]+\):)?)\s*(.*)$/;
// Lint/compiler code first, file on a following `-->` line (ruff, newer linters): `F401 [*] msg`.
const DIAG_CODE_FIRST = /^([A-Z]{1,5}\d{2,5})\s+(?:\[\*\]\s+)?(\S.*)$/;
const RUST_ARROW = /^\s*(?:-->|╭─\[|,-\[)\s*(\S+?):\d+(?::\d+)?\s*\]?\s*$/;

/** The file of a `--> file:line:col` pointer (rustc, ruff) or a box header `╭─[file:line:col]` right under a diagnostic. */
function arrowFile(lines: Line[], i: number): string | null {
  for (let j = i + 1; j < Math.min(lines.length, i + 4); j++) {
    const a = RUST_ARROW.exec(lines[j]!.text);
    if (a) return a[1]!;
  }
  return null;
}
const PATH_ONLY = /^\s*((?:[A-Za-z]:)?[\w.@+~\\/-]*[\w.@+~-]\.[A-Za-z]\w{0,9})\s*$/;

/**
 * Parses a compiler/linter diagnostic at `lines[i]` into parts, looking at neighbours for
 * the file when the tool prints it on its own line (eslint's stylish header, rustc's `-->`).
 */
export function parseDiagnostic(lines: Line[], i: number): Diagnostic | null {
  const t = lines[i]!.text.trim();
  let m = DIAG_PAREN.exec(t) ?? DIAG_PRETTY.exec(t);
  if (m) return { file: m[1]!, severity: m[4]!.toLowerCase(), code: m[5] ?? null, message: m[6]! };
  m = DIAG_RUST.exec(t);
  if (m) {
    const file = arrowFile(lines, i);
    // A glyph alone is a diagnostic only over the box naming its file (`✖ name (1ms)` is a test's status).
    if (m[1] !== undefined || file !== null) return { file, severity: m[1] ?? null, code: m[2] ?? null, message: m[3]! };
  }
  m = DIAG_CODE_FIRST.exec(t);
  if (m) return { file: arrowFile(lines, i), severity: null, code: m[1]!, message: m[2]! };
  m = DIAG_STYLISH.exec(lines[i]!.text);
  if (m) {
    return { file: headerFile(lines, i), severity: m[3] === '✖' ? 'error' : m[3] === '⚠' ? 'warning' : m[3]!, code: m[5] ?? null, message: m[4]! };
  }
  m = DIAG_SEVERITY_RULE.exec(t);
  if (m) return { file: m[1]!, severity: m[3]!, code: m[4]!, message: m[5]! };
  m = DIAG_COLON.exec(t);
  if (m && /[A-Za-z]/.test(m[1]!) && !/^(?:https?|file|node)$/.test(m[1]!)) {
    return { file: m[1]!, severity: m[4]?.toLowerCase() ?? null, code: m[5] ?? null, message: m[6]! };
  }
  return null;
}

/** The path-only line heading the paragraph that contains line i (eslint stylish, prettier). */
export function headerFile(lines: Line[], i: number): string | null {
  for (let j = i - 1; j >= 0 && j >= i - 200; j--) {
    const text = lines[j]!.text;
    if (text.trim() === '') return null;
    const p = PATH_ONLY.exec(text);
    if (p && /[\\/.]/.test(p[1]!)) return p[1]!;
  }
  return null;
}

/** Renders a diagnostic the same way whatever the tool's layout (`--pretty` or not). */
export function renderDiagnostic(d: Diagnostic): string {
  const head = d.file ? `${basename(d.file)}: ` : '';
  // Error codes (TS2345, E0308, CS0103) sit with the severity; a rule name (no-unused-vars, semi)
  // is left out: whether a linter prints it is a choice of its format, as for a rule tag.
  const isCode = d.code !== null && /^[A-Z]{0,5}\d+$/.test(d.code);
  const sev = d.severity ? `${d.severity}${isCode ? ` ${d.code}` : ''}: ` : isCode ? `${d.code}: ` : '';
  return `${head}${sev}${d.message}`;
}

function indentOf(text: string): number {
  const m = /^[ \t]*/.exec(text);
  return m ? m[0].length : 0;
}

const TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;
const CHAINED = /^\s*(?:During handling of the above exception|The above exception was the direct cause)/;

/** True when line i opens a Python traceback. */
export function isTracebackStart(text: string): boolean {
  return TRACEBACK.test(text);
}

/**
 * Index of the exception line that closes the traceback starting at `start` (following
 * chained tracebacks to the last one), or -1. Frames and source lines are indented;
 * the exception is the first non-indented, non-blank line after them.
 */
export function tracebackException(lines: Line[], start: number): number {
  let i = start + 1;
  const limit = Math.min(lines.length, start + 2000);
  // A traceback quoted inside another report (doctest `Exception raised:`, captured logs)
  // is indented as a whole: its exception line has the header's indentation.
  const indent = indentOf(lines[start]!.text);
  while (i < limit) {
    const text = lines[i]!.text;
    if (text.trim() === '' || indentOf(text) > indent || POINTER_LINE.test(text)) {
      i++;
      continue;
    }
    // The exception line. A chained traceback may follow.
    let j = i + 1;
    while (j < limit && lines[j]!.text.trim() === '') j++;
    if (j < limit && CHAINED.test(lines[j]!.text)) {
      let k = j + 1;
      while (k < limit && !TRACEBACK.test(lines[k]!.text)) k++;
      if (k < limit) {
        const next = tracebackException(lines, k);
        if (next >= 0) return next;
      }
    }
    return i;
  }
  return -1;
}
