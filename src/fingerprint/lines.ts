/**
 * Line clean-up: terminal escapes removed, `\r` progress redraws collapsed to what the
 * terminal finally showed, run-specific prefixes dropped, stacks under a header marked.
 * (scan.ts reads a whole output into such lines in bounded memory.)
 */
import { classifyLine } from './noise.js';

/** One line of cleaned output with its 1-based line number in the original input. */
export interface Line {
  text: string;
  no: number;
  /** A frame of a stack printed under a header (`stack traceback:`, `stacktrace:`, `Stack trace:`). */
  frame?: true;
  /** Memo of `lineKind` (noise.ts). */
  kind?: string;
  /** Memo of `lineScore` (signals.ts). */
  score?: number;
}

/** Lines inspected from the start of a huge output (failures are usually reported early)... */
export const HEAD_LINES = 5000;
/** ...and from its end (summaries, the last exception, the final wrapper error). */
export const TAIL_LINES = 2000;
/** Longer lines are cut: minified bundles or JSON blobs must not cost quadratic regex time. */
export const MAX_LINE_CHARS = 2000;

/** Raw characters of one line looked at (escapes included). */
export const MAX_RAW_LINE_CHARS = 32 * MAX_LINE_CHARS;

// CSI (ESC [ ... final), OSC (ESC ] ... BEL | ESC \), charset designations (ESC ( B, which
// terminfo's sgr0 emits: rustfmt, tput), other two-byte escapes, 8-bit CSI.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[()*+][0-9A-Za-z]|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// Control characters other than tab (after escapes are gone).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Removes ANSI/OSC escape sequences and stray control characters. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '');
}

/** What a terminal shows for a line redrawn with `\r`: the last non-empty segment. */
function lastRedraw(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i]!.trim() !== '') return parts[i]!;
  }
  return '';
}

// A date with a clock time, anywhere in a line (log prefixes, CI logs, messages): it differs on
// every run and its `:` must never read as a `file:line` position.
const DATE_TIME = /\b\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w])/g;

/**
 * Fallbacks of status glyphs (`×` for `✖`), and `i ` for `ℹ `, `x ` for `✖ ` as the first word of
 * an indented line (`  x eslint(no-debugger): …` where a terminal with colour shows `×`), and a
 * status word in parentheses opening a line (`(fail) total [0.37ms]` where colour shows `✗ total`).
 */
const GLYPHS: Record<string, string> = { '×': '✖', '√': '✔', '‼': '⚠', i: 'ℹ', x: '✖', '(fail)': '✗', '(pass)': '✓' };
const ASCII_GLYPH = /[×√‼]|^(\s+)(?:i(?= \S)|x(?= [A-Za-z]))|^(\s*)\((?:fail|pass)\)(?= \S)/g;
const ASCII_GLYPH_HINT = /[×√‼]|^\s+[ix] |^\s*\((?:fail|pass)\) /;

const TRAILING_RULE = /(?<=\S)\s+[━─═]{4,}\s*$/;

const PID_PREFIX = /^(?:==\d{1,10}==|--\d{1,10}--|\*\*\d{1,10}\*\*) ?/;

