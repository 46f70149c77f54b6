import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreTree } from '../../src/git/restore.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { tempDir } from '../helpers/cli.js';
import { git, makeRepo, write } from './helpers.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

describe('restoreTree', () => {
  it('reverts modified, deleted and added files, keeping ignored files, loop state and the index', async () => {
    const root = makeRepo({ '.gitignore': 'node_modules/\n*.log\n', 'src/a.ts': 'a1\n', 'src/b.ts': 'b1\n', 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(root, 'run.sh'), 0o755);
    git(root, 'update-index', '--chmod=+x', 'run.sh');
    git(root, 'commit', '-q', '-m', 'exec');
    write(root, { 'notes.txt': 'untracked at snapshot\n', 'src/a.ts': 'a-uncommitted\n' });
    git(root, 'add', 'src/a.ts'); // a staged change the user has
    const snapshot = (await snapshotWorkingTree(root))!;
    const indexBefore = readFileSync(join(root, '.git/index'));

    // The failed iteration:
    write(root, {
      'src/a.ts': 'a-broken\n',
      'src/c.ts': 'new\n',
      'src/deep/new/d.ts': 'new\n',
      'notes.txt': 'edited\n',
      'node_modules/pkg/index.js': 'ignored\n',
      'build/out.log': 'ignored in a new dir\n',
      'build/tmp.txt': 'new, not ignored\n',
      '.planning/ralf/01-01.json': '{"iteration":2}\n',
    });
    rmSync(join(root, 'src/b.ts'));
    chmodSync(join(root, 'run.sh'), 0o644);

    const result = await restoreTree(root, snapshot);
    expect(result.removed).toEqual(['build/tmp.txt', 'src/c.ts', 'src/deep/new/d.ts']);
    expect(result.restored).toEqual(['notes.txt', 'run.sh', 'src/a.ts', 'src/b.ts']);
    expect(result.skipped).toEqual([]);

    expect(read(root, 'src/a.ts')).toBe('a-uncommitted\n');
    expect(read(root, 'src/b.ts')).toBe('b1\n');
    expect(read(root, 'notes.txt')).toBe('untracked at snapshot\n');
    expect(statSync(join(root, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync(join(root, 'src/c.ts'))).toBe(false);
    expect(existsSync(join(root, 'src/deep'))).toBe(false); // emptied directories pruned
    expect(read(root, 'node_modules/pkg/index.js')).toBe('ignored\n');
    expect(read(root, 'build/out.log')).toBe('ignored in a new dir\n');
    expect(read(root, '.planning/ralf/01-01.json')).toBe('{"iteration":2}\n');
    expect(readFileSync(join(root, '.git/index')).equals(indexBefore)).toBe(true);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('src/a.ts');
    expect(await snapshotWorkingTree(root)).toBe(snapshot);
  });

  it('limits the restore to paths', async () => {
    const root = makeRepo({ 'src/a.ts': 'a1\n', 'other.ts': 'o1\n' });
    const snapshot = (await snapshotWorkingTree(root))!;
    write(root, { 'src/a.ts': 'a2\n', 'src/n.ts': 'n\n', 'other.ts': 'o2\n', 'other-new.ts': 'x\n' });
    const result = await restoreTree(root, snapshot, ['src']);
    expect(result).toEqual({ restored: ['src/a.ts'], removed: ['src/n.ts'], skipped: [] });
    expect(read(root, 'other.ts')).toBe('o2\n');
    expect(existsSync(join(root, 'other-new.ts'))).toBe(true);
    expect(await restoreTree(root, snapshot, [])).toEqual({ restored: [], removed: [], skipped: [] });
    expect(read(root, 'other.ts')).toBe('o2\n');
  });

  it('never deletes an ignored file standing where a snapshot file must go', async () => {
    const root = makeRepo({ '.gitignore': 'cache\n', 'keep.txt': 'k\n' });
    write(root, { 'cache.txt': 'x\n' });
    const snapshot = (await snapshotWorkingTree(root))!;
    // Snapshot has cache.txt; now also a new dir 'gen' with an ignored file in place of a snapshot file.
    rmSync(join(root, 'keep.txt'));
    mkdirSync(join(root, 'keep.txt'));
    writeFileSync(join(root, 'keep.txt', 'cache'), 'ignored\n');
    const result = await restoreTree(root, snapshot);
    expect(result.skipped.map((s) => s.path)).toEqual(['keep.txt']);
    expect(read(root, 'keep.txt/cache')).toBe('ignored\n');
  });

  it('replaces a symlink without following it', async () => {
    const root = makeRepo({ 'a.txt': 'a\n' });
    const outside = tempDir('ralf-outside-');
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    const snapshot = (await snapshotWorkingTree(root))!;
    rmSync(join(root, 'a.txt'));
    symlinkSync(join(outside, 'target.txt'), join(root, 'a.txt'));
    symlinkSync(outside, join(root, 'linkdir'));
    const result = await restoreTree(root, snapshot);
    expect(result.restored).toEqual(['a.txt']);
    expect(result.removed).toEqual(['linkdir']);
    expect(read(root, 'a.txt')).toBe('a\n');
    expect(read(outside, 'target.txt')).toBe('outside\n');
    expect(existsSync(outside)).toBe(true);
  });

  it('works when the project root is a subdirectory of the repository', async () => {
    const repo = makeRepo({ 'outside.txt': 'o1\n', 'app/src/a.ts': 'a1\n' });
    const root = join(repo, 'app');
    const snapshot = (await snapshotWorkingTree(root))!;
    write(repo, { 'outside.txt': 'o2\n', 'app/src/a.ts': 'a2\n', 'app/src/b.ts': 'b\n' });
    const result = await restoreTree(root, snapshot, ['src/a.ts', 'src/b.ts']);
    expect(result).toEqual({ restored: ['src/a.ts'], removed: ['src/b.ts'], skipped: [] });
    expect(read(repo, 'outside.txt')).toBe('o2\n');
    expect(read(repo, 'app/src/a.ts')).toBe('a1\n');
  });

  it('throws outside a git repository', async () => {
    await expect(restoreTree(tempDir(), '4b825dc642cb6eb9a060e54bf8d69288fbee4904')).rejects.toThrow(/not inside a git working tree/);
  });
});
