/**
 * A streamed scan of a whole output in bounded memory: the lines a fingerprint can come
 * from, whatever the output's length.
 *
 * Kept: the first HEAD_LINES lines (failures are usually reported early), the last
 * TAIL_LINES (summaries, the last exception, the final wrapper error; at most TAIL_CHARS),
 * and up to WINDOWS windows around the strongest error lines of the middle (the first
 * error of a spec can sit in the middle of a 1 GB log): BEFORE lines above each, AFTER
 * below. A window is replaced only by a stronger one, so the earliest of the strongest
 * lines stays. Segments that are not contiguous are separated by a blank line, so no
 * block (a test's failure, a stack) is read across a gap. Line numbers stay those of the
 * whole output.
 *
 * Memory: O(HEAD_LINES + TAIL_CHARS + WINDOWS × (BEFORE + AFTER)) lines of at most
 * MAX_LINE_CHARS after clean-up; a line without a newline is read up to MAX_RAW_LINE_CHARS
 * and the rest skipped. Time: linear; a middle line costs one cheap test unless it
 * carries an error word.
 */
import { StringDecoder } from 'node:string_decoder';
import { HEAD_LINES, MAX_LINE_CHARS, MAX_RAW_LINE_CHARS, TAIL_LINES, clean, flat, markExcerpts, markStacks, type Line } from './lines.js';
import { classifyLine } from './noise.js';
import { SCORE_WEAK, errorScore } from './signals.js';
import { fingerprintLines } from './fingerprint.js';

/** Raw characters the tail keeps at most (a tail of 2000 huge lines must not cost gigabytes). */
export const TAIL_CHARS = 4 * 1024 * 1024;
const WINDOWS = 16;
const BEFORE = 8;
const AFTER = 40;
/** Cheap pre-test for a middle line: only lines passing it are cleaned and scored. */
const MAYBE_ERROR = /err|fail|fatal|panic|exception|cannot|can't|could not|not found|denied|invalid|undefined|abort|assert|✖|✗|✘|×|❌/i;

interface Window {
  score: number;
  lines: Line[];
  /** Lines still to add below the error line. */
  open: number;
}

export class OutputScanner {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private skipping = false;
  private count = 0;
  private readonly head: Line[] = [];
  private tail: Array<{ raw: string; no: number }> = [];
  private tailStart = 0;
  private tailChars = 0;
  private readonly recent: Array<{ raw: string; no: number }> = [];
  private readonly windows: Window[] = [];

