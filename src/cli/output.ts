import { writeSync } from 'node:fs';

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
 * it in order; a reader that went away (EPIPE) is not an error of ours.
 */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        stdoutStream().write(bytes.subarray(offset));
        return;
      }
      if (code === 'EPIPE') return;
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

const useColor = (stream: NodeJS.WriteStream) => stream.isTTY === true && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';

/** Minimal ANSI styling, only on a TTY and never with NO_COLOR. */
export function style(stream?: NodeJS.WriteStream) {
  const on = useColor(stream ?? stdoutStream());
  const wrap = (open: number, close: number) => (s: string) => (on ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/** Renders rows as an aligned plain-text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
