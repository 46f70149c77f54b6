/**
 * The driver's git actions on the paths an agent changed (src/run/iteration-snapshots.ts
 * measures them): commit a passed task's paths (GSD's per-task commit protocol), and put a
 * failed attempt's paths back to what they held before the agent touched them, keeping the
 * attempt under a ref (`refs/ralf/attempts/...`) so `git gc` cannot drop it.
 *
 * Every path is passed to git as a literal pathspec (a file named `*` is that file), and the
 * user's index is never used for staging: a commit is built in a private index (HEAD plus
 * the agent's paths), so a failing or hanging hook leaves the user's staging as it was.
 * `.planning/ralf/` is never committed or restored.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepTreeUnderRef } from '../git/keep-ref.js';
import { readHead } from '../git/repo.js';
import { restoreTree } from '../git/restore.js';
import { literalPathspec, readablePathspec } from '../git/pathspec.js';
import { GitError, gitText, runGit } from '../git/run-git.js';
import { snapshotWorkingTree, type SnapshotOptions } from '../git/snapshot.js';
import { withTempIndex } from '../git/temp-index.js';
import { ABSENT_MODE, pathChanges, sameEntry, type PathChange } from '../git/diff.js';
import { insideGit } from '../engine/shell/git-adapter.js';

export { insideGit };

/** `options`: the project's `snapshot.max_untracked_file_mb`, as every snapshot of the project uses. */
export async function snapshot(root: string, options: SnapshotOptions = {}): Promise<string | null> {
  if (!insideGit(root)) return null;
  return snapshotWorkingTree(root, options);
}


const GITLINK = '160000';


export interface CommitResult {
  sha: string;
  files: string[];
  /** Paths whose changes the user had staged could not be staged again on top of the commit (they overlap the agent's); they stay in the working tree, unstaged. */
  unstaged: string[];
}

/** `feat({plan-id}): {task name}`; GSD names tasks "Task N: ...", which the message drops. */
export function commitMessage(planId: string, taskName: string): string {
  const name = taskName.replace(/^\s*task\s+\d+\s*[:.)-]\s*/i, '').trim() || taskName.trim();
  return `feat(${planId}): ${name}`;
}

/** How long a commit (its hooks: formatters, linters, tests) may take before it is killed. */
export const DEFAULT_COMMIT_TIMEOUT_MS = 300_000;

/**
 * Commits exactly `changes` (each path with its content in the working tree snapshot, or
 * its removal) on top of HEAD; null when that would change nothing. The commit is built in
 * a private index holding HEAD plus these paths, so whatever the user staged stays staged
 * and out of the commit, and a failed hook leaves no staging behind; hooks run with that
 * index (as with `git commit -- <paths>`). After the commit the user's index entries of
 * these paths are set to the committed content (again as `git commit -- <paths>` does).
 * Throws GitError when git refuses (a hook, no identity) or the commit takes longer than
 * `timeoutMs` (its process group is killed).
 */
export async function commitPaths(root: string, changes: PathChange[], message: string, timeoutMs = DEFAULT_COMMIT_TIMEOUT_MS): Promise<CommitResult | null> {
  const entries = changes.filter((c) => c.new_mode !== GITLINK && c.old_mode !== GITLINK);
  if (entries.length === 0) return null;
  const head = await readHead(root);
  const paths = entries.map((c) => c.path);
  const [stagedBefore, headBefore] = await Promise.all([indexEntries(root, paths), headEntries(root, head, paths)]);
  const realIndex = await gitText(['rev-parse', '--git-path', 'index'], { cwd: root });
  const info = entries.map((c) => (c.new_mode === ABSENT_MODE ? `0 ${'0'.repeat(40)}\t${c.path}` : `${c.new_mode} ${c.new_blob}\t${c.path}`)).join('\n');
  const committed = await withTempIndex(root, { copyFrom: realIndex }, async (env) => {
    if (head) await runGit(['read-tree', head], { cwd: root, env });
    else await runGit(['read-tree', '--empty'], { cwd: root, env });
    await runGit(['update-index', '--index-info'], { cwd: root, env, input: `${info}\n` });
    const tree = await gitText(['write-tree'], { cwd: root, env });
    if (head && tree === (await gitText(['rev-parse', `${head}^{tree}`], { cwd: root }))) return false;
    await gitWithTimeout(['commit', '--quiet', '--no-edit', '-m', message], root, env, timeoutMs);
    return true;
  });
  if (!committed) return null;
  const sha = await gitText(['rev-parse', 'HEAD'], { cwd: root });
  const files = entries.map((c) => c.path).sort();
  // The user's index: these paths now match the commit (everything else stays as it was).
  await runGit(['reset', '--quiet', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: root, input: `${files.map(literalPathspec).join('\0')}\0` }).catch(() => undefined);
  const unstaged = await restage(root, entries, stagedBefore, headBefore);
  return { sha, files, unstaged };
}

