import { copyFileSync, mkdtempSync, rmdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Runs `fn` with a private index file (`GIT_INDEX_FILE`) so that staging never
 * touches the user's `.git/index`. With `seed: { copyFrom }` the temp index starts as a
 * copy of the real one: its stat cache lets `git add -A` skip re-hashing unchanged
 * files (`copyFrom`: the real index path, from `git rev-parse --git-path index`).
 * The temp file lives in the OS temp dir and is removed afterwards. The set-up is
 * synchronous (well under a millisecond) so that the first git process starts at once
 * and runs alongside whatever the caller does next, without waiting for an event-loop turn.
 */
export async function withTempIndex<T>(
  root: string,
  seed: { copyFrom: string } | 'empty',
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'ralf-index-'));
  const indexFile = join(dir, 'index');
  try {
    if (seed !== 'empty') {
      const source = resolve(root, seed.copyFrom);
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
    }
    return await fn({ GIT_INDEX_FILE: indexFile });
  } finally {
    removeTempDir(dir, indexFile);
  }
}

/** The temp dir holds just the index normally; rmSync's recursive walk only when git left more (a lock). */
function removeTempDir(dir: string, indexFile: string): void {
  try {
    unlinkSync(indexFile);
    rmdirSync(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}
