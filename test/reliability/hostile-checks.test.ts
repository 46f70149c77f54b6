/**
 * Checks that misbehave, through the real `ralf task verify`: a hang (killed with its
 * children at check_timeout_seconds), a forked daemon, an output flood, death by signal,
 * stdout closed early. The verdicts are right and nothing is left running: after each
 * verify no process has its working directory in the project.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ENDLESS, PLAN_REL, Project, alive, cleanupTempDirs, killAllIn, processesIn, sleep, task, waitUntil } from './helpers.js';
import { taskLoop } from '../helpers/state.js';

afterAll(cleanupTempDirs);

const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) killAllIn(p.dir);
});

/** Hangs with a child in its process group; both pids go to run/pids.json first. */
const HANG = `const { spawn } = require('child_process');
const fs = require('fs');
const stubborn = process.argv[2] === 'stubborn';
const code = stubborn ? "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" : 'setInterval(() => {}, 1000)';
const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
fs.mkdirSync('run', { recursive: true });
// Written whole (tmp + rename): the test polls for the file and must never read it half-written.
fs.writeFileSync('run/pids.json.tmp', JSON.stringify({ self: process.pid, child: child.pid }));
fs.renameSync('run/pids.json.tmp', 'run/pids.json');
console.log('Error: still waiting for the server');
setInterval(() => {}, 1000);
`;

/** Forks a daemon that keeps stdout open (same group, or its own session with --setsid), then exits 0. */
const DAEMON = `const { spawn } = require('child_process');
const fs = require('fs');
const d = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: ['ignore', 'inherit', 'inherit'], detached: process.argv.includes('--setsid') });
d.unref();
fs.mkdirSync('run', { recursive: true });
fs.writeFileSync('run/daemon.pid', String(d.pid));
console.log('started daemon ' + d.pid);
`;

/** 40 MB of output, then a last line and exit 1. */
const FLOOD = `const line = Buffer.from('x'.repeat(1023) + '\\n');
const block = Buffer.concat(Array(64).fill(line));
let left = 40 * 16;
function pump() {
  while (left > 0) { left--; if (!process.stdout.write(block)) return process.stdout.once('drain', pump); }
  process.stdout.write('Error: flood finished\\n', () => process.exit(1));
}
pump();
`;

/** Writes a line, closes stdout, keeps running 300 ms (writing to stderr, which is the same pipe here), exits with argv[2]. */
const CLOSE_EARLY = `const fs = require('fs');
fs.writeSync(1, 'before close\\n');
fs.closeSync(1);
setTimeout(() => process.exit(Number(process.argv[2])), 300);
`;

function project(verify: string, config: Record<string, unknown> = {}): Project {
  const p = new Project({
    tasks: [task('Task 1: Hostile', verify)],
    files: { 'hang.js': HANG, 'daemon.js': DAEMON, 'flood.js': FLOOD, 'close.js': CLOSE_EARLY, '.gitignore': 'run/\n' },
    config: { ...ENDLESS, ...config },
    git: false,
  });
  projects.push(p);
  return p;
}

/** The process ends within 3 s (time for the kernel to deliver a kill; a leak lives on for 30 s or more). */
const gone = (pid: number) => waitUntil(() => !alive(pid), 3_000);
const noneLeft = (p: Project) => waitUntil(() => processesIn(p.dir).length === 0, 3_000);

function pids(p: Project): { self: number; child: number } {
  return JSON.parse(readFileSync(p.path('run/pids.json'), 'utf8'));
}