type Entry = { mode: string; blob: string };

/**
 * The user's staging survives a task's commit: a path whose index entry differed from HEAD
 * before the commit (the user staged a change in it) gets, in the user's index, the staged
 * content with the agent's committed change applied (three-way: staged, old HEAD, commit). The
 * paths where the two overlap (or a side is not a regular file) are returned: they keep the
 * committed content in the index, and the user's change stays in the working tree, unstaged.
 */
async function restage(root: string, entries: PathChange[], staged: Map<string, Entry>, before: Map<string, Entry>): Promise<string[]> {
  const unstaged: string[] = [];
  for (const c of entries) {
    const mine = staged.get(c.path);
    const base = before.get(c.path);
    if (!mine || !base || (mine.mode === base.mode && mine.blob === base.blob)) continue;
    const merged = REGULAR.has(mine.mode) && REGULAR.has(base.mode) && REGULAR.has(c.new_mode) ? await mergeBlobs(root, mine.blob, base.blob, c.new_blob) : null;
    if (merged === null || merged.code !== 0) {
      unstaged.push(c.path);
      continue;
    }
    const blob = await gitText(['hash-object', '-w', '--stdin'], { cwd: root, input: merged.stdout });
    await runGit(['update-index', '--cacheinfo', `${mine.mode},${blob},${c.path}`], { cwd: root });
  }
  return unstaged;
}

/** The user's index: each path's stage-0 mode and blob (paths it does not have, or has in conflict: not in the map). */
async function indexEntries(root: string, paths: string[]): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  const r = await runGit(['ls-files', '-s', '-z', '--', ...paths.map(literalPathspec)], { cwd: root });
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    // `<mode> <blob> <stage>\t<path>`
    const m = /^(\d+) ([0-9a-f]+) 0\t([\s\S]*)$/.exec(rec);
    if (m) out.set(m[3]!, { mode: m[1]!, blob: m[2]! });
  }
  return out;
}

/** A path left out of a task's commit, and why (the agent's change stays in the working tree). */
export interface LeftOut {
  path: string;
  reason: string;
}

const REGULAR = new Set(['100644', '100755']);

/**
 * The agent's part of each change, ready to commit on top of HEAD. `old_*` is what the path held
 * before the agent first changed it; where that differs from HEAD, the user had uncommitted work
 * in the file, which must not ride into the agent's commit. A text file is then committed as
 * HEAD plus the agent's edit only (a three-way merge: the agent's version without the user's
 * edits), and the user's edits stay in the working tree, uncommitted. When the two cannot be told
 * apart (they overlap, a file is binary or not a regular file, or HEAD lacks the file: the user's
 * own new file) the path is left out of the commit and named.
 */
