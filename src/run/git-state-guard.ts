/**
 * The user's git state around one agent iteration of `ralf run`. Real agents use git: they
 * commit mid-task (GSD's own workflow commits each task), amend, `git add -A` (sweeping the
 * user's untracked files into the index), create or switch branches. ralf commits a passed task
 * itself and restores a stopped one's paths, both measured on the working tree
 * (iteration-snapshots.ts); an agent's own commit would carry the user's swept-up files into
 * history and move the user's branch, and a stopped task's restore would leave a HEAD that still
 * holds the failed attempt.
 *
 * So before each agent starts, the branch HEAD is on, that branch's commit and the user's index
 * are marked, and once it exits they are put back: the agent's commits are kept under an attempt
 * ref (`refs/ralf/attempts/…-git`), a branch it created is left where it is, and the message says
 * what was undone. The working tree is never touched here: what the agent made there is its
 * change, measured, verified, then committed or restored like any other.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitText, runGit } from '../git/run-git.js';
import { headCommit } from '../git/repo.js';

export interface GitMark {
  /** `refs/heads/<branch>` HEAD points at; null: detached. */
  symref: string | null;
  /** The commit HEAD resolves to (null: no commit yet). */
  head: string | null;
  /** `refs/stash` (null: no stash). */
  stash: string | null;
  indexPath: string;
  /** The index file's bytes (null: none). */
  index: Buffer | null;
  /** Git operations in progress (a rebase, merge, cherry-pick, revert or am stopped half-way). */
  operations: string[];
}

/**
 * An operation git leaves half-done when it stops on a conflict: the marker in the git dir and
 * the command that forgets it without touching HEAD, the index or the working tree (`--quit`:
 * a rebase's `--autostash` entry goes to `git stash list`).
 */
const OPERATIONS: Array<{ name: string; marker: string; quit: string[] }> = [
  { name: 'rebase', marker: 'rebase-merge', quit: ['rebase', '--quit'] },
  { name: 'rebase', marker: 'rebase-apply/rebasing', quit: ['rebase', '--quit'] },
  { name: 'am', marker: 'rebase-apply/applying', quit: ['am', '--quit'] },
  { name: 'merge', marker: 'MERGE_HEAD', quit: ['merge', '--quit'] },
  { name: 'cherry-pick', marker: 'CHERRY_PICK_HEAD', quit: ['cherry-pick', '--quit'] },
  { name: 'revert', marker: 'REVERT_HEAD', quit: ['revert', '--quit'] },
];

function operationsIn(gitDir: string): string[] {
  return OPERATIONS.filter((o) => existsSync(join(gitDir, o.marker))).map((o) => o.marker);
}

async function optionalRef(root: string, args: string[]): Promise<string | null> {
  return (await gitText(args, { cwd: root, okCodes: [0, 1, 128] }).catch(() => '')) || null;
}

function readIndex(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

export async function markGitState(root: string): Promise<GitMark | null> {
  try {
    const [symref, head, stash, indexPath] = await Promise.all([
      optionalRef(root, ['symbolic-ref', '-q', 'HEAD']),
      headCommit(root),
      optionalRef(root, ['rev-parse', '-q', '--verify', 'refs/stash']),
      gitText(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd: root }),
    ]);
    return { symref, head, stash, indexPath, index: readIndex(indexPath), operations: operationsIn(dirname(indexPath)) };
  } catch {
    return null;
  }
}

/** What the agent did to the git state, in words, and the ref its commits are kept under. */
export interface GitStatePutBack {
  /** One sentence per thing undone (empty: the agent left HEAD, the branch and the index alone). */
  undone: string[];
  /** Other things seen and left (a stash entry, a branch it made). */
  left: string[];
  kept_as: string | null;
}

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : 'no commit');
const branchName = (ref: string) => ref.replace(/^refs\/heads\//, '');

/** The index's stage entries (mode, blob, stage, path) per path: what is staged, without stat data. */
async function stagedEntries(root: string, indexFile: string): Promise<Map<string, string>> {
  const r = await runGit(['ls-files', '-s', '-z'], { cwd: root, env: { GIT_INDEX_FILE: indexFile } });
  const out = new Map<string, string>();
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab > 0) out.set(rec.slice(tab + 1), `${out.get(rec.slice(tab + 1)) ?? ''}${rec.slice(0, tab)};`);
  }
  return out;
}