  /** Adds a chunk of output (bytes are decoded as UTF-8 across chunk boundaries). */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk as Buffer);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        this.append(text.slice(start));
        return;
      }
      this.append(text.slice(start, nl));
      this.line(this.partial);
      this.partial = '';
      this.skipping = false;
      start = nl + 1;
    }
  }

  /** The kept lines, cleaned, stacks marked. Ends the scan (a last line without `\n` counts). */
  lines(): Line[] {
    const rest = this.decoder.end();
    if (rest) this.append(rest);
    if (this.partial !== '') {
      this.line(this.partial);
      this.partial = '';
    }
    const out: Line[] = [...this.head];
    const tail = this.tail.slice(this.tailStart);
    const firstTail = tail.length > 0 ? tail[0]!.no : Infinity;
    const middle = new Map<number, Line>();
    for (const w of this.windows) for (const l of w.lines) if (l.no > this.head.length && l.no < firstTail) middle.set(l.no, l);
    const gap = (next: number) => {
      const last = out[out.length - 1];
      if (last && next > last.no + 1) out.push({ text: '', no: last.no + 1 });
    };
    for (const no of [...middle.keys()].sort((a, b) => a - b)) {
      gap(no);
      out.push(middle.get(no)!);
    }
    for (const t of tail) {
      if (t.no <= this.head.length) continue;
      gap(t.no);
      out.push({ text: clean(t.raw), no: t.no });
    }
    return markExcerpts(markStacks(out));
  }

  private append(piece: string): void {
    if (this.skipping || piece === '') return;
    if (this.partial.length + piece.length > MAX_RAW_LINE_CHARS) {
      this.partial = flat(this.partial + piece.slice(0, MAX_RAW_LINE_CHARS - this.partial.length));
      this.skipping = true;
    } else {
      this.partial += piece;
    }
  }

  private line(raw: string): void {
    const no = ++this.count;
    // A live display moves the cursor up over what it drew (`ESC[1A` + erase, test runners'
    // and build tools' progress panels) and draws anew: the lines it went back over are gone
    // from what the terminal finally shows, like a `\r` redraw of one line.
    if (raw.includes('\u001b[')) this.erase(cursorUps(raw));
    if (no <= HEAD_LINES) {
      this.head.push({ text: clean(raw), no });
      return;
    }
    for (const w of this.windows) {
      if (w.open > 0) {
        w.lines.push({ text: clean(raw), no });
        w.open--;
      }
    }
    if (MAYBE_ERROR.test(raw)) this.consider(raw, no);
    // A long line is copied once: kept as a slice, it would keep its whole chunk alive.
    const kept = raw.length > MAX_LINE_CHARS ? flat(raw) : raw;
    this.recent.push({ raw: kept, no });
    if (this.recent.length > BEFORE) this.recent.shift();
    this.tail.push({ raw: kept, no });
    this.tailChars += raw.length;
    while (this.tail.length - this.tailStart > TAIL_LINES || (this.tailChars > TAIL_CHARS && this.tail.length - this.tailStart > 1)) {
      this.tailChars -= this.tail[this.tailStart]!.raw.length;
      this.tailStart++;
    }
    // Compact the tail array now and then (amortised O(1) per line).
    if (this.tailStart > TAIL_LINES) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }

  /** Drops the last `n` kept lines (redrawn over by a cursor moving up). */
  private erase(n: number): void {
    for (let k = 0; k < n; k++) {
      if (this.tail.length > this.tailStart) {
        const gone = this.tail.pop()!;
        this.tailChars -= gone.raw.length;
        if (this.recent.length > 0 && this.recent[this.recent.length - 1]!.no === gone.no) this.recent.pop();
      } else if (this.head.length > 0 && this.count - 1 - k <= HEAD_LINES) {
        this.head.pop();
      } else return;
    }
  }

  /** Opens a window around a middle line that reads as an error, if it is among the strongest. */
  private consider(raw: string, no: number): void {
    const text = clean(raw);
    if (classifyLine(text) !== 'text') return;
    const score = errorScore(text);
    if (score < SCORE_WEAK) return;
    if (this.windows.length >= WINDOWS) {
      let weakest = -1;
      for (let k = this.windows.length - 1; k >= 0; k--) {
        if (this.windows[k]!.score < score && (weakest < 0 || this.windows[k]!.score < this.windows[weakest]!.score)) weakest = k;
      }
      if (weakest < 0) return;
      this.windows.splice(weakest, 1);
    }
    const before = this.recent.map((r) => ({ text: clean(r.raw), no: r.no }));
    this.windows.push({ score, lines: [...before, { text, no }], open: AFTER });
  }
}

/** How many lines a raw line moves the cursor up (`ESC[A`, `ESC[1A`, `ESC[3A`), bounded. */
function cursorUps(raw: string): number {
  let n = 0;
  for (let i = raw.indexOf('\u001b['); i >= 0 && n < MAX_UPS; i = raw.indexOf('\u001b[', i + 2)) {
    let j = i + 2;
    while (j < raw.length && j - i < 8 && raw.charCodeAt(j) >= 48 && raw.charCodeAt(j) <= 57) j++;
    if (raw[j] === 'A') n += j > i + 2 ? Number(raw.slice(i + 2, j)) : 1;
  }
  return Math.min(n, MAX_UPS);
}
const MAX_UPS = 200;

/**
 * Splits output into cleaned lines: all of them when it is short, else what the scan
 * keeps (head, tail and the windows around the strongest errors of the middle).
 */
export function toLines(output: string): Line[] {
  const scanner = new OutputScanner();
  scanner.push(output);
  return scanner.lines();
}

/**
 * A scan to feed a check's output to as it streams; `result` fingerprints what it kept
 * (the verify's hook: src/engine/deps.ts `scanOutput`).
 */
export function scanForFingerprint(): {
  push(chunk: Uint8Array | string): void;
  result(options: { exitCode: number | null }): { fingerprint: string; failing_units: string[] };
} {
  const scanner = new OutputScanner();
  return {
    push: (chunk) => scanner.push(chunk),
    result: (options) => {
      const r = fingerprintLines(scanner.lines(), options);
      return { fingerprint: r.fingerprint, failing_units: r.failing_units };
    },
  };
}
