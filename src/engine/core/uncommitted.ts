/**
 * The user's uncommitted work where a task started, and what an agent's git command did to it
 * (pure). `ralf task start` records the paths whose content in the start snapshot differs from
 * HEAD then (an edit, staged or not, or an untracked file: work that was there before the agent
 * edited anything) with HEAD's commit. A verify that finds such a path holding exactly what HEAD
 * held then, or gone as HEAD had it, knows a `git stash`, `reset --hard`, `checkout -- .` or
 * `clean -fd` took that work: never the task's. On the hosts' path the agent drives, so the verify
 * says so and names the command that brings it back from the start snapshot (kept under the
 * loop's ref); `ralf run` puts it back itself (src/run/iteration-snapshots.ts). The same holds
 * for what the user had staged (the index where the task started, kept as a tree): a `git add -A`
 * or a stash changes it without touching a file. A `ralf task reset` records it all again from the
 * tree it restarts on, less the loop's own earlier attempts.
 */
import { shellWord } from './commands.js';
import { readablePathspec } from '../../git/pathspec.js';

export interface UncommittedAtStart {
  /** HEAD's commit when the task started. */
  head: string;
  /** Paths (project-relative) with uncommitted work then, at most UNCOMMITTED_LISTED. */
  paths: string[];
  /** How many more there were. */
  more: number;
  /** The user's index then (what was staged), written as a tree; absent when it could not be (a merge conflict). */
  index?: string;
}

/** Paths remembered per loop (the state stays bounded whatever the repository holds). */
export const UNCOMMITTED_LISTED = 200;

export function uncommittedAtStart(head: string, paths: string[], index?: string | null): UncommittedAtStart | null {
  if (paths.length === 0) return null;
  const sorted = [...paths].sort();
  return { head, paths: sorted.slice(0, UNCOMMITTED_LISTED), more: Math.max(0, sorted.length - UNCOMMITTED_LISTED), ...(index ? { index } : {}) };
}

/**
 * The user's paths where a reset restarts a loop: of the paths that differ from HEAD in the new
 * start, those the loop did not change since its old start (`changedByLoop`; null: unknown, so
 * every path counts as changed), and those that held the user's work at the old start. The
 * loop's own earlier attempts are in the new start as well: an agent that drops one
 * (`git checkout -- <its file>`) after the reset takes nothing of the user's.
 */
export function userPathsAtReset(differingFromHead: string[], changedByLoop: string[] | null, before: UncommittedAtStart | null | undefined): string[] {
  const changed = new Set(changedByLoop ?? differingFromHead);
  const users = new Set(before?.paths ?? []);
  return differingFromHead.filter((p) => !changed.has(p) || users.has(p));
}

/** The remembered paths that no longer differ from the start's HEAD: their uncommitted work is gone. */
export function uncommittedLost(atStart: UncommittedAtStart, stillDiffering: string[]): string[] {
  const still = new Set(stillDiffering);
  return atStart.paths.filter((p) => !still.has(p));
}

/** `git restore --source=<start tree> -- <paths>`, shell-quoted. */
export function restoreFromStartCommand(startTree: string, paths: string[]): string {
  return ['git', 'restore', `--source=${startTree}`, '--', ...paths.map(readablePathspec)].map(shellWord).join(' ');
}

/** What the verify answer says about it; `restore`: restoreFromStartCommand's text. */
export function lostNote(paths: string[], restore: string): string {
  return `Note: ${listed(paths)} held the user's uncommitted work when the task started and now hold only what HEAD had then (or are gone): a git stash, reset --hard, checkout or clean took it. It is not the task's: put it back with \`${restore}\` (the task's start snapshot), and never stash, reset, check out or clean files you did not change.`;
}

/**
 * The remembered paths whose content HEAD now holds exactly as the start snapshot had it (the
 * user's uncommitted work then): the commits since the task started took it in (`git add -A`,
 * `commit -a`). `differingFromStart`: the remembered paths where HEAD now differs from the start.
 */
export function uncommittedCommitted(atStart: UncommittedAtStart, differingFromStart: string[]): string[] {
  return uncommittedLost(atStart, differingFromStart);
}

/** What the verify answer says about it. */
export function committedNote(paths: string[], range: string): string {
  return `Note: ${listed(paths)} held the user's uncommitted work when the task started, and the commits made since (${range}) hold it: committing it was not the task's. Commit only this task's files (\`git add <file>\` one by one), and tell the human (\`git log --stat ${range}\` shows what was committed).`;
}

/** The remembered paths whose staging now differs from the user's index at the start (`indexDiffering`: the remembered paths where it does). */
export function stagingChanged(atStart: UncommittedAtStart, indexDiffering: string[]): string[] {
  const differing = new Set(indexDiffering);
  return atStart.paths.filter((p) => differing.has(p));
}

/** `git restore --staged --source=<start index tree> -- <paths>`, shell-quoted: the index entries as they were (a path not staged then leaves the index), the files untouched. */
export function restoreStagingCommand(indexTree: string, paths: string[]): string {
  return ['git', 'restore', '--staged', `--source=${indexTree}`, '--', ...paths.map(readablePathspec)].map(shellWord).join(' ');
}

/** What the verify answer says about it; `restore`: restoreStagingCommand's text. */
export function stagingNote(paths: string[], restore: string): string {
  return `Note: what the user had staged of ${listed(paths)} (their uncommitted work when the task started) changed: a git add, stash or reset did it. It is not the task's: put the user's staging back with \`${restore}\` (it leaves the files as they are), and never stage or unstage files you did not change.`;
}

/** The first eight paths, then how many more. */
function listed(paths: string[]): string {
  return (paths.length > 8 ? [...paths.slice(0, 8), `and ${paths.length - 8} more`] : paths).join(', ');
}