describe('hostile checks through ralf task verify', () => {
  it('a hanging check is killed with its child at check_timeout_seconds: 1; retry with a timed-out fingerprint', async () => {
    const p = project('node hang.js', { check_timeout_seconds: 1 });
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.checks[0]).toMatchObject({ passed: false, timed_out: true, exit_code: null, signal: 'SIGTERM' });
    expect(r.json.fingerprint).toBe('timed out: Error: still waiting for the server');
    expect(r.json.iteration).toBe(1);
    const { self, child } = pids(p);
    expect(await gone(self)).toBe(true);
    expect(await gone(child)).toBe(true);
    expect(await noneLeft(p)).toBe(true);
  });

  // The group's SIGKILL runs on an unref()'d timer; a process-exit hook sends it if ralf exits
  // first, so a child that ignores SIGTERM cannot outlive the verify.
  it('a hanging check whose child ignores SIGTERM: the verdict is right and the child is killed', async () => {
    const p = project('node hang.js stubborn', { check_timeout_seconds: 1 });
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.checks[0]).toMatchObject({ passed: false, timed_out: true });
    const { self, child } = pids(p);
    expect(await gone(self)).toBe(true);
    expect(await gone(child)).toBe(true);
  });

  it('a check that forks a daemon holding stdout and exits 0: passes; the daemon (same process group) is killed', async () => {
    const p = project('node daemon.js');
    const r = await p.verify(1);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ verdict: 'pass', iteration: 1 });
    expect(r.json.checks[0]).toMatchObject({ passed: true, exit_code: 0, timed_out: false });
    expect(r.json.checks[0].output_tail).toMatch(/^started daemon \d+\n$/);
    const daemon = Number(readFileSync(p.path('run/daemon.pid'), 'utf8'));
    expect(await gone(daemon)).toBe(true);
    expect(await noneLeft(p)).toBe(true);
  });

  it('a daemon that left the process group (setsid) is a real daemon: verify returns with the verdict and leaves it running', async () => {
    const p = project('node daemon.js --setsid');
    const r = await p.verify(1);
    expect(r.code).toBe(0);
    expect(r.json.checks[0]).toMatchObject({ passed: true, exit_code: 0 });
    const daemon = Number(readFileSync(p.path('run/daemon.pid'), 'utf8'));
    // Documented in src/verify/run-command.ts: processes that start their own session are untouched,
    // and nothing in the answer mentions them (see the report: "gone or reported" is not met).
    expect(alive(daemon)).toBe(true);
    expect(processesIn(p.dir).map(([pid]) => pid)).toEqual([daemon]);
    process.kill(daemon, 'SIGKILL');
  });

  it('a 40 MB output flood: the answer keeps a bounded head and tail, the state a 4,000-character tail', async () => {
    const p = project('node flood.js');
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    const c = r.json.checks[0];
    expect(c).toMatchObject({ passed: false, exit_code: 1 });
    expect(c.output_tail.length).toBeLessThanOrEqual(64 * 1024 + 200);
    expect(c.output_tail.endsWith('Error: flood finished\n')).toBe(true);
    expect(r.json.fingerprint).toBe('Error: flood finished');
    const stored: string = taskLoop(p.state(), 1).iterations[0].checks[0].output_tail;
    const omitted = /^… \(\d+ earlier lines omitted\)\n/.exec(stored);
    expect(omitted).not.toBeNull();
    expect(stored.length - omitted![0].length).toBeLessThanOrEqual(4000);
    expect(stored.endsWith('\nError: flood finished')).toBe(true);
    expect(await noneLeft(p)).toBe(true);
  });

  it('a check killed by a signal (SIGSEGV, SIGKILL) fails with the signal recorded', async () => {
    for (const [sig, status] of [['SIGSEGV', 139], ['SIGKILL', 137]] as const) {
      const p = project(`node -e "process.kill(process.pid, '${sig}')"`);
      const r = await p.verify(1);
      expect(r.code).toBe(10);
      expect(r.json.checks[0]).toMatchObject({ passed: false, exit_code: status, signal: sig, timed_out: false });
      expect(await noneLeft(p)).toBe(true);
    }
  });

  it('a check that closes stdout early: its exit status decides (0 passes, 1 fails), the output before the close is kept', async () => {
    const ok = project('node close.js 0');
    const a = await ok.verify(1);
    expect(a.code).toBe(0);
    expect(a.json.checks[0]).toMatchObject({ passed: true, exit_code: 0, output_tail: 'before close\n' });
    const bad = project('node close.js 1');
    const b = await bad.verify(1);
    expect(b.code).toBe(10);
    expect(b.json.checks[0]).toMatchObject({ passed: false, exit_code: 1, output_tail: 'before close\n' });
    expect(await noneLeft(ok)).toBe(true);
    expect(await noneLeft(bad)).toBe(true);
  });

  it('a verify killed with -9 leaves its hung check running; the next verify kills it first', async () => {
    // Hangs the first time only (like a test run waiting on a server), passes afterwards.
    const p = project('sh once.sh');
    p.write('once.sh', 'if [ -e run/hung-once ]; then echo fine; else mkdir -p run; touch run/hung-once; exec node hang.js; fi\n');
    const first = p.start(['task', 'verify', PLAN_REL, '1', '--json']);
    expect(await waitUntil(() => existsSync(p.path('run/pids.json')), 10_000)).toBe(true);
    const { self, child } = pids(p);
    first.kill('SIGKILL');
    await first.done;
    // Nothing was left to kill the check: it runs on, noted in the dead verify's ledger.
    await sleep(200);
    expect(alive(self) && alive(child)).toBe(true);
    expect(readdirSync(p.path('.planning/ralf')).filter((n) => n.startsWith('.checks-'))).toEqual([`.checks-${first.pid}`]);

    const r = await p.verify(1);
    expect(r.code).toBe(0);
    expect(await gone(self)).toBe(true);
    expect(await gone(child)).toBe(true);
    expect(await noneLeft(p)).toBe(true);
    // Both ledgers are gone: the dead verify's (reaped) and the new one's (closed).
    expect(readdirSync(p.path('.planning/ralf')).filter((n) => n.startsWith('.checks-'))).toEqual([]);
  });
});
