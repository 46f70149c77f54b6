import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { processAlive } from '../fs/process-alive.js';

/** `ralf-index-<pid>-<random>`: a temp index (and git's `.lock` beside it). */
const TEMP_INDEX = /^ralf-index-(\d+)-[0-9a-z]+(?:\.lock)?$/;

/**
 * Runs `fn` with a private index file (`GIT_INDEX_FILE`) so that staging never
 * touches the user's `.git/index`. With `seed: { copyFrom }` the temp index starts as a
 * copy of the real one (its stat cache lets `git add -A` skip re-hashing unchanged files;
 * `copyFrom` is the real index path) and lives beside it in the git dir: a ralf killed with
 * -9 cannot remove it, and the next snapshot finds it there (a short listing, where the OS
 * temp dir may hold thousands of entries) and removes it. `'empty'` starts from no index,
 * in a temp dir of the OS. The set-up is synchronous (well under a millisecond) so the first
 * git process starts at once and runs alongside whatever the caller does next.
 */
export async function withTempIndex<T>(
  root: string,
  seed: { copyFrom: string } | 'empty',
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
): Promise<T> {
  if (seed === 'empty') {
    const dir = mkdtempSync(join(tmpdir(), 'ralf-index-'));
    try {
      return await fn({ GIT_INDEX_FILE: join(dir, 'index') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const source = resolve(root, seed.copyFrom);
  const gitDir = dirname(source);
  removeDeadWritersIndexes(gitDir);
  const indexFile = join(gitDir, `ralf-index-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  try {
    try {
      copyFileSync(source, indexFile);
      // Racy-git protection compares each entry's mtime with the index file's own mtime:
      // entries not older than the index get their content re-checked. A fresh copy would
      // be "newer" and hide a same-size edit made in the same second as the last index
      // write, so the copy keeps the original's times (rounded down, the safe direction).
      const st = statSync(source);
      utimesSync(indexFile, Math.floor(st.atimeMs) / 1000, Math.floor(st.mtimeMs - 1) / 1000);
    } catch (err) {
      // A repository without any commit or `git add` yet has no index: start empty.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return await fn({ GIT_INDEX_FILE: indexFile });
  } finally {
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.lock`, { force: true });
  }
}

/** A snapshot takes milliseconds; an index this old whose process is gone was left by a kill. */
const STALE_MS = 60_000;

/**
 * Temp indexes of ralf processes that died before removing them (kill -9). Only old ones (by
 * ctime: the copy's mtime is set back on purpose): a process in another PID namespace sharing
 * the repository looks dead from here but is done with its index within milliseconds.
 */
export function removeDeadWritersIndexes(gitDir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(gitDir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMP_INDEX.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    try {
      const path = join(gitDir, name);
      if (now - statSync(path).ctimeMs > STALE_MS) unlinkSync(path);
    } catch {
      /* another snapshot removed it first */
    }
  }
}
