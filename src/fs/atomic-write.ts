import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, statSync, chmodSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { processAlive } from './process-alive.js';

/** The file changed (someone else wrote it) between our read and our rename; nothing was written. */
export class ConcurrentChangeError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`${path} changed while it was being updated`);
    this.name = 'ConcurrentChangeError';
    this.path = path;
  }
}

/**
 * Writes a file so that readers (and a crash at any point) see either the old or
 * the new content, never a partial one: write a temp file beside it, fsync, rename.
 * Keeps the old file's mode when it exists, unless `options.mode` is given: that mode is
 * set before the rename, so content and mode change together.
 * `unchangedFrom` (compare-and-swap for read-modify-write of a file others edit, e.g. an
 * editor saving SUMMARY.md): the content the new data was computed from (null: the file did
 * not exist); re-read just before the rename, and when it differs the temp file is removed
 * and ConcurrentChangeError thrown, so another writer's update is never overwritten.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number; unchangedFrom?: string | null } = {}): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let mode: number | undefined = options.mode;
  if (mode === undefined) {
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      mode = undefined;
    }
  }
  const fd = openSync(tmp, 'w', mode ?? 0o644);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    // A failed write (ENOSPC, EIO) carries no path: name the file being written.
    if (err && typeof err === 'object' && (err as NodeJS.ErrnoException).path === undefined) (err as NodeJS.ErrnoException).path = path;
    throw err;
  }
  closeSync(fd);
  try {
    if (mode !== undefined) chmodSync(tmp, mode);
    if (options.unchangedFrom !== undefined && !sameContent(path, options.unchangedFrom)) throw new ConcurrentChangeError(path);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  removeStaleTemps(dirname(path), basename(path));
}

function sameContent(path: string, expected: string | null): boolean {
  let current: Buffer;
  try {
    current = readFileSync(path);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && expected === null;
  }
  return expected !== null && current.equals(Buffer.from(expected, 'utf8'));
}

/**
 * A writer killed between open and rename leaves its temp file behind; the next successful
 * write of the same target removes it. Only temps of dead processes that are also old: a
 * writer in another PID namespace (a container sharing the directory) looks dead to us,
 * but its temp lives for milliseconds.
 */
const STALE_TEMP_MS = 30_000;

function removeStaleTemps(dir: string, name: string): void {
  try {
    const now = Date.now();
    for (const temp of deadWriterTemps(dir, name)) {
      if (now - statSync(temp).mtimeMs > STALE_TEMP_MS) rmSync(temp, { force: true });
    }
  } catch {
    /* best effort: the write itself succeeded */
  }
}

/** `.<name>.<pid>.<time>.tmp`: the temp file `writeFileAtomic` writes beside `<name>`. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-z]+\.tmp$/;

/**
 * Temp files in `dir` left by `writeFileAtomic` calls whose process died before the rename
 * (kill -9, Ctrl-C): for the target `name`, or for any name when it is omitted. A temp of a
 * live process is never listed (it may be about to be renamed).
 */
export function deadWriterTemps(dir: string, name?: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => {
      const m = TEMP_NAME.exec(n);
      return m !== null && (name === undefined || m[1] === name) && !processAlive(Number(m[2]));
    })
    .sort()
    .map((n) => join(dir, n));
}
