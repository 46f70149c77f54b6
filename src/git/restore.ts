// fs.promises, not node:fs/promises: the latter loads at start-up (~3 ms, readline and fs.watch
// come with it) in every command that bundles this file; the getter loads it on first use.
import { promises as fsp } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { rawChanges } from './diff.js';
import { literalPathspec } from './pathspec.js';
import { runGit, GitError } from './run-git.js';
import { snapshotWorkingTree, type SnapshotOptions } from './snapshot.js';
import { withTempIndex } from './temp-index.js';

export interface RestoreResult {
  /** Paths written back from the snapshot (changed or deleted since). */
  restored: string[];
  /** Paths removed because they did not exist in the snapshot. */
  removed: string[];
  /** Paths left alone, with why (a nested repository, a directory or ignored file in the way). */
  skipped: Array<{ path: string; reason: string }>;
}

const GITLINK = '160000';

/**
 * Puts the working tree back to a snapshot (`snapshotWorkingTree`), within `paths`
 * (literal paths or directories, never patterns) when given (an empty list restores nothing): files changed or deleted since are
 * written back, files added since are removed (then their emptied directories).
 *
 * Only what the snapshot machinery sees is touched: ignored files are never removed
 * or overwritten (a directory still holding one stays), `.planning/ralf/` is left
 * alone, nested repositories are skipped, and the user's index is not modified:
 * the current state is compared through a temp index and files are written with
 * `git checkout-index` from another temp index read from the snapshot tree.
 */
export async function restoreTree(root: string, tree: string, paths?: string[], snapshotOptions: SnapshotOptions = {}): Promise<RestoreResult> {
  const result: RestoreResult = { restored: [], removed: [], skipped: [] };
  if (paths !== undefined && paths.every((p) => p.trim() === '')) return result;
  const now = await snapshotWorkingTree(root, snapshotOptions);
  if (now === null) throw new GitError(['restore'], null, `${root} is not inside a git working tree`);
  // Paths, not patterns: a file named `*` or `[ab].ts` is restored alone.
  const specs = paths?.filter((p) => p.trim() !== '').map(literalPathspec);
  const changes = await rawChanges(root, tree, now, specs);
  if (changes.length === 0) return result;

  const rootAbs = resolve(root);
  const realRoot = await fsp.realpath(rootAbs);

  // 1. Remove what the snapshot did not have.
  const dirsToPrune = new Set<string>();
  for (const change of changes.filter((c) => c.status === 'A')) {
    if (change.new_mode === GITLINK) {
      result.skipped.push({ path: change.path, reason: 'nested git repository; left in place' });
      continue;
    }
    const abs = join(rootAbs, change.path);
    if (!(await parentInside(realRoot, abs))) {
      result.skipped.push({ path: change.path, reason: 'parent directory resolves outside the project; left in place' });
      continue;
    }
    try {
      const st = await fsp.lstat(abs);
      if (st.isDirectory()) {
        result.skipped.push({ path: change.path, reason: 'is a directory; left in place' });
        continue;
      }
      await fsp.unlink(abs);
      result.removed.push(change.path);
      dirsToPrune.add(dirname(abs));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        result.skipped.push({ path: change.path, reason: `could not remove (${(err as NodeJS.ErrnoException).code})` });
      }
    }
  }
  for (const dir of dirsToPrune) await pruneEmptyDirs(dir, rootAbs);

  // 2. Write back what changed or went missing.
  const toWrite: string[] = [];
  for (const change of changes.filter((c) => c.status !== 'A')) {
    if (change.old_mode === GITLINK || change.new_mode === GITLINK) {
      result.skipped.push({ path: change.path, reason: 'nested git repository; left in place' });
      continue;
    }
    const blocked = await blockedBy(rootAbs, realRoot, change.path);
    if (blocked) {
      result.skipped.push({ path: change.path, reason: blocked });
      continue;
    }
    toWrite.push(change.path);
  }
  if (toWrite.length > 0) {
    await withTempIndex(root, 'empty', async (env) => {
      await runGit(['read-tree', tree], { cwd: root, env });
      await runGit(['checkout-index', '--force', '--quiet', '-z', '--stdin'], {
        cwd: root,
        env,
        input: toWrite.map((p) => `${p}\0`).join(''),
      });
    });
    result.restored.push(...toWrite);
  }
  result.restored.sort();
  result.removed.sort();
  return result;
}

async function parentInside(realRoot: string, abs: string): Promise<boolean> {
  try {
    const parent = await fsp.realpath(dirname(abs));
    return parent === realRoot || parent.startsWith(realRoot + sep);
  } catch {
    return false;
  }
}

/**
 * Why writing `path` could destroy something the snapshot does not know about (an
 * ignored file where a directory must go, a non-empty directory where a file must
 * go, a symlink to follow), or null when it is safe.
 */
async function blockedBy(rootAbs: string, realRoot: string, path: string): Promise<string | null> {
  const parts = path.split('/');
  let current = rootAbs;
  for (const part of parts.slice(0, -1)) {
    current = join(current, part);
    const st = await fsp.lstat(current).catch(() => null);
    if (st === null) return null; // the rest will be created
    if (!st.isDirectory()) {
      const what = st.isSymbolicLink() ? 'a symlink' : 'a file';
      return `${what} not in the snapshot is in the way at ${current.slice(rootAbs.length + 1)}; left in place`;
    }
  }
  const abs = join(rootAbs, path);
  const st = await fsp.lstat(abs).catch(() => null);
  if (st?.isDirectory()) {
    // An emptied directory (its files were removed above) can go; one with ignored files stays.
    try {
      await fsp.rmdir(abs);
    } catch {
      return 'a directory with files not in the snapshot is in the way; left in place';
    }
  }
  if (!(await parentInside(realRoot, abs)) && st !== null) return 'resolves outside the project; left in place';
  return null;
}

async function pruneEmptyDirs(dir: string, rootAbs: string): Promise<void> {
  let current = dir;
  while (current !== rootAbs && current.startsWith(rootAbs + sep)) {
    try {
      await fsp.rmdir(current); // fails (and stops) when not empty, e.g. ignored files remain
    } catch {
      return;
    }
    current = dirname(current);
  }
}
