/**
 * The user's uncommitted work where a task started, and what an agent's git command did to it
 * (pure). `ralf task start` records the paths whose content in the start snapshot differs from
 * HEAD then (an edit, staged or not, or an untracked file: work that was there before the agent
 * edited anything) with HEAD's commit. A verify that finds such a path holding exactly what HEAD
 * held then, or gone as HEAD had it, knows a `git stash`, `reset --hard`, `checkout -- .` or
 * `clean -fd` took that work: never the task's. On the hosts' path the agent drives, so the verify
 * says so and names the command that brings it back from the start snapshot (kept under the
 * loop's ref); `ralf run` puts it back itself (src/run/iteration-snapshots.ts).
 */
import { shellWord } from './commands.js';

export interface UncommittedAtStart {
  /** HEAD's commit when the task started. */
  head: string;
  /** Paths (project-relative) with uncommitted work then, at most UNCOMMITTED_LISTED. */
  paths: string[];
  /** How many more there were. */
  more: number;
}

/** Paths remembered per loop (the state stays bounded whatever the repository holds). */
export const UNCOMMITTED_LISTED = 200;

export function uncommittedAtStart(head: string, paths: string[]): UncommittedAtStart | null {
  if (paths.length === 0) return null;
  const sorted = [...paths].sort();
  return { head, paths: sorted.slice(0, UNCOMMITTED_LISTED), more: Math.max(0, sorted.length - UNCOMMITTED_LISTED) };
}

/** The remembered paths that no longer differ from the start's HEAD: their uncommitted work is gone. */
export function uncommittedLost(atStart: UncommittedAtStart, stillDiffering: string[]): string[] {
  const still = new Set(stillDiffering);
  return atStart.paths.filter((p) => !still.has(p));
}

/** `git restore --source=<start tree> -- <paths>`, shell-quoted. */
export function restoreFromStartCommand(startTree: string, paths: string[]): string {
  // Paths, not patterns: a file named `*` is that file.
  return ['git', 'restore', `--source=${startTree}`, '--', ...paths.map((p) => (/[*?[\]\\]|^:/.test(p) ? `:(literal)${p}` : p))].map(shellWord).join(' ');
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

/** The first eight paths, then how many more. */
function listed(paths: string[]): string {
  return (paths.length > 8 ? [...paths.slice(0, 8), `and ${paths.length - 8} more`] : paths).join(', ');
}
