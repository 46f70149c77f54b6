import { closeSync, existsSync, lstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { forgetPrivateIndex, openWorkIndex } from './private-index.js';
import { findDotGit } from './repo.js';
import { GitError, runGit, runGitSequence } from './run-git.js';
import { RALF_STATE_DIR } from './pathspec.js';
import { groupThousands } from '../compare-text.js';

/** Untracked files larger than this are left out of a snapshot unless configured otherwise. */
export const DEFAULT_MAX_UNTRACKED_FILE_MB = 50;
const DEFAULT_MAX_UNTRACKED_FILE_BYTES = DEFAULT_MAX_UNTRACKED_FILE_MB * 1024 * 1024;
/**
 * `snapshot.max_untracked_file_mb` in bytes (unset: the default). Every snapshot of a project
 * (a verify's, `ralf run`'s around each agent, a restore's) must use the same cap: they share
 * the private index, and a file one snapshot leaves out and the next takes in would be read,
 * hashed and stored again each time.
 */
export function untrackedFileCapBytes(megabytes: number | undefined): number {
  return (megabytes ?? DEFAULT_MAX_UNTRACKED_FILE_MB) * 1024 * 1024;
}
/** A snapshot staging more files than this writes their blobs into one pack (see takeSnapshot). */
const PACK_ABOVE_FILES = 1000;
/**
 * Above this many index entries a snapshot lists changes with two git processes at once (see
 * listChanges). Below it the second process costs more than it saves: each is ~7 ms of CPU
 * here, and a single-threaded pass over 5,000 entries ~7 ms (one lstat ~1.4 µs).
 */
const PARALLEL_ABOVE_ENTRIES = 5000;
/** More untracked, not-ignored files than this earn a warning in the verify answer. */
export const UNTRACKED_WARNING_FILES = 5000;

export interface SnapshotOptions {
  /**
   * Untracked files larger than this are left out of the tree (git would read, hash and
   * compress them on every change, and keep every version in `.git`). A promise: the
   * caller's config may still be loading while git lists the working tree.
   */
  maxUntrackedFileBytes?: number | Promise<number> | undefined;
  /** Tests only: the index size above which changes are listed by two processes at once. */
  parallelAboveEntries?: number;
}

export interface WorkingTreeSnapshot {
  /** The git tree of the working tree (see `takeSnapshot`). */
  tree: string;
  /** Untracked files above the size cap, left out of the tree (repository-relative paths). */
  skipped_large_files: Array<{ path: string; bytes: number }>;
  /** Untracked, not-ignored files in the tree (the private index's entries minus the user's). */
  untracked_files: number;
}

/** The tree only (see `takeSnapshot`); null outside a git working tree. */
export async function snapshotWorkingTree(root: string, options: SnapshotOptions = {}): Promise<string | null> {
  return (await takeSnapshot(root, options))?.tree ?? null;
}

/**
 * A git tree of the working tree as it is now: tracked files with their current content plus
 * untracked files that are not ignored, minus `.planning/ralf` (the loop's own state) and
 * minus untracked files above the size cap. The user's index and files are untouched (only
 * new blob objects are written to the object store).
 *
 * Its cost follows what changed, not the repository's size: staging happens in a private
 * index kept in the git dir (private-index.ts), so git re-reads only files whose stat data
 * changed since the last snapshot and files it has not seen. Three steps: list those (git,
 * against the private index: listChanges), size them (node), then stage exactly them and
 * write the tree (one git process, skipped when nothing changed since the snapshot that
 * kept the private index). Returns null outside a git working tree; throws `GitError` when git fails.
 */
export async function takeSnapshot(root: string, options: SnapshotOptions = {}): Promise<WorkingTreeSnapshot | null> {
  const repo = await locateRepo(root);
  if (repo === null) return null;
  const snapshot = await snapshotOf(repo, options);
  if (snapshot !== STALE) return snapshot;
  // The private index is a cache git's gc does not know about: objects only it refers to are
  // unreachable, and `git gc --prune=now` (or gc.pruneExpire, two weeks by default) deletes
  // them. Then it is rebuilt from the user's index, once: the cost of a first snapshot.
  forgetPrivateIndex(repo.realIndex);
  return (await snapshotOf(repo, options)) as WorkingTreeSnapshot;
}

/** A snapshot from the kept private index could not be completed: its objects are gone. */
const STALE = Symbol('stale private index');

async function snapshotOf(repo: Repo, options: SnapshotOptions): Promise<WorkingTreeSnapshot | typeof STALE> {
  const { top, realIndex } = repo;
  // Loop state (this project's, and any other project's in the same repository: they share
  // the private index) is never part of a snapshot.
  const stateSpec = `:(top,glob)**/${RALF_STATE_DIR}/**`;
  const specs = ['--', ':/', `:(exclude,top,glob)**/${RALF_STATE_DIR}/**`];

  const work = openWorkIndex(realIndex);
  try {
    const env = { GIT_INDEX_FILE: work.file };
    const listed = await listChanges(top, env, specs, indexEntries(work.file) > (options.parallelAboveEntries ?? PARALLEL_ABOVE_ENTRIES));
    const cap = (await options.maxUntrackedFileBytes) ?? DEFAULT_MAX_UNTRACKED_FILE_BYTES;

    const stage = new Set<string>();
    const unstage: string[] = [];
    const skipped: WorkingTreeSnapshot['skipped_large_files'] = [];
    const grown: Array<{ path: string; bytes: number }> = [];
    let newFiles = 0;
    const linkedDirs = new Map<string, boolean>();
    for (const entry of listed) {
      const path = entry.path.endsWith('/') ? entry.path.slice(0, -1) : entry.path; // a nested repository
      if (stage.has(path)) continue;
      const bytes = regularFileSize(top, path);
      // A tracked file under a directory that is now a symlink (the agent replaced `src/` with a
      // link): git refuses to stage a path "beyond a symbolic link". It left the tree; the link
      // itself is listed (and staged) as a new path, which replaces the directory's entries.
      if (entry.indexed && path.includes('/') && beyondSymlink(top, path, linkedDirs)) {
        unstage.push(path);
        continue;
      }
      if (bytes <= cap) {
        stage.add(path);
        if (!entry.indexed) newFiles++;
      } else if (!entry.indexed) skipped.push({ path, bytes });
      else grown.push({ path, bytes });
    }
    // A file the private index has that grew past the cap: still staged when the user
    // tracks it (leaving it out would look like a deletion), else dropped like any big one.
    if (grown.length > 0) {
      const tracked = new Set(nulList((await runGit(['ls-files', '-z', '--', ...grown.map((g) => literal(g.path))], { cwd: top })).stdout));
      for (const g of grown) {
        if (tracked.has(g.path)) stage.add(g.path);
        else {
          unstage.push(g.path);
          skipped.push(g);
        }
      }
    }
    // Files the private index has that are ignored now (a .gitignore changed) and that the
    // user does not track leave the snapshot, as they would leave `git status`.
    if ([...stage].some((p) => basename(p) === '.gitignore')) unstage.push(...(await newlyIgnored(top, env)));
    const dropState = work.seeded && mayTrackRalfState(work.file);

    // Nothing to stage: the tree of this index is known when it is the one the last snapshot kept.
    const known = stage.size === 0 && unstage.length === 0 && !dropState ? work.knownTree() : null;
    let tree = known;
    if (tree === null) {
      const steps: string[][] = [];
      // Thousands of new files (a first snapshot of a tree with many untracked ones) go into
      // one pack instead of a loose object each: 100k small files were 400 MB of .git/objects
      // loose, 6 MB packed, in the same CPU time; and thousands of unreachable loose objects
      // make git's auto-gc run (and warn) on the user's every commit. Above
      // core.bigFileThreshold git streams a blob into a pack; one update-index, one pack.
      // Counted over files new to the index only: entries re-staged because their stat data
      // changed mostly have their blob already, and streaming each one into a pack that git
      // then throws away cost 8.6 s against 1.4 s for 100k unchanged files.
      const packed = newFiles > PACK_ABOVE_FILES ? ['-c', 'core.bigFileThreshold=1'] : [];
      if (stage.size > 0) steps.push([...packed, 'update-index', '--add', '--remove', '--replace', '-z', '--stdin']);
      if (unstage.length > 0) steps.push(['update-index', '--force-remove', '--', ...unstage]);
      // The user's index may track the loop's own state: not part of any snapshot.
      if (dropState) steps.push(['rm', '-r', '-f', '-q', '--cached', '--ignore-unmatch', '--', stateSpec]);
      steps.push(['write-tree']);
      const input = stage.size > 0 ? `${[...stage].join('\0')}\0` : undefined;
      try {
        tree = (await runGitSequence(steps, { cwd: top, env, ...(input !== undefined ? { input } : {}) })).stdout.toString('utf8').trim();
      } catch (err) {
        // e.g. `invalid object … for 'path'`: a blob the kept index refers to was pruned.
        if (!work.seeded && err instanceof GitError) return STALE;
        throw err;
      }
    }
    // write-tree answers from the index's cached trees, and the kept tree is the last one
    // written: neither proves the object is still there after a gc.
    if (!work.seeded && !(await objectExists(repo, tree))) return STALE;
    const untrackedFiles = Math.max(0, indexEntries(work.file) - indexEntries(realIndex)) + skipped.length;
    // A known tree means no git process wrote the index: the private index and its tree are kept already.
    if (known === null) work.keep(tree);
    skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { tree, skipped_large_files: skipped, untracked_files: untrackedFiles };
  } finally {
    work.discard();
  }
}

/**
 * Readable notes on a snapshot for the verify answer: what was left out, and a warning
 * when the tree holds so many untracked files that every verify carries them along.
 */
export function snapshotWarnings(s: Pick<WorkingTreeSnapshot, 'skipped_large_files' | 'untracked_files'>): string[] {
  const out: string[] = [];
  if (s.skipped_large_files.length > 0) {
    const list = s.skipped_large_files.slice(0, 10).map((f) => `${f.path} (${megabytes(f.bytes)})`);
    const more = s.skipped_large_files.length > 10 ? ` and ${s.skipped_large_files.length - 10} more` : '';
    out.push(
      `left out of the snapshot, untracked and above snapshot.max_untracked_file_mb: ${list.join(', ')}${more}; ` +
        'the loop does not see their changes (add them to .gitignore, or raise the limit in .planning/config.json to include them)',
    );
  }
  if (s.untracked_files > UNTRACKED_WARNING_FILES) {
    out.push(
      `${groupThousands(s.untracked_files)} untracked files are not ignored (see \`git status --short\`); every snapshot ` +
        'carries them and they count as changed since the task started: add them to .gitignore, or commit the ones that belong in the repository',
    );
  }
  return out;
}

function megabytes(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/** A path to look at: an entry of the index (`indexed`) or a file the index does not have. */
interface Listed {
  path: string;
  indexed: boolean;
}

/**
 * Entries of the work index whose stat data changed or that are gone, then files it does not
 * have that are not ignored: entries first, so that a file that became a directory (or the
 * reverse) is removed before what replaces it is added.
 *
 * A small index: one `git ls-files`, one read of the index. A big one: two git processes at
 * once, `git diff-files` (its index preload lstats the entries on several threads, where
 * `ls-files --modified` lstats one after another) beside `git ls-files --others` (the
 * directory walk). diff-files also lists an entry whose stat data changed while its content
 * did not; staging it refreshes its stat data, so a tool that rewrites thousands of files with
 * the same bytes costs one read of them, not one every snapshot.
 */
async function listChanges(top: string, env: Record<string, string>, specs: string[], parallel: boolean): Promise<Listed[]> {
  if (!parallel) {
    const out = await runGit(['ls-files', '-z', '-t', '--modified', '--deleted', '--others', '--exclude-standard', ...specs], { cwd: top, env });
    const lines = nulList(out.stdout).map((line) => ({ path: line.slice(2), indexed: line[0] !== '?' }));
    return lines.sort((a, b) => Number(b.indexed) - Number(a.indexed));
  }
  const [changed, untracked] = await Promise.all([
    runGit(['diff-files', '-z', '--name-only', '--ignore-submodules=dirty', ...specs], { cwd: top, env }),
    runGit(['ls-files', '-z', '--others', '--exclude-standard', ...specs], { cwd: top, env }),
  ]);
  return [...nulList(changed.stdout).map((path) => ({ path, indexed: true })), ...nulList(untracked.stdout).map((path) => ({ path, indexed: false }))];
}

/** A pathspec matching exactly this path (no glob, no magic). */
function literal(path: string): string {
  return `:(top,literal)${path}`;
}

function nulList(out: Buffer): string[] {
  return out.length === 0 ? [] : out.toString('utf8').split('\0').filter((p) => p !== '');
}

/** Whether a directory on the way to `path` (root-relative) is a symlink (`seen`: per directory). */
function beyondSymlink(top: string, path: string, seen: Map<string, boolean>): boolean {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    let linked = seen.get(dir);
    if (linked === undefined) {
      try {
        linked = lstatSync(join(top, dir)).isSymbolicLink();
      } catch {
        linked = false;
      }
      seen.set(dir, linked);
    }
    if (linked) return true;
  }
  return false;
}

/** Size of a regular file; -1 for anything else (gone, a directory, a symlink: staged as they are). */
function regularFileSize(top: string, path: string): number {
  try {
    const st = lstatSync(join(top, path));
    return st.isFile() ? st.size : -1;
  } catch {
    return -1;
  }
}

/** Entries of the private index that are ignored now and not tracked by the user. */
async function newlyIgnored(top: string, env: Record<string, string>): Promise<string[]> {
  const ignored = nulList((await runGit(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], { cwd: top, env })).stdout);
  if (ignored.length === 0) return [];
  const tracked = new Set(nulList((await runGit(['ls-files', '-z', '--', ...ignored.map(literal)], { cwd: top })).stdout));
  return ignored.filter((p) => !tracked.has(p));
}

