import { fastHash } from '../fast-hash.js';
import { treeDiff, type FileChange, type TreeDiffEntry } from './diff.js';
import { manifestsOfLockfile } from './manifests.js';
import { isDeclared } from './path-match.js';
import { rule4Findings } from './rule4.js';

/** Changes the loop must not attribute to the agent of this task. */
export interface DiffIgnore {
  /**
   * What the loop's own checks wrote (path → blob id, `''` for a deletion): a path whose
   * content is still exactly what a check left there is the check's output, not the agent's.
   */
  checkWritten?: Record<string, string>;
  /**
   * Paths (as in `<files>`: exact, directory prefix or glob) other open loops are working on
   * (parallel plans in one working tree): their changes are those loops' agents', unless this
   * task's own `<files>` or declared files cover them too. A lockfile goes with its manifest
   * (`npm install` in plan B writes package-lock.json beside the package.json B declares).
   */
  otherLoops?: string[];
}

export interface TaskDiffInput {
  root: string;
  /** Where the task started (tree or commit). */
  fromTree: string;
  /** The current snapshot. */
  toTree: string;
  /** The task's `<files>` (allowed by the Rule 4 guard; a hint, not a fence, for progress). */
  taskFiles: string[];
  /** Other paths the plan declares (frontmatter `files_modified`), allowed by the Rule 4 guard. */
  declaredFiles: string[];
  ignore?: DiffIgnore | undefined;
}

export interface TaskDiff {
  /**
   * The progress key: a hash (hex) of every change since the start that is not ignored, null
   * when there is none. Equal keys mean the same code for the loop's purposes, wherever the
   * agent edited (`<files>` is a hint: deviation rules 1-3 touch other files).
   */
  diffHash: string | null;
  /** Every file changed since the start, anywhere in the project, minus the ignored ones. */
  changes: FileChange[];
  /** The Rule 4 findings for the same changes (rule4Findings). */
  findings: string[];
}

/**
 * What a verify needs from the diff since the task started, from ONE git process: the verify
 * runs between every agent iteration, and each process node starts costs it ~2.5 ms. The Rule 4
 * guard reads a manifest's two versions only when a manifest changed.
 */
export async function taskDiff(input: TaskDiffInput): Promise<TaskDiff> {
  const { root, fromTree, toTree } = input;
  const entries = withoutIgnored(await treeDiff(root, fromTree, toTree), input.ignore, root, [...input.taskFiles, ...input.declaredFiles]);
  const withModes = entries.map(({ record: _record, new_blob: _blob, ...change }) => change);
  const changes = withModes.map(({ new_mode: _mode, ...change }) => change);
  // The guard reads the modes (a symlink out of the project); callers get paths and statuses.
  const findings = await rule4Findings({ root, fromTree, toTree, taskFiles: input.taskFiles, declaredFiles: input.declaredFiles, changes: withModes });
  return { diffHash: progressKey(entries), changes, findings };
}

/** The hash of a diff's entries (modes, blob ids, paths): null for no changes. */
export function progressKey(entries: TreeDiffEntry[]): string | null {
  if (entries.length === 0) return null;
  return fastHash(entries.map((e) => e.record).join('\0'));
}

/** `own`: this task's files and declared files, never taken away by another loop's. */
export function withoutIgnored(entries: TreeDiffEntry[], ignore: DiffIgnore | undefined, root?: string, own: string[] = []): TreeDiffEntry[] {
  const written = ignore?.checkWritten ?? {};
  const others = ignore?.otherLoops ?? [];
  if (Object.keys(written).length === 0 && others.length === 0) return entries;
  const declaredByOthers = (path: string) => isDeclared(path, others, root) && !isDeclared(path, own, root);
  const theirs = (path: string) => declaredByOthers(path) || (!isDeclared(path, own, root) && manifestsOfLockfile(path).some(declaredByOthers));
  return entries.filter((e) => {
    if (written[e.path] !== undefined && written[e.path] === e.new_blob) return false;
    // A rename is another loop's only when both its ends are.
    if (others.length > 0 && theirs(e.path) && (e.old_path === undefined || theirs(e.old_path))) return false;
    return true;
  });
}

/** Path → new blob id (`''`: deleted) of every change between two trees: what a check wrote. */
export async function writtenBetween(root: string, fromTree: string, toTree: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await treeDiff(root, fromTree, toTree)) {
    if (e.old_path !== undefined && e.status === 'R') out[e.old_path] = '';
    out[e.path] = e.new_blob;
  }
  return out;
}
