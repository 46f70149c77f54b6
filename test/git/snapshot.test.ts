import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotWarnings, snapshotWorkingTree, takeSnapshot, type SnapshotOptions } from '../../src/git/snapshot.js';
import { removeDeadWritersIndexes } from '../../src/git/temp-index.js';
import { PRIVATE_INDEX } from '../../src/git/private-index.js';
import { tempDir } from '../helpers/cli.js';
import { commitAll, git, makeRepo, write } from './helpers.js';

function treePaths(root: string, tree: string): string[] {
  return git(root, 'ls-tree', '-r', '--name-only', tree).split('\n').filter(Boolean).sort();
}

/**
 * A small index is listed by one git process, a big one by two at once (see listChanges in
 * snapshot.ts): every scenario runs both ways.
 */
const LISTINGS = [
  ['one git process (a small index)', {}],
  ['two git processes at once (a big index)', { parallelAboveEntries: 0 }],
] as const;

describe.each(LISTINGS)('snapshotWorkingTree, listing with %s', (_name, listing) => {
  const snap = (root: string, options: SnapshotOptions = {}) => snapshotWorkingTree(root, { ...listing, ...options });
  it('returns null outside a git repository', async () => {
    expect(await snap(tempDir())).toBeNull();
  });

  it('captures tracked changes and untracked files, not ignored files or .planning/ralf', async () => {
    const root = makeRepo({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'a1\n',
      'src/b.ts': 'b1\n',
      '.planning/ralf/tracked.json': '{}\n',
      '.planning/STATE.md': 'state\n',
    });
    write(root, {
      'src/a.ts': 'a2\n',
      'src/new.ts': 'new\n',
      'dist/out.js': 'built\n',
      'debug.log': 'log\n',
      '.planning/ralf/01-01.json': '{"x":1}\n',
    });
    rmSync(join(root, 'src/b.ts'));
    const tree = await snap(root);
    expect(tree).toMatch(/^[0-9a-f]{40}$/);
    expect(treePaths(root, tree!)).toEqual(['.gitignore', '.planning/STATE.md', 'src/a.ts', 'src/new.ts']);
    expect(git(root, 'cat-file', 'blob', `${tree}:src/a.ts`)).toBe('a2');
    // Files on disk untouched.
    expect(readFileSync(join(root, 'dist/out.js'), 'utf8')).toBe('built\n');
    expect(readFileSync(join(root, 'src/new.ts'), 'utf8')).toBe('new\n');
  });

  it('leaves the user index byte-for-byte unchanged, staged changes included', async () => {
    const root = makeRepo({ 'a.txt': '1\n', 'b.txt': '1\n' });
    write(root, { 'a.txt': 'staged\n' });
    git(root, 'add', 'a.txt');
    write(root, { 'a.txt': 'worktree\n', 'c.txt': 'untracked\n' });
    const indexBefore = readFileSync(join(root, '.git/index'));
    const cachedBefore = git(root, 'diff', '--cached', '--name-only');
    const statusBefore = git(root, 'status', '--porcelain');

    const tree = await snap(root);
    expect(git(root, 'cat-file', 'blob', `${tree}:a.txt`)).toBe('worktree');
    expect(treePaths(root, tree!)).toEqual(['a.txt', 'b.txt', 'c.txt']);

    expect(readFileSync(join(root, '.git/index')).equals(indexBefore)).toBe(true);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe(cachedBefore);
    expect(git(root, 'status', '--porcelain')).toBe(statusBefore);
    expect(cachedBefore).toBe('a.txt');
  });

  it('is stable for an unchanged tree and changes with content', async () => {
    const root = makeRepo({ 'a.txt': '1\n' });
    const first = await snap(root);
    expect(await snap(root)).toBe(first);
    expect(first).toBe(git(root, 'rev-parse', 'HEAD^{tree}'));
    // The loop's own state never changes the snapshot.
    write(root, { '.planning/ralf/x.json': '{}' });
    expect(await snap(root)).toBe(first);
    writeFileSync(join(root, 'a.txt'), '2\n');
    expect(await snap(root)).not.toBe(first);
  });

  it('sees a same-size edit made in the second its private index was written (git racy-clean check)', async () => {
    // Stat data alone cannot tell the edit apart: same size, same inode, same mtime, ctime
    // ignored. Only the "entry is not older than the index" rule makes git look at content,
    // so the private index must keep the time git wrote it (it is never copied afterwards).
    const root = makeRepo();
    git(root, 'config', 'core.trustctime', 'false');
    const past = new Date('2024-01-01T00:00:00Z');
    write(root, { 'a.txt': '1\n' });
    utimesSync(join(root, 'a.txt'), past, past);
    git(root, 'add', 'a.txt');
    utimesSync(join(root, '.git/index'), past, past);
    const before = await snap(root);
    utimesSync(join(root, '.git', PRIVATE_INDEX), past, past);
    writeFileSync(join(root, 'a.txt'), '2\n');
    utimesSync(join(root, 'a.txt'), past, past);
    const after = await snap(root);
    expect(after).not.toBe(before);
    expect(git(root, 'cat-file', 'blob', `${after}:a.txt`)).toBe('2');
  });

  it('works in a repository without commits or index', async () => {
    const root = makeRepo();
    expect(await snap(root)).toBe(git(root, 'hash-object', '-t', 'tree', '/dev/null'));
    write(root, { 'x.txt': 'x\n' });
    const tree = await snap(root);
    expect(treePaths(root, tree!)).toEqual(['x.txt']);
    expect(git(root, 'status', '--porcelain')).toBe('?? x.txt');
  });
  it('follows deletions, renames, a file turned directory and a new .gitignore', async () => {
    const root = makeRepo({ 'a.txt': 'a\n', 'keep.txt': 'k\n' });
    write(root, { 'notes.txt': 'n\n', 'gen/out.js': 'o\n', 'x': 'file\n' });
    await snap(root);
    rmSync(join(root, 'a.txt'));
    rmSync(join(root, 'x'));
    write(root, { 'b.txt': 'a\n', 'x/inner.txt': 'dir now\n', '.gitignore': 'gen/\n' });
    const tree = await snap(root);
    expect(treePaths(root, tree!)).toEqual(['.gitignore', 'b.txt', 'keep.txt', 'notes.txt', 'x/inner.txt']);
    // The same as a snapshot from scratch would give.
    rmSync(join(root, '.git', PRIVATE_INDEX));
    expect(await snap(root)).toBe(tree);
  });

  it('an ignored file the user tracks stays in the snapshot when .gitignore changes', async () => {
    const root = makeRepo({ 'config.local': 'tracked\n', 'a.txt': 'a\n' });
    await snap(root);
    write(root, { '.gitignore': 'config.local\n' });
    expect(treePaths(root, (await snap(root))!)).toEqual(['.gitignore', 'a.txt', 'config.local']);
  });

  it('works for a project in a subdirectory; no project\'s .planning/ralf is ever in it (they share the private index)', async () => {
    const root = makeRepo({ 'app/src/a.ts': 'a\n', 'lib/b.ts': 'b\n' });
    write(root, { 'app/.planning/ralf/state.json': '{}', 'app/.planning/PLAN.md': 'p\n', 'lib/new.ts': 'n\n', 'lib/.planning/ralf/other.json': '{}' });
    const tree = await snap(join(root, 'app'));
    expect(treePaths(root, tree!)).toEqual(['app/.planning/PLAN.md', 'app/src/a.ts', 'lib/b.ts', 'lib/new.ts']);
    expect(await snap(join(root, 'lib'))).toBe(tree);
  });

  it('takes a nested repository in as its commit (a gitlink), not its files; a new commit there changes the snapshot', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const nested = join(root, 'vendor', 'lib');
    mkdirSync(nested, { recursive: true });
    git(nested, 'init', '-q');
    commitAll(nested, { 'x.txt': 'x\n' });
    const first = (await snap(root))!;
    expect(git(root, 'ls-tree', '-r', first)).toContain(`160000 commit ${git(nested, 'rev-parse', 'HEAD')}\tvendor/lib`);
    // Uncommitted work inside it is that repository's business; its HEAD is what the tree records.
    write(nested, { 'x.txt': 'dirty\n' });
    expect(await snap(root)).toBe(first);
    const head = commitAll(nested, { 'x.txt': 'x2\n' });
    const second = (await snap(root))!;
    expect(git(root, 'ls-tree', second, 'vendor/lib')).toContain(head);
  });

});

