import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles } from '../../src/git/diff.js';
import { rule4Findings } from '../../src/git/rule4.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { taskDiff, writtenBetween } from '../../src/git/task-diff.js';
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

  it('the progress key hashes every change since the start: null when none, stable, back to an earlier tree = the same key', async () => {
    const root = makeRepo({ 'src/a.txt': '1\n', 'b.txt': '1\n' });
    const start = await snap(root);
    const key = async (to: string, ignore?: Parameters<typeof taskDiff>[0]['ignore']) => (await taskDiff({ root, fromTree: start, toTree: to, taskFiles: ['src/a.txt'], declaredFiles: [], ignore })).diffHash;
    expect(await key(start)).toBeNull();

    write(root, { 'src/a.txt': '2\n' });
    const it1 = await snap(root);
    const h1 = await key(it1);
    expect(h1).toMatch(/^[0-9a-f]{28}$/);
    expect(await key(it1)).toBe(h1);

    // <files> is a hint, not a fence: a fix outside the task's files moves the key too.
    write(root, { 'b.txt': '2\n' });
    const it2 = await snap(root);
    expect(await key(it2)).not.toBe(h1);
    // ...unless another open loop is working on that file.
    expect(await key(it2, { otherLoops: ['b.txt'] })).toBe(h1);

    // Back to the first edit: the same code, the same key.
    write(root, { 'b.txt': '1\n' });
    expect(await key(await snap(root))).toBe(h1);
  });

  it('what a check wrote is ignored while its content is what the check left there', async () => {
    const root = makeRepo({ 'src/a.txt': '1\n', 'dist/out.js': 'v1\n', 'dist/chunk-1.js': 'c\n' });
    const start = await snap(root);
    // The check rebuilds dist/: a new output file, the old chunk deleted.
    write(root, { 'dist/out.js': 'v2\n', 'dist/chunk-2.js': 'c2\n' });
    rmSync(join(root, 'dist/chunk-1.js'));
    const built = await snap(root);
    const written = await writtenBetween(root, start, built);
    expect(written).toMatchObject({ 'dist/out.js': expect.stringMatching(/^[0-9a-f]{40}$/), 'dist/chunk-1.js': '' });
    const d = await taskDiff({ root, fromTree: start, toTree: built, taskFiles: ['src/a.txt'], declaredFiles: [], ignore: { checkWritten: written } });
    expect(d).toEqual({ diffHash: null, changes: [], findings: [] });
    // The agent edits a built file by hand: that is the agent's change again.
    write(root, { 'dist/out.js': 'by hand\n' });
    const edited = await taskDiff({ root, fromTree: start, toTree: await snap(root), taskFiles: ['src/a.txt'], declaredFiles: [], ignore: { checkWritten: written } });
    expect(edited.changes).toEqual([{ status: 'M', path: 'dist/out.js' }]);
  });

  it("another open loop's declared files are left out, unless this task declares them too; a rename counts only with both ends theirs", async () => {
    const root = makeRepo({ 'src/a.ts': 'a\n', 'lib/b.ts': 'b\n'.repeat(20), 'shared.ts': 's\n' });
    const start = await snap(root);
    write(root, { 'src/a.ts': 'a2\n', 'shared.ts': 's2\n', 'lib/new.ts': 'n\n' });
    renameSync(join(root, 'lib/b.ts'), join(root, 'src/b.ts'));
    const now = await snap(root);
    const d = await taskDiff({ root, fromTree: start, toTree: now, taskFiles: ['src/a.ts'], declaredFiles: ['shared.ts'], ignore: { otherLoops: ['lib/', 'shared.ts'] } });
    expect(d.changes.map((c) => c.path).sort()).toEqual(['shared.ts', 'src/a.ts', 'src/b.ts']);
  });

  it("a lockfile goes with its manifest: another open loop's package.json makes its package-lock.json theirs, unless this task declares either", async () => {
    const root = makeRepo({ 'src/a.ts': 'a\n', 'package.json': '{}\n', 'web/package.json': '{}\n' });
    const start = await snap(root);
    write(root, { 'src/a.ts': 'a2\n', 'package.json': '{"dependencies":{"x":"1"}}\n', 'package-lock.json': '{"lockfileVersion":3}\n', 'web/yarn.lock': '# yarn\n', 'Cargo.lock': '# cargo\n' });
    const now = await snap(root);
    const paths = async (taskFiles: string[], otherLoops: string[]) => (await taskDiff({ root, fromTree: start, toTree: now, taskFiles, declaredFiles: [], ignore: { otherLoops } })).changes.map((c) => c.path).sort();
    expect(await paths(['src/a.ts'], ['package.json', 'web/package.json'])).toEqual(['Cargo.lock', 'src/a.ts']);
    // This task declares the manifest (or the lockfile) too: its to see.
    expect(await paths(['src/a.ts', 'package.json'], ['package.json'])).toEqual(['package-lock.json', 'package.json', 'src/a.ts', 'web/yarn.lock', 'Cargo.lock'].sort());
    expect(await paths(['src/a.ts', 'package-lock.json'], ['package.json'])).toEqual(['Cargo.lock', 'package-lock.json', 'src/a.ts', 'web/yarn.lock']);
  });
});
