import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles } from '../../src/git/diff.js';
import { rule4Findings } from '../../src/git/rule4.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { taskDiff } from '../../src/git/task-diff.js';
import { makeRepo, write } from './helpers.js';

const snap = async (root: string) => (await snapshotWorkingTree(root))!;

describe('taskDiff (one git process)', () => {
  it('lists the same changes and Rule 4 findings as changedFiles and rule4Findings', async () => {
    const root = makeRepo({
      'package.json': JSON.stringify({ dependencies: { zod: '^4' } }),
      'src/a.ts': 'a\n',
      'src/old name.ts': 'moved\n'.repeat(20),
      'docs/gone.md': 'gone\n',
      'keep.txt': 'k\n',
    });
    const fromTree = await snap(root);
    write(root, { 'src/a.ts': 'a2\n', 'package.json': JSON.stringify({ dependencies: { zod: '^4', left: '^1' } }), 'db/migrations/001_init.sql': 'create table t();\n' });
    rmSync(join(root, 'docs/gone.md'));
    renameSync(join(root, 'src/old name.ts'), join(root, 'src/new name.ts'));
    const toTree = await snap(root);

    for (const taskFiles of [['src/a.ts'], ['src/'], [], ['nothing/here.ts']]) {
      const declaredFiles = ['keep.txt'];
      const got = await taskDiff({ root, fromTree, toTree, taskFiles, declaredFiles });
      expect(got.changes).toEqual(await changedFiles(root, fromTree, toTree));
      expect(got.findings).toEqual(await rule4Findings({ root, fromTree, toTree, taskFiles, declaredFiles }));
    }
    const got = await taskDiff({ root, fromTree, toTree, taskFiles: ['src/a.ts'], declaredFiles: [] });
    expect(got.changes).toEqual(expect.arrayContaining([{ status: 'R', path: 'src/new name.ts', old_path: 'src/old name.ts' }, { status: 'D', path: 'docs/gone.md' }]));
    expect(got.findings).toEqual(expect.arrayContaining(['new dependency in package.json: left (dependencies)', 'new migration file: db/migrations/001_init.sql']));
  });

  it("hashes the task files' changes: null when none, stable, moved by their content only", async () => {
    const root = makeRepo({ 'src/a.txt': '1\n', 'b.txt': '1\n', 'src/r.txt': 'rename me\n'.repeat(20) });
    const start = await snap(root);
    const hash = async (to: string, taskFiles: string[]) => (await taskDiff({ root, fromTree: start, toTree: to, taskFiles, declaredFiles: [] })).diffHash;
    expect(await hash(start, ['src/a.txt'])).toBeNull();
    expect(await hash(start, [])).toBeNull();

    write(root, { 'src/a.txt': '2\n' });
    const it1 = await snap(root);
    const h1 = await hash(it1, ['src/a.txt']);
    expect(h1).toMatch(/^[0-9a-f]{28}$/);
    expect(await hash(it1, ['src/a.txt'])).toBe(h1);
    expect(await hash(it1, ['src/'])).toBe(h1);
    expect(await hash(it1, ['src/*.txt'])).toBe(h1);

    // A change outside the task's files does not move its hash; with no <files>, everything counts.
    write(root, { 'b.txt': '2\n' });
    const it2 = await snap(root);
    expect(await hash(it2, ['src/a.txt'])).toBe(h1);
    expect(await hash(it2, [])).not.toBe(await hash(it1, []));

    write(root, { 'src/a.txt': '3\n' });
    const it3 = await snap(root);
    expect(await hash(it3, ['src/a.txt'])).not.toBe(h1);
    expect(await hash(it3, ['c.txt'])).toBeNull();
    // Back to the first edit: the same code, the same hash.
    write(root, { 'src/a.txt': '2\n', 'b.txt': '1\n' });
    expect(await hash(await snap(root), ['src/a.txt'])).toBe(h1);

    // Renaming a task file away is a change of the task's files.
    renameSync(join(root, 'src/r.txt'), join(root, 'moved.txt'));
    expect(await hash(await snap(root), ['src/r.txt'])).not.toBeNull();
  });
});
