import { rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles } from '../../src/git/diff.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { makeRepo, write } from './helpers.js';

const long = (tag: string) => Array.from({ length: 20 }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

describe('changedFiles', () => {
  it('lists added, modified, deleted and renamed files', async () => {
    const root = makeRepo({ 'keep.txt': 'k\n', 'mod.txt': 'm1\n', 'del.txt': 'd\n', 'old/name.ts': long('moved') });
    const from = (await snapshotWorkingTree(root))!;
    write(root, { 'mod.txt': 'm2\n', 'add.txt': 'a\n', '.planning/ralf/s.json': '{}' });
    rmSync(join(root, 'del.txt'));
    renameSync(join(root, 'old'), join(root, 'new'));
    const to = (await snapshotWorkingTree(root))!;

    const changes = await changedFiles(root, from, to);
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { status: 'A', path: 'add.txt' },
      { status: 'D', path: 'del.txt' },
      { status: 'M', path: 'mod.txt' },
      { status: 'R', path: 'new/name.ts', old_path: 'old/name.ts' },
    ]);
    expect(await changedFiles(root, from, to, ['mod.txt', 'add.txt'])).toEqual([
      { status: 'A', path: 'add.txt' },
      { status: 'M', path: 'mod.txt' },
    ]);
    expect(await changedFiles(root, from, to, ['new/'])).toEqual([{ status: 'A', path: 'new/name.ts' }]);
    expect(await changedFiles(root, from, to, [])).toEqual([]);
    expect(await changedFiles(root, from, from)).toEqual([]);
  });
});
