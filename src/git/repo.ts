import { runGit } from './run-git.js';

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

/** The commit HEAD points at, or null (no commits yet, or not a repo). */
export async function headCommit(root: string): Promise<string | null> {
  try {
    const r = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root, okCodes: [0, 1, 128] });
    const sha = r.stdout.toString('utf8').trim();
    return r.code === 0 && sha !== '' ? sha : null;
  } catch {
    return null;
  }
}
