/**
 * The driver's git actions around a task: commit a passed task (GSD's per-task commit
 * protocol: stage the changed files one by one, never `git add -A` / `git add .`), and put
 * a failed task's files back to where the task started so the next task starts clean
 * (the attempt is kept as a snapshot tree, so nothing is lost). `.planning/ralf/` is never
 * staged or restored.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { changedFiles } from '../git/diff.js';
import { restoreTree } from '../git/restore.js';
import { runGit } from '../git/run-git.js';
import { snapshotWorkingTree } from '../git/snapshot.js';
import { insideGit } from '../engine/git-adapter.js';

export { insideGit };

export async function snapshot(root: string): Promise<string | null> {
  if (!insideGit(root)) return null;
  return snapshotWorkingTree(root);
}

/** Files changed since `fromTree` (renames give both paths), `.planning/ralf/` excluded. */
export async function changedSince(root: string, fromTree: string): Promise<string[]> {
  const now = await snapshotWorkingTree(root);
  if (now === null || now === fromTree) return [];
  const changes = await changedFiles(root, fromTree, now);
  return [...new Set(changes.flatMap((c) => (c.old_path ? [c.old_path, c.path] : [c.path])))].filter((p) => !p.startsWith('.planning/ralf/'));
}

export interface CommitResult {
  sha: string;
  files: string[];
}

/** `feat({plan-id}): {task name}`; GSD names tasks "Task N: ...", which the message drops. */
export function commitMessage(planId: string, taskName: string): string {
  const name = taskName.replace(/^\s*task\s+\d+\s*[:.)-]\s*/i, '').trim() || taskName.trim();
  return `feat(${planId}): ${name}`;
}

/** Commits what changed since `fromTree`; null when nothing changed. Throws GitError when git refuses (hooks, identity). */
export async function commitChanges(root: string, fromTree: string, message: string): Promise<CommitResult | null> {
  const files = await changedSince(root, fromTree);
  if (files.length === 0) return null;
  const present = files.filter((f) => existsSync(join(root, f)));
  const gone = files.filter((f) => !existsSync(join(root, f)));
  if (present.length > 0) await runGit(['add', '--', ...present], { cwd: root });
  if (gone.length > 0) await runGit(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...gone], { cwd: root });
  // Paths after `--` commit only these files, whatever else the user had staged.
  await runGit(['commit', '--quiet', '-m', message, '--', ...files], { cwd: root });
  const sha = (await runGit(['rev-parse', 'HEAD'], { cwd: root })).stdout.toString('utf8').trim();
  return { sha, files };
}

export interface RevertResult {
  files: string[];
  /** A tree holding the working tree before the revert (the failed attempt). */
  saved_as: string | null;
  skipped: Array<{ path: string; reason: string }>;
}

/** Restores the files changed since `toTree` back to it. */
export async function revertTo(root: string, toTree: string): Promise<RevertResult> {
  const saved = await snapshotWorkingTree(root);
  if (saved === null || saved === toTree) return { files: [], saved_as: null, skipped: [] };
  const files = await changedSince(root, toTree);
  if (files.length === 0) return { files: [], saved_as: null, skipped: [] };
  const r = await restoreTree(root, toTree, files);
  return { files: [...r.restored, ...r.removed].sort(), saved_as: saved, skipped: r.skipped };
}
