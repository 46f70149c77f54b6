import { execa, type Options } from 'execa';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = join(repoRoot, 'dist', 'ralf.js');
export const sharedDir = resolve(repoRoot, '../shared');

/** A clean environment: no host detection vars, an isolated HOME/config dirs unless given. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(OPENCODE|CLAUDE|RALF_|XDG_CONFIG_HOME)/.test(k) || k === 'CLAUDECODE') delete env[k];
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

/** Runs the built CLI (dist/ralf.js) as a real child process; never rejects on exit code. */
export async function runCli(args: string[], options: Options & { env?: Record<string, string | undefined> } = {}) {
  return execa(process.execPath, [cliPath, ...args], {
    reject: false,
    extendEnv: false,
    stdin: 'ignore',
    ...options,
    env: options.env ?? cleanEnv(),
  } as Options);
}

const madeTempDirs: string[] = [];

/**
 * A fresh temp dir (realpath, so macOS /private and symlinked tmp compare equal), removed
 * after the test file (test/setup.ts).
 */
export function tempDir(prefix = 'ralf-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  madeTempDirs.push(dir);
  return dir;
}

/** Removes every dir tempDir() made in this test file, including read-only or immutable ones tests made. */
export function removeTempDirs(): void {
  for (const dir of madeTempDirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Made immutable or unreadable by a test, or still being written by a process it left.
      spawnSync('chattr', ['-R', '-i', dir], { stdio: 'ignore' });
      spawnSync('chmod', ['-R', 'u+rwX', dir], { stdio: 'ignore' });
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        /* leave it to the OS; never fail a test file over its temp dirs */
      }
    }
  }
}