export async function withoutUserEdits(root: string, changes: PathChange[]): Promise<{ changes: PathChange[]; left: LeftOut[] }> {
  if (changes.length === 0) return { changes, left: [] };
  const atHead = await headEntries(root, await readHead(root), changes.map((c) => c.path));
  const out: PathChange[] = [];
  const left: LeftOut[] = [];
  for (const c of changes) {
    const head = atHead.get(c.path) ?? { mode: ABSENT_MODE, blob: '' };
    if (sameEntry(head, { mode: c.old_mode, blob: c.old_blob })) {
      out.push(c);
      continue;
    }
    // The agent deleted the file: its change is the deletion, whatever the user had in it.
    if (c.new_mode === ABSENT_MODE && head.mode !== ABSENT_MODE) {
      out.push(c);
      continue;
    }
    if (head.mode === ABSENT_MODE || c.old_mode === ABSENT_MODE) {
      left.push({ path: c.path, reason: head.mode === ABSENT_MODE ? 'the file is not committed (your uncommitted file); the agent edited it' : 'you had deleted it (uncommitted) and the agent wrote it again' });
      continue;
    }
    if (!REGULAR.has(head.mode) || !REGULAR.has(c.old_mode) || !REGULAR.has(c.new_mode)) {
      left.push({ path: c.path, reason: 'it had uncommitted changes before the agent edited it, and it is not a regular file on every side' });
      continue;
    }
    // `merge-file -p <agent> <before> <head>`: the agent's version with before → HEAD applied,
    // i.e. the user's uncommitted edits taken out.
    const merged = await mergeBlobs(root, c.new_blob, c.old_blob, head.blob);
    if (merged.code !== 0) {
      left.push({ path: c.path, reason: merged.code === 255 ? 'it had uncommitted changes before the agent edited it, and a binary file\'s two changes cannot be told apart' : 'the agent edited lines next to your uncommitted changes in it, so the two cannot be told apart' });
      continue;
    }
    const blob = await gitText(['hash-object', '-w', '--stdin'], { cwd: root, input: merged.stdout });
    out.push({ ...c, new_blob: blob });
  }
  return { changes: out, left };
}

/** `git merge-file -p <ours> <base> <theirs>` over three blobs: exit 0 clean, > 0 conflicts, 255 binary. */
async function mergeBlobs(root: string, ours: string, base: string, theirs: string): Promise<{ code: number; stdout: Buffer }> {
  const scratch = mkdtempSync(join(tmpdir(), 'ralf-merge-'));
  try {
    const file = async (name: string, blob: string) => {
      const path = join(scratch, name);
      writeFileSync(path, (await runGit(['cat-file', 'blob', blob], { cwd: root })).stdout);
      return path;
    };
    const r = await runGit(['merge-file', '-p', '-q', await file('ours', ours), await file('base', base), await file('theirs', theirs)], { cwd: root, okCodes: Array.from({ length: 256 }, (_, i) => i) });
    return { code: r.code, stdout: r.stdout };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Each path's mode and blob in commit `head` (absent paths, or no commit yet: not in the map). */
async function headEntries(root: string, head: string, paths: string[]): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  if (!head) return out;
  const r = await runGit(['ls-tree', '-z', head, '--', ...paths.map(literalPathspec)], { cwd: root });
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    // `<mode> <type> <blob>\t<path>`
    const m = /^(\d+) \w+ ([0-9a-f]+)\t([\s\S]*)$/.exec(rec);
    if (m) out.set(m[3]!, { mode: m[1]!, blob: m[2]! });
  }
  return out;
}

export interface RevertResult {
  files: string[];
  /** The ref holding the failed attempt (a commit of the working tree before the revert). */
  saved_as: string | null;
  /** A command that brings the attempt's files back, or null when nothing was saved. */
  restore_command: string | null;
  skipped: Array<{ path: string; reason: string }>;
}

export interface AttemptRef {
  /** e.g. `refs/ralf/attempts/01-02/task-3/20261123T213500123Z` (made unique if taken). */
  ref: string;
  message: string;
}

/**
 * Restores each path to its content in its base tree (`bases`: path → the snapshot taken
 * before the agent first changed it). The working tree before the restore is first kept as
 * a commit under `keep.ref`, so nothing the agent wrote is lost.
 */
export async function restorePaths(root: string, bases: Map<string, string>, keep: AttemptRef, snapshotOptions: SnapshotOptions = {}): Promise<RevertResult> {
  const none: RevertResult = { files: [], saved_as: null, restore_command: null, skipped: [] };
  if (bases.size === 0) return none;
  const now = await snapshotWorkingTree(root, snapshotOptions);
  if (now === null) return none;
  const byBase = new Map<string, string[]>();
  for (const [path, base] of bases) byBase.set(base, [...(byBase.get(base) ?? []), path]);
  const differing: Array<{ base: string; changes: PathChange[] }> = [];
  for (const [base, paths] of byBase) {
    const changes = await pathChanges(root, base, now, paths);
    if (changes.length > 0) differing.push({ base, changes });
  }
  if (differing.length === 0) return none;

  // The attempt holds HEAD plus only the paths being restored, never the rest of the working tree:
  // the user's untracked notes must not ride along in a ref that `git push --mirror` would send.
  const ref = await keepTreeUnderRef(root, await attemptTree(root, differing.flatMap((d) => d.changes)), keep.ref, keep.message);
  const result: RevertResult = { files: [], saved_as: ref, restore_command: null, skipped: [] };
  for (const { base, changes } of differing) {
    const r = await restoreTree(root, base, changes.map((c) => c.path), snapshotOptions);
    result.files.push(...r.restored, ...r.removed);
    result.skipped.push(...r.skipped);
  }
  result.files.sort();
  const inAttempt = differing.flatMap((d) => d.changes.filter((c) => c.new_mode !== ABSENT_MODE && c.new_mode !== GITLINK).map((c) => c.path)).sort();
  result.restore_command = restoreCommand(root, ref, inAttempt);
  return result;
}