describe('the private index', () => {
  it('a big index: a file touched without a content change is read once, then known by its stat data again', async () => {
    const root = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    write(root, { 'u.txt': 'u\n' });
    const big = { parallelAboveEntries: 0 };
    const first = await snapshotWorkingTree(root, big);
    // A tool that rewrites files with the same bytes (a formatter, a build, a checkout and back).
    const later = new Date(Date.now() + 5_000);
    for (const f of ['a.txt', 'u.txt']) utimesSync(join(root, f), later, later);
    const privateEnv = { ...process.env, GIT_INDEX_FILE: join(root, '.git', PRIVATE_INDEX) };
    const statDirty = () => execFileSync('git', ['diff-files', '--name-only'], { cwd: root, env: privateEnv, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(statDirty()).toEqual(['a.txt', 'u.txt']);
    expect(await snapshotWorkingTree(root, big)).toBe(first);
    expect(statDirty()).toEqual([]);
  });

  it('persists in the git dir between snapshots; work indexes live only while one runs', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    write(root, { 'b.txt': 'b\n' });
    const before = readFileSync(join(root, '.git', 'index'));
    const trees = await Promise.all([snapshotWorkingTree(root), snapshotWorkingTree(root)]);
    expect(trees[0]).toBe(trees[1]);
    expect(readdirSync(join(root, '.git')).filter((n) => n.startsWith('ralf-index-'))).toEqual([]);
    expect(readFileSync(join(root, '.git', 'index'))).toEqual(before);
    // The private index holds the untracked file too: git's stat cache for it.
    const privateEnv = { ...process.env, GIT_INDEX_FILE: join(root, '.git', PRIVATE_INDEX) };
    expect(execFileSync('git', ['ls-files'], { cwd: root, env: privateEnv, encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual(['a.txt', 'b.txt']);
    expect(await snapshotWorkingTree(root)).toBe(trees[0]);
  });

  it('survives `git gc --prune=now` deleting what only the private index refers to: rebuilt once from the user index', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    write(root, { 'untracked.txt': 'u\n', 'src/new.txt': 'n\n' });
    const first = (await snapshotWorkingTree(root))!;
    const exists = (id: string) => spawnSync('git', ['cat-file', '-e', id], { cwd: root }).status === 0;
    git(root, 'gc', '--quiet', '--prune=now');
    expect(exists(first)).toBe(false);
    // Unchanged tree: the kept tree id is not trusted once its object is gone.
    expect(await snapshotWorkingTree(root)).toBe(first);
    expect(exists(first)).toBe(true);
    // A change: write-tree would need the pruned blobs of the unchanged untracked files.
    git(root, 'gc', '--quiet', '--prune=now');
    write(root, { 'a.txt': 'a2\n' });
    const third = (await snapshotWorkingTree(root))!;
    expect(treePaths(root, third)).toEqual(['a.txt', 'src/new.txt', 'untracked.txt']);
    expect(git(root, 'show', `${third}:untracked.txt`)).toBe('u');
  });

  it('stages thousands of new files into one pack, not a loose object each', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) files[`gen/d${i % 15}/f${i}.js`] = `export const v = ${i};\n`;
    write(root, files);
    const tree = (await snapshotWorkingTree(root))!;
    expect(treePaths(root, tree)).toHaveLength(1501);
    const objects = join(root, '.git', 'objects');
    const loose = readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d)).reduce((n, d) => n + readdirSync(join(objects, d)).length, 0);
    expect(loose).toBeLessThan(50); // the trees, and the first commit's objects
    expect(readdirSync(join(objects, 'pack')).filter((f) => f.endsWith('.pack')).length).toBe(1);
    expect(git(root, 'show', `${tree}:gen/d7/f7.js`)).toBe('export const v = 7;');
  });

  it('an unchanged working tree is answered from the kept tree, without writing the index again', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    write(root, { 'b.txt': 'b\n' });
    const first = await snapshotWorkingTree(root);
    const privateIndex = join(root, '.git', PRIVATE_INDEX);
    const kept = statSync(privateIndex);
    expect(readFileSync(`${privateIndex}.tree`, 'utf8')).toBe(`${first} ${kept.ino} ${kept.size} ${kept.mtimeMs}\n`);
    expect(await snapshotWorkingTree(root)).toBe(first);
    expect(statSync(privateIndex).ino).toBe(kept.ino);
    // A description that does not match the private index is not trusted.
    writeFileSync(`${privateIndex}.tree`, `${'0'.repeat(40)} 1 2 3\n`);
    expect(await snapshotWorkingTree(root)).toBe(first);
  });

  it('left behind by a killed ralf is removed by a later snapshot, once it is old and its process is gone', () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const gitDir = join(root, '.git');
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const leftovers = [`ralf-index-${dead}-abc123`, `ralf-index-${dead}-abc123.lock`, `ralf-index-${process.pid}-def456`];
    for (const n of leftovers) writeFileSync(join(gitDir, n), 'x');
    // Young: a process in another PID namespace may still be using it.
    removeDeadWritersIndexes(gitDir);
    expect(readdirSync(gitDir).filter((n) => n.startsWith('ralf-index-')).sort()).toEqual(leftovers.sort());
    removeDeadWritersIndexes(gitDir, Date.now() + 61_000);
    // Only the live process's index stays.
    expect(readdirSync(gitDir).filter((n) => n.startsWith('ralf-index-'))).toEqual([`ralf-index-${process.pid}-def456`]);
  });
});

