import { runGit } from './run-git.js';
import { withTempIndex } from './temp-index.js';

/**
 * The user's index (what is staged) written as a tree, from a copy of the index: `git write-tree`
 * on the index itself would rewrite its cached trees, and the user's index is never ralf's to
 * write. Null when it cannot be one tree (a merge conflict leaves unmerged entries) or git fails.
 */
export async function userIndexTree(root: string): Promise<string | null> {
  try {
    const index = (await runGit(['rev-parse', '--git-path', 'index'], { cwd: root })).stdout.toString('utf8').trim();
    return await withTempIndex(root, { copyFrom: index }, async (env) => (await runGit(['write-tree'], { cwd: root, env })).stdout.toString('utf8').trim() || null);
  } catch {
    return null;
  }
}
