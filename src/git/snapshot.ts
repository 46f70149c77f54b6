import { runGit } from './run-git.js';
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
  const probe = await runGit(['rev-parse', '--is-inside-work-tree', '--git-path', 'index'], {
    cwd: root,
    okCodes: [0, 128],
  }).catch(() => null);
  if (probe === null || probe.code !== 0) return null;
  const [inside, indexPath] = probe.stdout.toString('utf8').split('\n');
  if (inside !== 'true' || !indexPath) return null;

  return withTempIndex(root, { copyFrom: indexPath }, async (env) => {
    // `:/` is the whole repository, even when the project root is a subdirectory of it.
    await runGit(['-c', 'advice.addEmbeddedRepo=false', 'add', '--all', '--', ':/', EXCLUDE_RALF_STATE], { cwd: root, env });
    // Tracked state files came along with the copied index; drop them from the snapshot too.
    await runGit(['rm', '-r', '-f', '-q', '--cached', '--ignore-unmatch', '--', RALF_STATE_DIR], { cwd: root, env });
    const tree = (await runGit(['write-tree'], { cwd: root, env })).stdout.toString('utf8').trim();
    return tree;
  });
}
