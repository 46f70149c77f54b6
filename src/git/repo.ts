import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { gitText, runGit } from './run-git.js';

/**
 * The nearest `.git` (a directory, or a file in worktrees and submodules) at or above `dir`,
 * found without starting git; null when there is none.
 */
export function findDotGit(dir: string): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    if (existsSync(dotGit)) return dotGit;
    if (dirname(d) === d) return null;
  }
}

/** True when `cwd` is inside a git working tree (false for bare repos and non-repos). */
export async function isGitRepo(cwd: string): Promise<boolean> {
  try {
    const r = await runGit(['rev-parse', '--is-inside-work-tree'], { cwd, okCodes: [0, 128] });
    return r.code === 0 && r.stdout.toString('utf8').trim() === 'true';
  } catch {
    return false;
  }
}

/** The top-level directory of the working tree containing `cwd`, or null outside git. */
export async function repoRoot(cwd: string): Promise<string | null> {
  try {
    const r = await runGit(['rev-parse', '--show-toplevel'], { cwd, okCodes: [0, 128] });
    const top = r.stdout.toString('utf8').trim();
    return r.code === 0 && top !== '' ? top : null;
  } catch {
    return null;
  }
}

/**
 * HEAD's commit (or its tree), '' before the first commit. Throws GitError when git itself fails
 * (not a repository, a broken HEAD): for callers that build on HEAD, where a failure read as "no
 * commit yet" would commit a tree without every other file.
 */
export function readHead(root: string, kind: 'commit' | 'tree' = 'commit'): Promise<string> {
  return gitText(['rev-parse', '--verify', '--quiet', `HEAD^{${kind}}`], { cwd: root, okCodes: [0, 1] });
}

/** The commit HEAD points at, or null (no commits yet, or not a repo). */
export function headCommit(root: string): Promise<string | null> {
  return readHead(root, 'commit').then((id) => id || null, () => null);
}

/** The tree of HEAD (the last commit), or null (no commits yet, or not a repo). */
export function headTree(root: string): Promise<string | null> {
  return readHead(root, 'tree').then((id) => id || null, () => null);
}

/**
 * The bytes of `file` (an absolute path inside the working tree at `root`) as tree-ish `ref`
 * holds it; null when `ref` does not have it (or git cannot tell).
 */
export async function fileAtRef(root: string, ref: string, file: string): Promise<Buffer | null> {
  const rel = relative(root, file).split(sep).join('/');
  if (rel === '' || rel.startsWith('../') || isAbsolute(rel)) return null;
  try {
    const r = await runGit(['cat-file', 'blob', `${ref}:./${rel}`], { cwd: root, okCodes: [0, 128] });
    return r.code === 0 ? r.stdout : null;
  } catch {
    return null;
  }
}