describe.each(LISTINGS)('untracked files above the size cap, listing with %s', (_name, listing) => {
  const take = (root: string, options: SnapshotOptions = {}) => takeSnapshot(root, { ...listing, ...options });
  const MB = 1024 * 1024;
  /** A sparse file: git still reads every byte of it. */
  function sized(root: string, path: string, bytes: number) {
    const fd = openSync(join(root, path), 'w');
    ftruncateSync(fd, bytes);
    closeSync(fd);
  }
  const looseObjects = (root: string) => git(root, 'count-objects').split(' ')[0];

  it('are left out and listed; a tracked big file stays in; nothing of them reaches .git', async () => {
    const root = makeRepo({ 'a.txt': 'a\n', 'tracked.bin': 'small\n' });
    sized(root, 'tracked.bin', 3 * MB);
    sized(root, 'huge.bin', 3 * MB);
    write(root, { 'small.txt': 's\n' });
    const objects = looseObjects(root);
    const snap = (await take(root, { maxUntrackedFileBytes: 2 * MB }))!;
    expect(snap.skipped_large_files).toEqual([{ path: 'huge.bin', bytes: 3 * MB }]);
    expect(treePaths(root, snap.tree)).toEqual(['a.txt', 'small.txt', 'tracked.bin']);
    expect(snapshotWarnings(snap)[0]).toContain('huge.bin (3 MB)');
    // Three new blobs: small.txt, tracked.bin and the tree's; no blob of huge.bin ever.
    const again = (await take(root, { maxUntrackedFileBytes: Promise.resolve(2 * MB) }))!;
    expect(again).toEqual(snap);
    expect(git(root, 'cat-file', '-e', `${snap.tree}:small.txt`)).toBe('');
    expect(Number(looseObjects(root)) - Number(objects)).toBe(3);
  });

  it('an untracked file that grows past the cap leaves the snapshot; back under it, it returns', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    write(root, { 'app.log': 'line\n' });
    const first = (await take(root, { maxUntrackedFileBytes: MB }))!;
    expect(treePaths(root, first.tree)).toEqual(['a.txt', 'app.log']);
    sized(root, 'app.log', 2 * MB);
    const grown = (await take(root, { maxUntrackedFileBytes: MB }))!;
    expect(treePaths(root, grown.tree)).toEqual(['a.txt']);
    expect(grown.skipped_large_files).toEqual([{ path: 'app.log', bytes: 2 * MB }]);
    write(root, { 'app.log': 'line\n' });
    expect((await take(root, { maxUntrackedFileBytes: MB }))!.tree).toBe(first.tree);
  });

  it('the default cap is 50 MB', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    sized(root, 'under.bin', 50 * MB);
    sized(root, 'over.bin', 50 * MB + 1);
    const snap = (await take(root))!;
    expect(snap.skipped_large_files.map((f) => f.path)).toEqual(['over.bin']);
    expect(treePaths(root, snap.tree)).toEqual(['a.txt', 'under.bin']);
  });
});

describe('untracked file count', () => {
  it('counts untracked, not-ignored files and warns above a few thousand', async () => {
    const root = makeRepo({ 'a.txt': 'a\n', '.gitignore': 'node_modules/\n' });
    write(root, { 'node_modules/x.js': 'ignored\n', 'notes.txt': 'n\n' });
    const few = (await takeSnapshot(root))!;
    expect(few.untracked_files).toBe(1);
    expect(snapshotWarnings(few)).toEqual([]);
    for (let d = 0; d < 51; d++) {
      mkdirSync(join(root, 'out', `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(root, 'out', `d${d}`, `${f}.js`), '1\n');
    }
    const many = (await takeSnapshot(root))!;
    expect(many.untracked_files).toBe(5101);
    const [warning] = snapshotWarnings(many);
    expect(warning).toContain('5,101 untracked files are not ignored');
    expect(warning).toContain('add them to .gitignore');
  });
});
