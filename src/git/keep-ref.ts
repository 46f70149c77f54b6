/**
 * Keeps a working-tree snapshot reachable: a commit of the tree (parent: HEAD) under a
 * `refs/ralf/...` ref, so `git gc` cannot prune what a human approved or set aside, and
 * `git restore --source=<ref>` brings it back. Authored by ralf-lite (the user's identity may
 * be unset, and this is ralf's copy, not the user's history).
 */
import { GitError, gitText, runGit } from './run-git.js';
import { readHead } from './repo.js';

/** ralf's own commits (safety copies): the user's identity may be unset. */
export const RALF_IDENTITY = { GIT_AUTHOR_NAME: 'ralf-lite', GIT_AUTHOR_EMAIL: 'ralf-lite@localhost', GIT_COMMITTER_NAME: 'ralf-lite', GIT_COMMITTER_EMAIL: 'ralf-lite@localhost' };

/** `refs/ralf/<kind>/<plan>/task-<n>|plan/<UTC time>`; unsafe characters of the plan id become `-`. */
export function ralfRefName(kind: string, planId: string, task: number | null, at: Date): string {
  const plan = safeRefPart(planId);
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `refs/ralf/${kind}/${plan}/${task === null ? 'plan' : `task-${task}`}/${stamp}`;
}

/** Creates `ref` (or `ref-2`, `ref-3`, … when taken; never moves an existing ref) at a commit of `tree`; returns the ref. */
export async function keepTreeUnderRef(root: string, tree: string, ref: string, message: string): Promise<string> {
  const head = await readHead(root);
  const sha = await gitText(['commit-tree', tree, ...(head ? ['-p', head] : []), '-m', message], { cwd: root, env: RALF_IDENTITY });
  for (let i = 1; ; i++) {
    const name = i === 1 ? ref : `${ref}-${i}`;
    const r = await runGit(['update-ref', name, sha, ''], { cwd: root, okCodes: [0, 128] });
    if (r.code === 0) return name;
    if (i >= 20) throw new GitError(['update-ref', name, sha], r.code, r.stderr);
  }
}

/** A ref name component from any text: unsafe characters become `-`. */
export function safeRefPart(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|\.+$|\.lock$/g, '') || 'x';
}

/**
 * Keeps several trees reachable under `ref` (moved to a new commit each time): one tree holding
 * each as a subdirectory, committed without a parent. Three git processes, however many trees.
 */
export async function keepTreesUnderRef(root: string, ref: string, trees: Array<[string, string]>, message: string): Promise<void> {
  const holder = await gitText(['mktree'], { cwd: root, input: `${trees.map(([name, tree]) => `040000 tree ${tree}\t${name}`).join('\n')}\n` });
  const sha = await gitText(['commit-tree', holder, '-m', message], { cwd: root, env: RALF_IDENTITY });
  await runGit(['update-ref', ref, sha], { cwd: root });
}
