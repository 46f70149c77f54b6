import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headCommit, isGitRepo, repoRoot } from '../../src/git/repo.js';
import { GitError, runGitSequence } from '../../src/git/run-git.js';
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

describe('runGitSequence', () => {
  it('passes every argument through the shell untouched and returns the last command', async () => {
    const root = makeRepo();
    const tricky = `it's "quoted" $HOME \`x\` *; exit 3`;
    const r = await runGitSequence([['config', 'ralf.test', tricky], ['config', '--get', 'ralf.test']], { cwd: root });
    expect(r.stdout.toString('utf8')).toBe(`${tricky}\n`);
  });

  it('stops at the first failing command and reports it', async () => {
    const root = makeRepo();
    const err = await runGitSequence([['rev-parse', '--verify', 'no-such-ref'], ['config', 'ralf.reached', 'yes']], { cwd: root }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).exitCode).toBe(128);
    expect((err as GitError).message).toContain('git rev-parse --verify no-such-ref && git config ralf.reached yes failed');
    expect(() => git(root, 'config', '--get', 'ralf.reached')).toThrow();
  });
});
