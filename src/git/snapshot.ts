import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findDotGit } from './repo.js';
import { runGit, runGitSequence } from './run-git.js';
import { EXCLUDE_RALF_STATE, RALF_STATE_DIR } from './pathspec.js';
import { withTempIndex } from './temp-index.js';

/**
 * A git tree hash of the working tree as it is now: tracked files with their
 * current content plus untracked files that are not ignored, minus `.planning/ralf`
 * (the loop's own state). Staged into a temp copy of the index, so the user's index
 * and files are untouched (only new blob objects are written to the object store).
 * Returns null outside a git working tree; throws `GitError` when git fails.
 */
export async function snapshotWorkingTree(root: string): Promise<string | null> {
  let indexPath = plainRepoIndex(root);
  if (indexPath === undefined) {
    const probe = await runGit(['rev-parse', '--is-inside-work-tree', '--git-path', 'index'], {
      cwd: root,
      okCodes: [0, 128],
    }).catch(() => null);
    if (probe === null || probe.code !== 0) return null;
    const [inside, path] = probe.stdout.toString('utf8').split('\n');
    if (inside !== 'true' || !path) return null;
    indexPath = path;
  }

  return withTempIndex(root, { copyFrom: indexPath }, async (env) => {
    const steps = [
      // `:/` is the whole repository, even when the project root is a subdirectory of it.
      ['-c', 'advice.addEmbeddedRepo=false', 'add', '--all', '--', ':/', EXCLUDE_RALF_STATE],
      // Tracked state files came along with the copied index; drop them from the snapshot too.
      ...(mayTrackRalfState(env.GIT_INDEX_FILE) ? [['rm', '-r', '-f', '-q', '--cached', '--ignore-unmatch', '--', RALF_STATE_DIR]] : []),
      ['write-tree'],
    ];
    // One process for the whole chain: it runs beside the checks without needing node's event loop.
    return (await runGitSequence(steps, { cwd: root, env })).stdout.toString('utf8').trim();
  });
}

/**
 * The index of an ordinary repository found by walking up to its `.git` directory, which saves
 * a `git rev-parse` per snapshot (the snapshot runs on every verify). `undefined` means "ask
 * git": no `.git` found (git decides whether this is a repository), a worktree or submodule
 * (`.git` is a file), or GIT_* variables that relocate things.
 */
function plainRepoIndex(root: string): string | undefined {
  if (process.env.GIT_DIR || process.env.GIT_INDEX_FILE || process.env.GIT_WORK_TREE || process.env.GIT_CEILING_DIRECTORIES) return undefined;
  const dotGit = findDotGit(root);
  if (dotGit === null) return undefined;
  try {
    return statSync(dotGit).isDirectory() && existsSync(join(dotGit, 'HEAD')) ? join(dotGit, 'index') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the index may list files under `.planning/ralf/`. Index versions 2 and 3 store every
 * path in full, so the bytes tell; version 4 compresses paths, so assume yes.
 */
function mayTrackRalfState(indexFile: string): boolean {
  let buf: Buffer;
  try {
    buf = readFileSync(indexFile);
  } catch {
    return false; // no index yet: nothing tracked
  }
  const version = buf.length >= 8 ? buf.readUInt32BE(4) : 0;
  if (version !== 2 && version !== 3) return true;
  return buf.includes(`${RALF_STATE_DIR}/`);
}
