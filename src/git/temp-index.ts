import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { processAlive } from '../fs/process-alive.js';

/** `ralf-index-<pid>-<random>`: a snapshot's work index in the git dir (and git's `.lock`, our `.tree` beside it). */
const TEMP_INDEX = /^ralf-index-(\d+)-[0-9a-z]+(?:\.lock|\.tree)?$/;

/** A new work-index name for this process (see private-index.ts). */
export function tempIndexName(): string {
  return `ralf-index-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Runs `fn` with a private index file (`GIT_INDEX_FILE`) so that staging never touches the
 * user's `.git/index`. `'empty'` starts from no index, in a temp dir of the OS. With
 * `{ copyFrom }` the temp index starts as a copy of that index (its stat cache) and lives
 * beside it in the git dir: a ralf killed with -9 cannot remove it, and the next snapshot
 * finds it there and removes it. (The snapshot itself keeps a persistent index instead:
 * private-index.ts.)
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
  const indexFile = join(gitDir, tempIndexName());
  try {
    copyKeepingTimes(source, indexFile);
    return await fn({ GIT_INDEX_FILE: indexFile });
  } finally {
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.lock`, { force: true });
  }
}

/**
 * Racy-git protection compares each entry's mtime with the index file's own mtime: entries
 * not older than the index get their content re-checked. A fresh copy would be "newer" and
 * hide a same-size edit made in the same second as the last index write, so the copy keeps
 * the original's times (rounded down, the safe direction). No source index: start empty.
 */
export function copyKeepingTimes(source: string, target: string): void {
  try {
    copyFileSync(source, target);
    const st = statSync(source);
    utimesSync(target, Math.floor(st.atimeMs) / 1000, Math.floor(st.mtimeMs - 1) / 1000);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** A snapshot takes seconds at most; a work index this old whose process is gone was left by a kill. */
const STALE_MS = 60_000;

/**
 * Work indexes of ralf processes that died before removing them (kill -9). Only old ones (by
 * ctime: a seeded copy's mtime is set back on purpose): a process in another PID namespace
 * sharing the repository looks dead from here but is done with its index within seconds.
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
