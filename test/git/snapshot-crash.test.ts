/**
 * kill -9 of a process taking snapshots, at many points: the user's index stays byte for byte
 * what it was, the private index stays readable, and the next snapshot gives exactly the tree a
 * snapshot from scratch gives. Leftover work indexes (and git's locks on them) go away.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIVATE_INDEX } from '../../src/git/private-index.js';
import { snapshotWorkingTree } from '../../src/git/snapshot.js';
import { removeDeadWritersIndexes } from '../../src/git/temp-index.js';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { git, makeRepo, write } from './helpers.js';

let bundle = '';

beforeAll(async () => {
  bundle = join(tempDir('ralf-snap-bundle-'), 'snapshot.cjs');
  await build({ entryPoints: [join(repoRoot, 'src/git/snapshot.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' });
});

/** Snapshots forever, changing tracked and untracked files between them (so git rewrites the index). */
const LOOP = `
const { takeSnapshot } = require(process.argv[1]);
const fs = require('node:fs');
const root = process.argv[2];
let n = 0;
(async () => {
  for (;;) {
    n++;
    fs.writeFileSync(root + '/src/f' + (n % 7) + '.txt', 'edit ' + n + '\\n');
    fs.writeFileSync(root + '/new-' + (n % 5) + '.txt', 'new ' + n + '\\n');
    await takeSnapshot(root);
    process.stdout.write('.');
  }
})();
`;

function killDuringSnapshots(root: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', LOOP, bundle, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    let started = false;
    child.stdout.on('data', () => {
      if (started) return;
      started = true; // the first snapshot seeded the private index: kill somewhere in the next ones
      setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.once('exit', () => resolve());
  });
}

describe('snapshot under kill -9', () => {
  it('leaves the user index untouched and the private index usable, at any point', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/m${i}.txt`] = `module ${i}\n`;
    const root = makeRepo(files);
    write(root, { 'untracked/notes.txt': 'mine\n', 'src/f0.txt': 'x\n' });
    const realIndex = readFileSync(join(root, '.git', 'index'));

    for (const delay of [0, 3, 7, 12, 20, 30, 45, 60, 80, 110]) {
      await killDuringSnapshots(root, delay);
      expect(readFileSync(join(root, '.git', 'index')).equals(realIndex)).toBe(true);
      const privateIndex = join(root, '.git', PRIVATE_INDEX);
      expect(existsSync(privateIndex)).toBe(true);
      // Readable by git, and the next snapshot is exact: the same tree as one from scratch.
      const env = { ...process.env, GIT_INDEX_FILE: privateIndex };
      expect(spawnSync('git', ['ls-files'], { cwd: root, env, encoding: 'utf8' }).status).toBe(0);
      const next = await snapshotWorkingTree(root);
      const copy = readFileSync(privateIndex);
      rmSync(privateIndex);
      expect(await snapshotWorkingTree(root)).toBe(next);
      writeFileSync(privateIndex, copy);
    }
    // Kills landed inside snapshots (they left work indexes, some with git's lock beside)...
    const debris = readdirSync(join(root, '.git')).filter((n) => n.startsWith('ralf-index-'));
    expect(debris.length).toBeGreaterThan(0);
    // ...and what they left is removed once it is old.
    removeDeadWritersIndexes(join(root, '.git'), Date.now() + 61_000);
    expect(readdirSync(join(root, '.git')).filter((n) => n.startsWith('ralf-index-'))).toEqual([]);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('');
  }, 120_000);
});
