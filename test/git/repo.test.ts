import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headCommit, isGitRepo, repoRoot } from '../../src/git/repo.js';
import { tempDir } from '../helpers/cli.js';
import { git, makeRepo } from './helpers.js';

describe('repo basics', () => {
  it('tells repositories from plain directories', async () => {
    const plain = tempDir('ralf-plain-');
    expect(await isGitRepo(plain)).toBe(false);
    expect(await repoRoot(plain)).toBeNull();
    expect(await headCommit(plain)).toBeNull();
    expect(await isGitRepo(join(plain, 'missing'))).toBe(false);
  });

  it('finds the root from a subdirectory and the head commit', async () => {
    const root = makeRepo();
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    expect(await isGitRepo(join(root, 'a', 'b'))).toBe(true);
    expect(realpathSync((await repoRoot(join(root, 'a', 'b')))!)).toBe(root);
    expect(await headCommit(root)).toBeNull(); // no commits yet
    git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
    expect(await headCommit(root)).toBe(git(root, 'rev-parse', 'HEAD'));
  });
});
