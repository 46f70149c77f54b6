import { createReadStream } from 'node:fs';
// fs.promises, not node:fs/promises: the latter loads at start-up (~3 ms, readline and fs.watch
// come with it) in every command that bundles this file; the getter loads it on first use.
import { promises as fsp } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Check } from '../plan/model.js';

export type FileCheck = Extract<Check, { kind: 'file_exists' | 'contains_text' | 'min_lines' }>;

export interface FileCheckOutcome {
  passed: boolean;
  /** Empty when passed; otherwise a short explanation such as `src/a.ts: no such file`. */
  message: string;
}

export function isFileCheck(check: Check): check is FileCheck {
  return check.kind === 'file_exists' || check.kind === 'contains_text' || check.kind === 'min_lines';
}

/** True when `path` is `root` or below it (both absolute, normalized). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

type Located = { ok: true; abs: string } | { ok: false; message: string };

/**
 * Resolves a check path against the project root, refusing anything that escapes it:
 * lexically (`../x`, `/etc/passwd`) or through a symlink. Escaping paths are never
 * read or even stat'ed beyond the link itself.
 */
async function locate(root: string, path: string): Promise<Located> {
  if (path.trim() === '') return { ok: false, message: '(empty path): no path given' };
  const rootAbs = resolve(root);
  const abs = resolve(rootAbs, path);
  if (!isInside(rootAbs, abs)) return { ok: false, message: `${path}: outside the project root; not read` };
  const realRoot = await fsp.realpath(rootAbs).catch(() => rootAbs);
  let real: string;
  try {
    real = await fsp.realpath(abs);
  } catch (err) {
    return { ok: false, message: `${path}: ${describeFsError(err)}` };
  }
  if (!isInside(realRoot, real)) {
    return { ok: false, message: `${path}: resolves outside the project root (symlink); not read` };
  }
  return { ok: true, abs: real };
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return `cannot read (${code ?? String(err)})`;
}

/** Runs a file check (no process). Never throws. */
export async function runFileCheck(check: FileCheck, root: string): Promise<FileCheckOutcome> {
  const where = await locate(root, check.path);
  if (!where.ok) return { passed: false, message: where.message };
  let isDirectory: boolean;
  try {
    isDirectory = (await fsp.stat(where.abs)).isDirectory();
  } catch (err) {
    return { passed: false, message: `${check.path}: ${describeFsError(err)}` };
  }
  if (check.kind === 'file_exists') return { passed: true, message: '' };
  if (isDirectory) return { passed: false, message: `${check.path}: is a directory, not a file` };
  try {
    if (check.kind === 'contains_text') {
      if (await fileContains(where.abs, check.text)) return { passed: true, message: '' };
      return { passed: false, message: `${check.path}: does not contain ${quoteForMessage(check.text)}` };
    }
    const lines = await countLines(where.abs);
    if (lines >= check.min_lines) return { passed: true, message: '' };
    return {
      passed: false,
      message: `${check.path}: ${lines} line${lines === 1 ? '' : 's'}, expected at least ${check.min_lines}`,
    };
  } catch (err) {
    return { passed: false, message: `${check.path}: ${describeFsError(err)}` };
  }
}

function quoteForMessage(text: string): string {
  const shown = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return JSON.stringify(shown);
}

/** Literal (not regex) search, streamed so a large file is never held in memory whole. */
export async function fileContains(path: string, text: string): Promise<boolean> {
  const needle = Buffer.from(text, 'utf8');
  if (needle.length === 0) return true;
  const keep = needle.length - 1;
  let carry: Buffer = Buffer.alloc(0);
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const window: Buffer = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      if (window.indexOf(needle) !== -1) return true;
      carry = keep > 0 ? Buffer.from(window.subarray(Math.max(0, window.length - keep))) : Buffer.alloc(0);
    }
    return false;
  } finally {
    stream.destroy();
  }
}

/** Lines as an editor counts them: newline-terminated lines plus a final unterminated one. */
export async function countLines(path: string): Promise<number> {
  let newlines = 0;
  let last = -1;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let i = chunk.indexOf(10);
    while (i !== -1) {
      newlines++;
      i = chunk.indexOf(10, i + 1);
    }
    if (chunk.length > 0) last = chunk[chunk.length - 1] as number;
  }
  return newlines + (last !== -1 && last !== 10 ? 1 : 0);
}
