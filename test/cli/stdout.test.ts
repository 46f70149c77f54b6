/**
 * ralf writes its output straight to fd 1 (see src/cli/output.ts). Whatever the pipe does,
 * the reader gets the whole document in order, or ralf stops quietly when the reader left.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../engine/project.js';
import { cleanEnv, tempDir } from '../helpers/cli.js';

/** A plan whose `ralf plan --json` output is far larger than a pipe's 64 KiB buffer. */
function bigPlan(): string {
  const root = tempDir('ralf-stdout-');
  mkdirSync(join(root, '.planning', 'phases', '01-big'), { recursive: true });
  const tasks = Array.from({ length: 600 }, (_, i) => `<task type="auto">\n  <name>Task ${i + 1}: step ${i + 1}</name>\n  <files>src/f${i}.ts</files>\n  <action>${'Implement the thing carefully. '.repeat(20)}</action>\n  <verify>\`node -e ${i}\`</verify>\n  <done>done ${i}</done>\n</task>`).join('\n');
  const plan = join(root, '.planning', 'phases', '01-big', '01-01-PLAN.md');
  writeFileSync(plan, `---\nphase: 01-big\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\n---\n\n<tasks>\n${tasks}\n</tasks>\n`);
  return plan;
}

/** Runs `argv` with stdout a pipe, optionally made non-blocking first (python3 sets O_NONBLOCK, then execs). */
function spawnWithPipe(argv: string[], nonBlocking: boolean) {
  const setNonBlocking = 'import os,sys,fcntl; fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])';
  return nonBlocking ? spawn('python3', ['-c', setNonBlocking, ...argv], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(argv[0]!, argv.slice(1), { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('stdout', () => {
  it('delivers a large document whole to a slow reader, also through a non-blocking pipe', async () => {
    const plan = bigPlan();
    const argv = [process.execPath, cliPath(), 'plan', plan, '--json'];
    const expected = spawnSync(argv[0]!, argv.slice(1), { env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(expected.status).toBe(0);
    expect(expected.stdout.length).toBeGreaterThan(256 * 1024);
    for (const nonBlocking of [false, true]) {
      const child = spawnWithPipe(argv, nonBlocking);
      // Read nothing for a while: the pipe fills and the writer meets a full pipe (EAGAIN when non-blocking).
      child.stdout.pause();
      await new Promise((r) => setTimeout(r, 300));
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      child.stdout.resume();
      const code = await new Promise((r) => child.on('close', r));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(Buffer.concat(chunks).toString('utf8')).toBe(expected.stdout);
    }
  });

  it('stops quietly when the reader goes away (`ralf ... | head`)', async () => {
    const plan = bigPlan();
    const child = spawn(process.execPath, [cliPath(), 'plan', plan, '--json'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    // Like `head -c 100`: take the first bytes, then close the pipe.
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    child.stdout.destroy();
    const code = await new Promise((r) => child.on('close', r));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('colour', () => {
  // `script` (util-linux) runs the command on a pseudo-terminal.
  const onTerminal = (command: string) => spawnSync('script', ['-qec', command, '/dev/null'], { env: cleanEnv({ NO_COLOR: undefined, TERM: 'xterm' }), encoding: 'utf8' });

  it('styles output on a terminal only, and never with NO_COLOR', () => {
    const plan = bigPlan();
    const cmd = `${process.execPath} ${cliPath()} plan ${plan}`;
    const tty = onTerminal(cmd);
    expect(tty.status).toBe(0);
    expect(tty.stdout).toContain('\u001b[1m');
    expect(onTerminal(`NO_COLOR=1 ${cmd}`).stdout).not.toContain('\u001b[');
    const piped = spawnSync(process.execPath, [cliPath(), 'plan', plan], { env: cleanEnv({ NO_COLOR: undefined, TERM: 'xterm' }), encoding: 'utf8' });
    expect(piped.status).toBe(0);
    expect(piped.stdout).not.toContain('\u001b[');
  });
});
