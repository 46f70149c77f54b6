/**
 * What the files a task names hold, as one hash (core/delta.ts `declared_hash`). The progress
 * key is a diff of git trees, so it leaves out every file git ignores; a task that names such a
 * file (`<files>.env, src/config.js</files>`) and is fixed there one value at a time looked like
 * an agent changing nothing ("back to the same tree") and was stopped while it made progress.
 * Read with the snapshot, before the checks, without git: exact paths only (a directory or glob
 * names no one file), each file's bytes up to CONTENT_MAX (beyond that its size, mtime and
 * inode: a 1 GB data file is never read), a special file by its kind only.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastHash } from '../../fast-hash.js';

/** Files larger than this are identified by their stat, not read. */
export const CONTENT_MAX = 64 * 1024;

const PATTERN = /[*?[\]{}]/;

/** The hash of the named files' contents, or null when the task names no exact file path. */
export function declaredHash(root: string, files: readonly string[]): string | null {
  const exact = [...new Set(files.filter((f) => f !== '' && !f.endsWith('/') && !PATTERN.test(f)))].sort();
  if (exact.length === 0) return null;
  const parts: string[] = [];
  for (const f of exact) parts.push(`${f}\0${identity(join(root, f))}`);
  return fastHash(parts.join('\0'));
}

function identity(path: string): string {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return 'link';
    if (!st.isFile()) return st.isDirectory() ? 'dir' : 'special';
    if (st.size > CONTENT_MAX) return `stat:${st.size}:${st.mtimeMs}:${st.ino}`;
    return readFileSync(path, 'latin1');
  } catch {
    return '<missing>';
  }
}
