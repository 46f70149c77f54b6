/** The engine's view of git (src/git/), shaped as `GitDeps`. */
import { runGit } from '../git/run-git.js';
import { snapshotWorkingTree } from '../git/snapshot.js';
import { taskDiff } from '../git/task-diff.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { GitDeps } from './deps.js';

/** A `.git` (dir or file) at or above `root`: without one, no git process is started at all. */
export function insideGit(root: string): boolean {
  let dir = resolve(root);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

async function headTree(root: string): Promise<string | null> {
  try {
    const r = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: root, okCodes: [0, 1, 128] });
    const tree = r.stdout.toString('utf8').trim();
    return r.code === 0 && tree !== '' ? tree : null;
  } catch {
    return null;
  }
}

export const gitDeps: GitDeps = {
  insideGit,
  headTree,
  snapshot: (root) => snapshotWorkingTree(root),
  taskDiff: async (args) => {
    const d = await taskDiff(args);
    return { diffHash: d.diffHash, filesChanged: d.changes.map((c) => c.path), findings: d.findings };
  },
};