/** Entry count from an index file's header (0 when there is none). */
function indexEntries(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    const head = Buffer.alloc(12);
    return readSync(fd, head, 0, 12, 0) === 12 && head.toString('latin1', 0, 4) === 'DIRC' ? head.readUInt32BE(8) : 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * The top of the working tree and the user's index. An ordinary repository is found by
 * walking up to its `.git` directory, which saves a `git rev-parse` per snapshot; anything
 * else (a worktree or submodule, where `.git` is a file, or GIT_* variables that relocate
 * things) asks git.
 */
interface Repo {
  top: string;
  realIndex: string;
  /** The object store (`.git/objects`, or the common dir's for a worktree). */
  objects: string;
}

/** A loose object is one file check; otherwise (packed, or gone) git is asked. */
async function objectExists(repo: Repo, id: string): Promise<boolean> {
  if (existsSync(join(repo.objects, id.slice(0, 2), id.slice(2)))) return true;
  const r = await runGit(['cat-file', '-e', id], { cwd: repo.top, okCodes: [0, 1, 128] });
  return r.code === 0;
}

async function locateRepo(root: string): Promise<Repo | null> {
  const plain = plainRepo(root);
  if (plain) return plain;
  const probe = await runGit(['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--git-path', 'index', '--git-path', 'objects'], { cwd: root, okCodes: [0, 128] }).catch(() => null);
  if (probe === null || probe.code !== 0) return null;
  const [inside, top, index, objects] = probe.stdout.toString('utf8').split('\n');
  if (inside !== 'true' || !top || !index || !objects) return null;
  return { top, realIndex: resolve(root, index), objects: resolve(root, objects) };
}

function plainRepo(root: string): Repo | null {
  if (process.env.GIT_DIR || process.env.GIT_INDEX_FILE || process.env.GIT_WORK_TREE || process.env.GIT_CEILING_DIRECTORIES) return null;
  const dotGit = findDotGit(root);
  if (dotGit === null) return null;
  try {
    if (!statSync(dotGit).isDirectory() || !existsSync(join(dotGit, 'HEAD'))) return null;
    return { top: dirname(dotGit), realIndex: join(dotGit, 'index'), objects: join(dotGit, 'objects') };
  } catch {
    return null;
  }
}

/**
 * Whether the index may list files under `.planning/ralf/`. Index versions 2 and 3 store every
 * path in full, so the bytes tell; version 4 compresses paths, so assume yes.
 */
function mayTrackRalfState(indexFile: string): boolean {
  let buf: Buffer;
  try {
    buf = readFileSync(indexFile);
  } catch {
    return false; // no index yet: nothing tracked
  }
  const version = buf.length >= 8 ? buf.readUInt32BE(4) : 0;
  if (version !== 2 && version !== 3) return true;
  return buf.includes(`${RALF_STATE_DIR}/`);
}
