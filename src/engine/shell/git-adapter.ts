/** The engine's view of git (src/git/), shaped as `GitDeps`. */
import { fileAtRef, findDotGit, headTree } from '../../git/repo.js';
import { snapshotWorkingTree, takeSnapshot } from '../../git/snapshot.js';
import { taskDiff, writtenBetween } from '../../git/task-diff.js';
import type { GitDeps } from './deps.js';

/** A `.git` (dir or file) at or above `root`: without one, no git process is started at all. */
export function insideGit(root: string): boolean {
  return findDotGit(root) !== null;
}

export const gitDeps: GitDeps = {
  insideGit,
  headTree,
  snapshot: (root, options) => snapshotWorkingTree(root, options),
  takeSnapshot,
  taskDiff: async (args) => {
    const d = await taskDiff(args);
    return { diffHash: d.diffHash, filesChanged: d.changes.map((c) => c.path), findings: d.findings };
  },
  written: writtenBetween,
  fileAt: fileAtRef,
  // One ref per loop (the current start point), named by a hash: loop keys hold characters
  // ref names may not.
};