/** HEAD's tree with `changes` applied as they are now (a removal removes): what an attempt ref keeps. */
async function attemptTree(root: string, changes: PathChange[]): Promise<string> {
  const head = await readHead(root);
  const info = changes.filter((c) => c.new_mode !== GITLINK && c.old_mode !== GITLINK).map((c) => (c.new_mode === ABSENT_MODE ? `0 ${'0'.repeat(40)}\t${c.path}` : `${c.new_mode} ${c.new_blob}\t${c.path}`)).join('\n');
  return withTempIndex(root, 'empty', async (env) => {
    if (head) await runGit(['read-tree', head], { cwd: root, env });
    if (info) await runGit(['update-index', '--index-info'], { cwd: root, env, input: `${info}\n` });
    return gitText(['write-tree'], { cwd: root, env });
  });
}

/**
 * Remotes configured as push mirrors (`git remote add --mirror=push`, `remote.<name>.mirror`):
 * a plain `git push` to them sends every ref, `refs/ralf/` included.
 */
export async function pushMirrorRemotes(root: string): Promise<string[]> {
  const r = await runGit(['config', '--get-regexp', '^remote\\..*\\.mirror$'], { cwd: root, okCodes: [0, 1] });
  return r.stdout
    .toString('utf8')
    .split('\n')
    .map((l) => /^remote\.(.+)\.mirror\s+(\S+)$/i.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null && /^(?:true|yes|on|1)$/i.test(m[2]!))
    .map((m) => m[1]!);
}

/** `refs/ralf/attempts/<plan>/task-<n>/<UTC time>`; unsafe characters of the plan id become `-`. */
export function attemptRefName(planId: string, task: number | null, at: Date): string {
  const plan = planId.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|\.+$|\.lock$/g, '') || 'plan';
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `refs/ralf/attempts/${plan}/${task === null ? 'plan' : `task-${task}`}/${stamp}`;
}

/** `git restore --source=<ref> -- <files>` (with `-C <root>` when not run from the root), shell-quoted. */
export function restoreCommand(root: string, ref: string, files: string[], cwd = process.cwd()): string | null {
  if (files.length === 0) return null;
  const where = cwd === root ? [] : ['-C', root];
  return ['git', ...where, 'restore', `--source=${ref}`, '--', ...files.map(readablePathspec)].map(shellQuote).join(' ');
}

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs git in its own process group with a time limit: a hook that hangs (or waits for a
 * passphrase) is killed with everything it started (SIGTERM, SIGKILL 3 s later).
 */
function gitWithTimeout(args: string[], cwd: string, extraEnv: Record<string, string>, timeoutMs: number): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_PREFIX', 'GIT_COMMON_DIR', 'GIT_NAMESPACE']) delete env[key];
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0' }, extraEnv);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += c.toString('utf8');
    });
    let timedOut = false;
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        /* gone */
      }
    };
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      hard = setTimeout(() => kill('SIGKILL'), 3000);
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new GitError(args, null, e.message));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (hard) clearTimeout(hard);
      // Whatever a killed hook left in the group goes too.
      if (timedOut) kill('SIGKILL');
      if (timedOut) return reject(new GitError(args, null, `timed out after ${Math.round(timeoutMs / 1000)} s (a hook that hangs or waits for input?); killed`));
      if (code !== 0) return reject(new GitError(args, code, stderr));
      resolve();
    });
  });
}
