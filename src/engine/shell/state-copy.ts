/**
 * ralf's copy of each plan state in the git dir, so a deleted `.planning/ralf/` does not restart
 * a loop's count. An agent that runs `git clean -fdx`, `git stash --all` or `rm -rf
 * .planning/ralf` between its own `ralf task verify` calls (the hosts' path: nothing runs
 * between the agent's tool calls but the agent) deleted the state, so its next verify started at
 * iteration 1 and the loop never stopped. The git dir is what none of those touch and what the
 * project's git already owns: every state write also writes `<git dir>/ralf-state/<id>.json`,
 * and every command that resolves a plan puts back a state file that is gone while its copy is
 * there, and says so (`ralf run` also guards its own files around each agent: loop-files-guard.ts).
 * Outside git there is no copy. A human who wants a loop to start over runs `ralf task reset`.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { ensureStateDir, mkdirRecursive } from '../../fs/inside-project.js';
import { fastHash } from '../../fast-hash.js';
import { findDotGit } from '../../git/repo.js';
import { STATE_DIR } from './paths.js';

/** The git dir of the working tree holding `projectRoot` (a `.git` file of a worktree followed), and that tree's top. */
function gitDirOf(projectRoot: string): { gitDir: string; top: string } | null {
  const dotGit = findDotGit(projectRoot);
  if (!dotGit) return null;
  const top = dirname(dotGit);
  if (statSync(dotGit).isDirectory()) return { gitDir: dotGit, top };
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
  return m ? { gitDir: isAbsolute(m[1]!) ? m[1]! : join(top, m[1]!), top } : null;
}

/** Where this project's copies live (null outside git, or when that place is a link). */
export function stateCopyDir(projectRoot: string): string | null {
  let g: ReturnType<typeof gitDirOf>;
  try {
    g = gitDirOf(projectRoot);
  } catch {
    return null;
  }
  if (!g) return null;
  const rel = relative(g.top, projectRoot).split(sep).join('/');
  const base = join(g.gitDir, 'ralf-state');
  const dir = rel === '' ? base : join(base, fastHash(rel).slice(0, 12));
  for (const p of [base, dir]) {
    try {
      if (lstatSync(p).isSymbolicLink()) return null;
    } catch {
      /* not made yet */
    }
  }
  return dir;
}

/** Writes the copy of one state file; a copy that cannot be written is only a lost fallback. */
export function writeStateCopy(projectRoot: string, stateId: string, text: string): void {
  try {
    const dir = stateCopyDir(projectRoot);
    if (!dir) return;
    mkdirRecursive(dir);
    writeFileAtomic(join(dir, `${stateId}.json`), text);
  } catch {
    /* read-only git dir: the state file itself was written */
  }
}

/**
 * Puts back every state file of the project that is gone while its copy is there; returns their
 * project-relative paths. Cheap when nothing is missing (one directory listing).
 */
export function recoverDeletedStates(projectRoot: string): string[] {
  const dir = stateCopyDir(projectRoot);
  if (!dir || !existsSync(dir)) return [];
  const stateDir = join(projectRoot, STATE_DIR);
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json') || existsSync(join(stateDir, name))) continue;
    try {
      const text = readFileSync(join(dir, name), 'utf8');
      ensureStateDir(projectRoot);
      writeFileAtomic(join(stateDir, name), text);
      out.push(`${STATE_DIR.split(sep).join('/')}/${name}`);
    } catch {
      /* left as it is: the next write makes a new state */
    }
  }
  return out.sort();
}