/** Paths whose staged entries differ between the marked index and the one now. */
async function stagedDifferences(root: string, mark: GitMark): Promise<string[]> {
  const scratch = `${mark.indexPath}.ralf-before`;
  try {
    if (mark.index) writeFileSync(scratch, mark.index);
    const before = mark.index ? await stagedEntries(root, scratch) : new Map<string, string>();
    const now = await stagedEntries(root, mark.indexPath);
    const paths = new Set([...before.keys(), ...now.keys()]);
    return [...paths].filter((p) => before.get(p) !== now.get(p)).sort();
  } finally {
    rmSync(scratch, { force: true });
  }
}

function listed(paths: string[]): string {
  return `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`;
}

/**
 * Puts HEAD, its branch and the user's index back as `mark` recorded them. `keepRef`: the ref
 * name the agent's commits are kept under when the branch had moved.
 */
export async function putBackGitState(root: string, mark: GitMark, keepRef: string): Promise<GitStatePutBack> {
  const out: GitStatePutBack = { undone: [], left: [], kept_as: null };
  let now = await markGitState(root);
  if (!now) return out;
  const who = { cwd: root };

  // A rebase or merge the agent left stopped on a conflict is forgotten first (HEAD, index and
  // tree untouched), so what follows puts back a branch, not a half-done operation.
  const started = OPERATIONS.filter((o) => now!.operations.includes(o.marker) && !mark.operations.includes(o.marker));
  if (started.length > 0) {
    for (const o of started) await runGit(o.quit, { ...who, okCodes: [0, 1, 128] });
    out.undone.push(`the ${[...new Set(started.map((o) => o.name))].join(' and ')} it left stopped half-way is forgotten (\`git ${started[0]!.quit.join(' ')}\`: its conflicts stay in the working tree as its change)`);
    now = (await markGitState(root)) ?? now;
  }

  if (mark.symref) {
    const branch = branchName(mark.symref);
    if (now.symref !== mark.symref) {
      await runGit(['symbolic-ref', 'HEAD', mark.symref], who);
      out.undone.push(`HEAD was ${now.symref ? `on branch ${branchName(now.symref)}` : `detached at ${short(now.head)}`}: it is on ${branch} again`);
      if (now.symref && now.head && now.head !== mark.head) out.left.push(`the branch ${branchName(now.symref)} it made or switched to is left as it is (\`git log ${branchName(now.symref)}\`)`);
    }
    const tip = await optionalRef(root, ['rev-parse', '-q', '--verify', `${mark.symref}^{commit}`]);
    if (tip !== mark.head) {
      if (tip) {
        await runGit(['update-ref', '-m', 'ralf-lite: the agent moved this branch', keepRef, tip], who);
        out.kept_as = keepRef;
      }
      if (mark.head) await runGit(['update-ref', '-m', 'ralf-lite: the branch put back where it was before the agent', mark.symref, mark.head], who);
      else await runGit(['update-ref', '-d', mark.symref], who);
      out.undone.push(`${branch} had moved from ${short(mark.head)} to ${short(tip)} (its commits, amends or resets): it is at ${short(mark.head)} again; what it pointed at is kept under ${keepRef}`);
    }
  } else if (now.symref || now.head !== mark.head) {
    // Detached when the agent started: HEAD goes back to that commit, without touching a branch.
    if (mark.head) await runGit(['update-ref', '--no-deref', 'HEAD', mark.head], who);
    out.undone.push(`HEAD was moved${now.symref ? ` to branch ${branchName(now.symref)}` : ` to ${short(now.head)}`}: it is detached at ${short(mark.head)} again`);
  }

  const indexNow = readIndex(mark.indexPath);
  const changed = indexNow === null || mark.index === null ? indexNow !== mark.index : !indexNow.equals(mark.index);
  if (changed) {
    // A refreshed stat cache (git status) rewrites the index without changing what is staged.
    const differing = await stagedDifferences(root, mark);
    if (differing.length > 0) {
      const tmp = `${mark.indexPath}.ralf-put-back`;
      if (mark.index) {
        writeFileSync(tmp, mark.index);
        renameSync(tmp, mark.indexPath);
      } else rmSync(mark.indexPath, { force: true });
      out.undone.push(`what is staged was put back as it was (the agent had staged or unstaged ${listed(differing)})`);
    }
  }
  if (now.stash !== mark.stash) out.left.push('it ran git stash: the entry is left in `git stash list`');
  return out;
}
