import { fastHash } from '../fast-hash.js';
import { treeDiff, type FileChange, type TreeDiffEntry } from './diff.js';
import { isDeclared } from './path-match.js';
import { rule4Findings } from './rule4.js';

export interface TaskDiffInput {
  root: string;
  /** Where the task started (tree or commit). */
  fromTree: string;
  /** The current snapshot. */
  toTree: string;
  /** The task's `<files>`; empty: every file counts as the task's. */
  taskFiles: string[];
  /** Other paths the plan declares (frontmatter `files_modified`), allowed by the Rule 4 guard. */
  declaredFiles: string[];
}

export interface TaskDiff {
  /**
   * A hash (hex) of the task files' changes since the start, null when they have none:
   * equal hashes mean the task's code is the same as then. Changes elsewhere do not move it.
   */
  diffHash: string | null;
  /** Every file changed since the start, anywhere in the project. */
  changes: FileChange[];
  /** The Rule 4 findings for the same diff (rule4Findings). */
  findings: string[];
}

/**
 * What a verify needs from the diff since the task started, from ONE git process: the verify
 * runs between every agent iteration, and each process node starts costs it ~2.5 ms. The Rule 4
 * guard reads a manifest's two versions only when a manifest changed.
 */
export async function taskDiff(input: TaskDiffInput): Promise<TaskDiff> {
  const { root, fromTree, toTree } = input;
  const entries = await treeDiff(root, fromTree, toTree);
  const changes = entries.map(({ record: _record, ...change }) => change);
  const findings = await rule4Findings({ root, fromTree, toTree, taskFiles: input.taskFiles, declaredFiles: input.declaredFiles, changes });
  return { diffHash: hashOfTaskChanges(entries, input.taskFiles, root), changes, findings };
}

/** The task's part of the diff, hashed: an entry counts when its path (or a rename's old path) is the task's. */
export function hashOfTaskChanges(entries: TreeDiffEntry[], taskFiles: string[], root?: string): string | null {
  const mine = taskFiles.length === 0 ? entries : entries.filter((e) => isDeclared(e.path, taskFiles, root) || (e.old_path !== undefined && isDeclared(e.old_path, taskFiles, root)));
  if (mine.length === 0) return null;
  return fastHash(mine.map((e) => e.record).join('\0'));
}
