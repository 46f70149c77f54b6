import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Runs `fn` with a private index file (`GIT_INDEX_FILE`) so that staging never
 * touches the user's `.git/index`. With `seed: { copyFrom }` the temp index starts as a
 * copy of the real one: its stat cache lets `git add -A` skip re-hashing unchanged
 * files (`copyFrom`: the real index path, from `git rev-parse --git-path index`).
 * The temp file lives in the OS temp dir and is removed afterwards.
 */
export async function withTempIndex<T>(
  root: string,
  seed: { copyFrom: string } | 'empty',
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ralf-index-'));
  const indexFile = join(dir, 'index');
  try {
    if (seed !== 'empty') {
      const source = resolve(root, seed.copyFrom);
      try {
        await copyFile(source, indexFile);
        // Racy-git protection compares each entry's mtime with the index file's own mtime:
        // entries not older than the index get their content re-checked. A fresh copy would
        // be "newer" and hide a same-size edit made in the same second as the last index
        // write, so the copy keeps the original's times (rounded down, the safe direction).
        const st = await stat(source);
        await utimes(indexFile, Math.floor(st.atimeMs) / 1000, Math.floor(st.mtimeMs - 1) / 1000);
      } catch (err) {
        // A repository without any commit or `git add` yet has no index: start empty.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return await fn({ GIT_INDEX_FILE: indexFile });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
