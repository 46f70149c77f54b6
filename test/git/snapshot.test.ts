import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { removeDeadWritersIndexes } from '../../src/git/temp-index.js';
import { tempDir } from '../helpers/cli.js';
import { git, makeRepo, write } from './helpers.js';

function treePaths(root: string, tree: string): string[] {
  return git(root, 'ls-tree', '-r', '--name-only', tree).split('\n').filter(Boolean).sort();
}

describe('snapshotWorkingTree', () => {
  it('returns null outside a git repository', async () => {
    expect(await snapshotWorkingTree(tempDir())).toBeNull();
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
    const tree = await snapshotWorkingTree(root);
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

    const tree = await snapshotWorkingTree(root);
    expect(git(root, 'cat-file', 'blob', `${tree}:a.txt`)).toBe('worktree');
    expect(treePaths(root, tree!)).toEqual(['a.txt', 'b.txt', 'c.txt']);

    expect(readFileSync(join(root, '.git/index')).equals(indexBefore)).toBe(true);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe(cachedBefore);
    expect(git(root, 'status', '--porcelain')).toBe(statusBefore);
    expect(cachedBefore).toBe('a.txt');
  });

  it('is stable for an unchanged tree and changes with content', async () => {
    const root = makeRepo({ 'a.txt': '1\n' });
    const first = await snapshotWorkingTree(root);
    expect(await snapshotWorkingTree(root)).toBe(first);
    expect(first).toBe(git(root, 'rev-parse', 'HEAD^{tree}'));
    // The loop's own state never changes the snapshot.
    write(root, { '.planning/ralf/x.json': '{}' });
    expect(await snapshotWorkingTree(root)).toBe(first);
    writeFileSync(join(root, 'a.txt'), '2\n');
    expect(await snapshotWorkingTree(root)).not.toBe(first);
  });

  it('sees a same-size edit that only the racy-clean check of git can catch', async () => {
    // Stat data alone cannot tell the edit apart: same size, same inode, same mtime, ctime
    // ignored. Only the "entry is not older than the index" rule makes git look at content.
    const root = makeRepo();
    git(root, 'config', 'core.trustctime', 'false');
    const past = new Date('2024-01-01T00:00:00Z');
    write(root, { 'a.txt': '1\n' });
    utimesSync(join(root, 'a.txt'), past, past);
    git(root, 'add', 'a.txt');
    utimesSync(join(root, '.git/index'), past, past);
    const before = await snapshotWorkingTree(root);
    writeFileSync(join(root, 'a.txt'), '2\n');
    utimesSync(join(root, 'a.txt'), past, past);
    const after = await snapshotWorkingTree(root);
    expect(after).not.toBe(before);
    expect(git(root, 'cat-file', 'blob', `${after}:a.txt`)).toBe('2');
  });

  it('works in a repository without commits or index', async () => {
    const root = makeRepo();
    expect(await snapshotWorkingTree(root)).toBe(git(root, 'hash-object', '-t', 'tree', '/dev/null'));
    write(root, { 'x.txt': 'x\n' });
    const tree = await snapshotWorkingTree(root);
    expect(treePaths(root, tree!)).toEqual(['x.txt']);
    expect(git(root, 'status', '--porcelain')).toBe('?? x.txt');
  });
});

describe('the temp index', () => {
  it('lives beside the real index only while a snapshot runs', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    write(root, { 'b.txt': 'b\n' });
    const before = readFileSync(join(root, '.git', 'index'));
    await Promise.all([snapshotWorkingTree(root), snapshotWorkingTree(root)]);
    expect(readdirSync(join(root, '.git')).filter((n) => n.startsWith('ralf-index-'))).toEqual([]);
    expect(readFileSync(join(root, '.git', 'index'))).toEqual(before);
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