// Erase-line and cursor-to-column escapes redraw the line in place, like `\r` (spinners).
const REDRAW = /\u001b\[(?:2K|1?G)/g;

/** One raw line as the fingerprint reads it: escapes, redraws, pid prefixes and timestamps gone. */
export function clean(raw: string): string {
  let s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  // Escapes first, then the cut: with one colour escape per character (biome, rolldown) the
  // visible text is a tenth of the raw line.
  if (s.length > MAX_RAW_LINE_CHARS) s = s.slice(0, MAX_RAW_LINE_CHARS);
  if (s.includes('\u001b[')) s = s.replace(REDRAW, '\r');
  s = stripAnsi(lastRedraw(s));
  if (s.length > MAX_LINE_CHARS) s = s.slice(0, MAX_LINE_CHARS);
  // Box-drawn diagnostics (terraform, some CLIs) prefix every line with `│ `.
  s = s.replace(/^([╷╵]\s*$|│ ?)/, '');
  // Memory checkers prefix every line with the pid: valgrind `==123== `, `--123-- `,
  // `**123** `; sanitizers `==123==ERROR: …`. The prefix carries nothing but the pid.
  s = s.replace(PID_PREFIX, '');
  // Terminals without Unicode get ASCII fallbacks of the same status glyphs (the `figures`
  // convention): one glyph per meaning, so colour or a TTY does not change the line.
  if (ASCII_GLYPH_HINT.test(s)) s = s.replace(ASCII_GLYPH, (g, indent?: string, lead?: string) => (indent === undefined && lead === undefined ? GLYPHS[g]! : `${indent ?? lead}${GLYPHS[g.trim()]!}`));
  // A rule drawn after a header (`src/a.js:9:16 lint/x  FIXABLE  ━━━━━━━━`) is decoration.
  if (/[━─═]{4}/.test(s)) s = s.replace(TRAILING_RULE, '');
  if (/\d{4}[-/]\d\d[-/]\d\d[T ]\d/.test(s)) s = s.replace(DATE_TIME, '<time>');
  s = s.trimEnd();
  // A short piece cut from a huge line would keep the whole line alive (V8 slices share it).
  return raw.length > MAX_LINE_CHARS ? flat(s) : s;
}

/** A copy of `s` that does not share the memory of the string it was sliced from. */
export function flat(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}

/**
 * A header that introduces a stack: `stack traceback:`, `stacktrace:`, `Stack trace:`, `CallStack (from …):`,
 * `Call history:`; or the quoted source of TAP's YAML diagnostics (`source: |`): code, never the message.
 */
const STACK_HEADER = /^\s*(?:stack ?trace(?:back)?|call ?(?:stack|history)|backtrace|source)\b[^:]{0,40}:\s*\|?$/i;

/** Leading whitespace of a line, in characters. */
export function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Marks the frames of every stack printed under a header: the lines after it that are
 * indented deeper than the header (as deep as an indented header when a blank line sets them
 * apart), or that start like a frame list (`#0 …`). Whatever the
 * language prints in a frame (`./config.lua:4: in function 'load'`, `test/x.exs:8: (test)`),
 * it says where the error went through, never what it is.
 */
export function markStacks(lines: Line[]): Line[] {
  for (let i = 0; i < lines.length; i++) {
    if (!STACK_HEADER.test(lines[i]!.text)) continue;
    const indent = indentOf(lines[i]!.text);
    let j = i + 1;
    // A blank line may separate the header from its frames, which then are a block of their own
    // and may sit as deep as an indented header (CHICKEN's `\tCall history:`, blank, `\t<eval> …`).
    while (j < lines.length && lines[j]!.text.trim() === '') j++;
    const min = j > i + 1 && indent > 0 ? indent : indent + 1;
    for (; j < lines.length; j++) {
      const t = lines[j]!.text;
      if (t.trim() === '' || !(indentOf(t) >= min || /^\s*#\d+\s/.test(t))) break;
      lines[j]!.frame = true;
    }
    i = j - 1;
  }
  return lines;
}

/** A row of two or more pointer bars and nothing else (`            |     |      |`). */
const POINTER_ROW = /^\s*\|(?:\s+\|)+\s*$/;

/** A line that starts with a number and a space (`6   color: @brand-colr;`). */
const NUMBERED = /^\s*(\d{1,6})(?: |$)/;

/**
 * Marks source excerpts printed without a gutter bar (lessc: `5 .card {`, `6   color: x;`):
 * two or more lines in a row whose leading numbers count up by one are numbered source lines,
 * code and not messages, whatever the code says.
 */
export function markExcerpts(lines: Line[]): Line[] {
  let prev: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    // A row under a row of pointers (`|     |      |` over `1199  |      false`) is the values of
    // a diagram (power asserts), not a numbered source line with its gutter.
    if (i > 0 && lines[i - 1]!.text.includes('|') && POINTER_ROW.test(lines[i - 1]!.text) && classifyLine(lines[i]!.text) === 'code') {
      lines[i]!.kind = 'text';
      prev = null;
      continue;
    }
    const m = NUMBERED.exec(lines[i]!.text);
    const n = m ? Number(m[1]) : null;
    if (n !== null && prev === n - 1 && lines[i - 1]!.no === lines[i]!.no - 1) {
      lines[i - 1]!.kind = 'code';
      lines[i]!.kind = 'code';
    }
    prev = n;
  }
  return lines;
}
