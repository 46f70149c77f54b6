import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, waitForLockFree } from '../../src/fs/lock.js';
import { processStartTime } from '../../src/fs/process-alive.js';
import { tempDir } from '../helpers/cli.js';
import { autoTask, Project } from '../engine/project.js';

const sleeper = () => spawn('sleep', ['30'], { stdio: 'ignore' });

describe('plan lock', () => {
  it('the token names the holder: pid and process start time', () => {
    const path = join(tempDir(), 'a.lock');
    const lock = acquireLock(path);
    const [pid, start] = readFileSync(path, 'utf8').split(' ');
    expect(Number(pid)).toBe(process.pid);
    expect(start).toBe(`s${processStartTime(process.pid) ?? '-'}`);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it.runIf(existsSync('/proc/self/stat'))('a lock whose pid now belongs to another process (reused) is taken over at once', () => {
    const child = sleeper();
    try {
      const path = join(tempDir(), 'b.lock');
      // The dead holder had this pid, but started at another time.
      writeFileSync(path, `${child.pid} s1 ${Date.now()} x`);
      const t0 = Date.now();
      acquireLock(path, { waitMs: 5000 }).release();
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it.runIf(existsSync('/proc/self/stat'))('a live holder is waited for: busy after the wait', () => {
    const child = sleeper();
    try {
      const path = join(tempDir(), 'c.lock');
      writeFileSync(path, `${child.pid} s${processStartTime(child.pid!)} ${Date.now()} x`);
      expect(() => acquireLock(path, { waitMs: 200 })).toThrow(/locked by process/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('the probe resolves once the lock is released, and ends on abort', async () => {
    const path = join(tempDir(), 'd.lock');
    const lock = acquireLock(path);
    setTimeout(() => lock.release(), 100);
    expect(await waitForLockFree(path, { waitMs: 5000 })).toBe('free');
    const held = acquireLock(path);
    const controller = new AbortController();
    setTimeout(() => controller.abort('SIGTERM'), 100);
    expect(await waitForLockFree(path, { waitMs: 5000, signal: controller.signal })).toBe('aborted');
    held.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('SIGTERM while a verify waits for the lock: exit 130 before any check ran', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: x', verify: 'node -e "require(\'fs\').writeFileSync(\'.home/ran\', \'1\')"' }), files: {} });
    const child = sleeper();
    try {
      mkdirSync(join(p.dir, '.planning/ralf'), { recursive: true });
      writeFileSync(join(p.dir, '.planning/ralf/01-01.lock'), `${child.pid} s${processStartTime(child.pid!)} ${Date.now()} x`);
      const run = p.run(['task', 'verify', '.planning/phases/01-demo/01-01-PLAN.md', '1', '--json']);
      await new Promise((r) => setTimeout(r, 1500));
      run.kill('SIGTERM');
      const r = await run;
      expect(r.exitCode).toBe(130);
      expect(JSON.parse(String(r.stdout))).toMatchObject({ verdict: 'stop', stop_reason: 'interrupted', counted: false });
      expect(String(r.stderr)).toBe('');
      expect(p.exists('.home/ran')).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
