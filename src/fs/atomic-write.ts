import { chmodSync, closeSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
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
    if (options.unchangedFrom !== undefined) swapIfUnchanged(tmp, path, options.unchangedFrom);
    else renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  removeStaleTemps(dirname(path), basename(path));
}

/**
 * Compare-and-swap without an atomic primitive (POSIX has no compare-and-rename). The file
 * being replaced is first hard-linked aside, so its inode stays reachable: an editor that
 * saves in place (truncate and write, as most do) between our comparison and our rename, or
 * still writing after it, writes into that inode. After the rename the aside copy is compared
 * again; if it moved on, the user's inode is renamed back over ours (their save wins, ours is
 * refused). What is left unguarded is a writer that replaces the file by its own rename in the
 * two syscalls between our link and our rename.
 */
function swapIfUnchanged(tmp: string, path: string, expected: string | null): void {
  const aside = tmp.replace(/\.tmp$/, '.old.tmp');
  let linked = false;
  try {
    linkSync(path, aside);
    linked = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOENT: nothing to keep aside (the comparison below says whether that was expected);
    // a filesystem without hard links falls back to compare-then-rename.
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV' && code !== 'EMLINK') throw err;
  }
  try {
    if (!sameContent(linked ? aside : path, expected)) throw new ConcurrentChangeError(path);
    renameSync(tmp, path);
    if (linked && !sameContent(aside, expected)) {
      // The in-place save landed while we swapped: put the user's file back.
      renameSync(aside, path);
      linked = false;
      throw new ConcurrentChangeError(path);
    }
  } finally {
    if (linked) rmSync(aside, { force: true });
  }
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

/** `.<name>.<pid>.<time>.tmp` (and `.old.tmp`, the replaced file kept aside): the temp files `writeFileAtomic` writes beside `<name>`. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.[0-9a-z]+(?:\.old)?\.tmp$/;

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
