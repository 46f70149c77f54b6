import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../helpers/cli.js';

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(e)) if (k.startsWith('GIT_')) delete e[k];
  return { ...e, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' };
}

/** Runs git in `cwd` and returns trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A fresh repository with local identity; `files` committed as the first commit when given. */
export function makeRepo(files?: Record<string, string>): string {
  const root = tempDir('ralf-git-');
  git(root, 'init', '-q');
  git(root, 'config', 'user.name', 'Ralf Test');
  git(root, 'config', 'user.email', 'ralf@example.test');
  git(root, 'config', 'commit.gpgsign', 'false');
  if (files) commitAll(root, files, 'initial');
  return root;
}

export function commitAll(root: string, files: Record<string, string>, message = 'change'): string {
  write(root, files);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD');
}
