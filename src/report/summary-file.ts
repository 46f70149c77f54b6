/**
 * Where a plan's SUMMARY.md is, and reading it as text only when it really is UTF-8
 * text: the report splices the file, so binary or mis-encoded content is refused untouched.
 */
import { readRegularFile } from '../fs/read-regular-file.js';
import { basename, dirname, join } from 'node:path';
import { RalfError } from '../errors.js';

/** `01-02-PLAN.md` → `01-02-SUMMARY.md` beside it (same stem, as GSD names them). */
export function summaryPathFor(planPath: string): string {
  const name = basename(planPath);
  const stem = /-PLAN\.md$/i.test(name) ? name.replace(/-PLAN\.md$/i, '') : /^PLAN\.md$/i.test(name) ? '' : name.replace(/\.md$/i, '');
  return join(dirname(planPath), stem ? `${stem}-SUMMARY.md` : 'SUMMARY.md');
}

export { firstInvalidUtf8 } from '../fs/utf8.js';
import { firstInvalidUtf8 } from '../fs/utf8.js';

function lineOfByte(buf: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 0x0a) line++;
  return line;
}

/**
 * The largest SUMMARY.md the report edits. GSD summaries are a few KB (the largest of 28
 * real ones is 90 KB); parsing Markdown costs about 1 GB of memory and seconds per MB, so a
 * larger file (pasted logs, a wrong --summary) is refused rather than left to exhaust memory.
 */
export const MAX_SUMMARY_BYTES = 1024 * 1024;

/**
 * Reads a SUMMARY.md as a string that re-encodes to the same bytes (a BOM is kept as
 * U+FEFF). Returns null when the file does not exist.
 */
export function readSummaryText(path: string): string | null {
  let buf: Buffer | null;
  try {
    // One descriptor, opened non-blocking and fstat'ed (a FIFO or device is refused, never read;
    // a path swapped to a FIFO after a stat would hang a plain read).
    buf = readRegularFile(path, { maxBytes: MAX_SUMMARY_BYTES, what: 'SUMMARY file', kind: 'summary_invalid' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
  if (buf === null) return null;
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    throw new RalfError('summary_invalid', `${path} looks binary (it contains a NUL byte); it was not changed`, {
      problems: [{ file: path, line: lineOfByte(buf, nul), message: `NUL byte at byte offset ${nul}`, hint: 'point --summary at the Markdown SUMMARY file' }],
    });
  }
  const bad = firstInvalidUtf8(buf);
  if (bad !== -1) {
    throw new RalfError('summary_invalid', `${path} is not valid UTF-8; it was not changed`, {
      problems: [{ file: path, line: lineOfByte(buf, bad), message: `invalid UTF-8 at byte offset ${bad}`, hint: 're-save the file as UTF-8' }],
    });
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf);
}

/** GSD's title for a summary: `01-02` → `# Phase 01 Plan 02: <name> Summary`. */
export function minimalSummary(planId: string, name: string | null): string {
  const m = /^(.+?)-(\d+.*)$/.exec(planId);
  const title = m ? `Phase ${m[1]} Plan ${m[2]}` : `Plan ${planId}`;
  return `# ${title}${name ? `: ${name}` : ''} Summary\n`;
}
