import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, statSync, chmodSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/**
 * Writes a file so that readers (and a crash at any point) see either the old or
 * the new content, never a partial one: write a temp file beside it, fsync, rename.
 * Keeps the old file's mode when it exists.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined;
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
    throw err;
  }
  closeSync(fd);
  try {
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
