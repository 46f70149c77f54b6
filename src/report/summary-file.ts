/**
 * Where a plan's SUMMARY.md is, and reading it as text only when it really is UTF-8
 * text: the report splices the file, so binary or mis-encoded content is refused untouched.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RalfError } from '../errors.js';

/** `01-02-PLAN.md` → `01-02-SUMMARY.md` beside it (same stem, as GSD names them). */
export function summaryPathFor(planPath: string): string {
  const name = basename(planPath);
  const stem = /-PLAN\.md$/i.test(name) ? name.replace(/-PLAN\.md$/i, '') : /^PLAN\.md$/i.test(name) ? '' : name.replace(/\.md$/i, '');
  return join(dirname(planPath), stem ? `${stem}-SUMMARY.md` : 'SUMMARY.md');
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= buf.length) return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function lineOfByte(buf: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 0x0a) line++;
  return line;
}

/**
 * Reads a SUMMARY.md as a string that re-encodes to the same bytes (a BOM is kept as
 * U+FEFF). Returns null when the file does not exist.
 */
export function readSummaryText(path: string): string | null {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw new RalfError('summary_invalid', `${path} is a directory, not a SUMMARY.md file`, { problems: [{ file: path, message: 'is a directory' }] });
    throw err;
  }
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
