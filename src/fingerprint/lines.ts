/**
 * Turns raw verification output into clean, numbered lines: terminal escapes removed,
 * `\r` progress redraws collapsed to what the terminal finally showed, and the input
 * bounded so a multi-megabyte log costs a linear pass over a fixed number of lines.
 */

/** One line of cleaned output with its 1-based line number in the original input. */
export interface Line {
  text: string;
  no: number;
}

/** Lines inspected from the start of a huge output (failures are usually reported early)... */
export const HEAD_LINES = 5000;
/** ...and from its end (summaries, the last exception, the final wrapper error). */
export const TAIL_LINES = 2000;
/** Longer lines are cut: minified bundles or JSON blobs must not cost quadratic regex time. */
export const MAX_LINE_CHARS = 2000;

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

const PID_PREFIX = /^(?:==\d{1,10}==|--\d{1,10}--|\*\*\d{1,10}\*\*) ?/;

// Erase-line and cursor-to-column escapes redraw the line in place, like `\r` (spinners).
const REDRAW = /\u001b\[(?:2K|1?G)/g;

function clean(raw: string): string {
  let s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (s.length > MAX_LINE_CHARS * 2) s = s.slice(0, MAX_LINE_CHARS * 2);
  if (s.includes('\u001b[')) s = s.replace(REDRAW, '\r');
  s = stripAnsi(lastRedraw(s));
  if (s.length > MAX_LINE_CHARS) s = s.slice(0, MAX_LINE_CHARS);
  // Box-drawn diagnostics (terraform, some CLIs) prefix every line with `│ `.
  s = s.replace(/^([╷╵]\s*$|│ ?)/, '');
  // Memory checkers prefix every line with the pid: valgrind `==123== `, `--123-- `,
  // `**123** `; sanitizers `==123==ERROR: …`. The prefix carries nothing but the pid.
  s = s.replace(PID_PREFIX, '');
  return s.replace(/\s+$/, '');
}

/**
 * Splits output into cleaned lines. Outputs longer than HEAD_LINES + TAIL_LINES keep only
 * their head and tail (line numbers still refer to the original input).
 */
export function toLines(output: string): Line[] {
  const raw = output.split('\n');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  const out: Line[] = [];
  const n = raw.length;
  if (n <= HEAD_LINES + TAIL_LINES) {
    for (let i = 0; i < n; i++) out.push({ text: clean(raw[i]!), no: i + 1 });
    return out;
  }
  for (let i = 0; i < HEAD_LINES; i++) out.push({ text: clean(raw[i]!), no: i + 1 });
  for (let i = n - TAIL_LINES; i < n; i++) out.push({ text: clean(raw[i]!), no: i + 1 });
  return out;
}
