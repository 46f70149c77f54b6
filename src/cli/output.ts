import { fstatSync, statSync, writeSync } from 'node:fs';

/** Writes one JSON document (agents parse stdout). */
export function printJson(value: unknown): void {
  writeStdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes human-readable text. */
export function printText(text: string): void {
  writeStdout(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Writes straight to file descriptor 1. Touching `process.stdout` constructs a stream (a
 * socket for a pipe: ~2.5 ms of start-up) and ralf prints one document per call. A
 * non-blocking pipe that is full (EAGAIN) hands the rest to process.stdout, which queues
 * it in order; a reader that went away (EPIPE) or a closed stdout is not an error of ours.
 */
export function writeStdout(text: string): void {
  writeFd(1, text);
}

/** Writes to file descriptor 2, like writeStdout. */
export function writeStderr(text: string): void {
  writeFd(2, text);
}

function writeFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        (fd === 1 ? stdoutStream() : process.stderr).write(bytes.subarray(offset));
        return;
      }
      if (code === 'EPIPE' || code === 'EBADF') return; // the reader left, or the fd was closed (`>&-`)
      throw err;
    }
  }
}

let guarded = false;

/** process.stdout for streaming writers, with `ralf ... | head` (EPIPE) treated as the reader's choice. */
export function stdoutStream(): NodeJS.WriteStream {
  if (!guarded) {
    guarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  return process.stdout;
}

/**
 * Whether fd is a terminal, without constructing process.stdout/stderr (or loading node:tty,
 * which loads net): a character device other than /dev/null.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    return st.isCharacterDevice() && st.rdev !== statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

const colorOn: Partial<Record<1 | 2, boolean>> = {};

/** Minimal ANSI styling, only on a terminal and never with NO_COLOR or TERM=dumb. */
export function style(fd: 1 | 2 = 1) {
  const on = (colorOn[fd] ??= isTerminal(fd) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb');
  const wrap = (open: number, close: number) => (s: string) => (on ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/** Renders rows as an aligned plain-text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
