/**
 * Parallel `ralf task verify` calls on one plan: no iteration lost or duplicated (1..k
 * contiguous in state and log), a loop that stops turns the late calls into exit 20
 * without adding iterations, other tasks' loops survive each other's writes, readers
 * never see a torn state, and contention on the plan lock waits (exit 75 `busy` only
 * after the wait limit; a holder killed with -9 is taken over).
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyTask } from '../../src/engine/shell/verify-task.js';
import { RalfError } from '../../src/errors.js';
import { ENDLESS, PLAN_REL, Project, STATE_REL, alive, cleanupTempDirs, killAllIn, processesIn, sleep, task, waitUntil } from './helpers.js';
import { taskLoop } from '../helpers/state.js';

afterAll(cleanupTempDirs);

/** A failing check slow enough (0.3 s) that parallel verifies overlap in their checks. */
const SLOW_FAIL = 'sh -c "sleep 0.3; echo Error: not yet >&2; exit 1"';
const N = 6;

function verifies(p: Project, tasks: number[]) {
  return Promise.all(tasks.map((n) => p.verify(n)));
}

/** Counted verify lines of the log for a task, by iteration; every complete line must parse. */
function countedLog(p: Project, n: number): number[] {
  const log = p.log();
  expect(log.bad).toEqual([]);
  expect(log.torn).toBeNull();
  return log.entries.filter((e) => e.action === 'verify' && e.task === n && e.counted).map((e) => e.iteration).sort((a, b) => a - b);
}

const range = (k: number) => Array.from({ length: k }, (_, i) => i + 1);

describe('parallel ralf task verify on one plan', () => {
  it(`${N} verifies of the same task: iterations 1..${N}, each once, in state and log; readers always parse`, async () => {
    const p = new Project({ tasks: [task('Task 1: Contended', SLOW_FAIL)], config: ENDLESS, git: false });
    // Readers poll status while the writers run: the state is never seen half-written.
    let reading = true;
    const reads: Array<number | null> = [];
    const reader = (async () => {
      while (reading) {
        const s = await p.run(['status', PLAN_REL, '--json']);
        reads.push(s.code);
        if (s.code === 0) JSON.parse(s.stdout);
      }
    })();
    const results = await verifies(p, Array(N).fill(1));
    reading = false;
    await reader;
    expect(results.map((r) => r.code)).toEqual(Array(N).fill(10));
    expect(results.map((r) => r.json.iteration).sort((a, b) => a - b)).toEqual(range(N));
    expect(results.every((r) => r.json.counted === true)).toBe(true);
    expect(taskLoop(p.state(), 1).iterations.map((i: { iteration: number }) => i.iteration)).toEqual(range(N));
    expect(countedLog(p, 1)).toEqual(range(N));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => c === 0)).toBe(true);
    expect(existsSync(p.path('.planning/ralf/01-01.lock'))).toBe(false);
  });

  it(`${N} verifies when the loop stops at max_iterations 3: two retries, one stop that counts, the rest exit 20 without iterations`, async () => {
    const p = new Project({ tasks: [task('Task 1: Contended', SLOW_FAIL)], config: { ...ENDLESS, max_iterations: 3 }, git: false });
    const results = await verifies(p, Array(N).fill(1));
    const codes = results.map((r) => r.code).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(codes).toEqual([10, 10, 20, 20, 20, 20]);
    const counted = results.filter((r) => r.json.counted);
    expect(counted.map((r) => r.json.iteration).sort()).toEqual([1, 2, 3]);
    expect(results.find((r) => r.json.counted && r.json.iteration === 3)!.json).toMatchObject({ verdict: 'stop', stop_reason: 'max_iterations' });
    const late = results.filter((r) => !r.json.counted);
    expect(late).toHaveLength(3);
    for (const r of late) expect(r.json).toMatchObject({ verdict: 'stop', stop_reason: 'max_iterations', exit_code: 20, already_ended: true, iteration: 3 });
    expect(taskLoop(p.state(), 1)).toMatchObject({ status: 'stopped', stop_reason: 'max_iterations' });
    expect(taskLoop(p.state(), 1).iterations.map((i: { iteration: number }) => i.iteration)).toEqual([1, 2, 3]);
    expect(countedLog(p, 1)).toEqual([1, 2, 3]);
    // Each late call left one non-counting line.
    expect(p.log().entries.filter((e) => e.action === 'verify' && !e.counted)).toHaveLength(3);
  });

  it(`${N} verifies over three tasks of the plan (two each): every task gets 1..2, no task's loop is lost`, async () => {
    const p = new Project({
      tasks: [task('Task 1: A', SLOW_FAIL), task('Task 2: B', SLOW_FAIL), task('Task 3: C', SLOW_FAIL)],
      config: ENDLESS,
      git: false,
    });
    const results = await verifies(p, [1, 2, 3, 1, 2, 3]);
    expect(results.map((r) => r.code)).toEqual(Array(N).fill(10));
    const state = p.state();
    // Keyed by task identity (the name without its `Task N:` prefix).
    expect(Object.keys(state.tasks).sort()).toEqual(['name:a', 'name:b', 'name:c']);
    for (const n of [1, 2, 3]) {
      expect(taskLoop(state, n).iterations.map((i: { iteration: number }) => i.iteration)).toEqual([1, 2]);
      expect(results.filter((r) => r.json.task.number === n).map((r) => r.json.iteration).sort()).toEqual([1, 2]);
      expect(countedLog(p, n)).toEqual([1, 2]);
    }
  });
});

describe('contention on the plan lock', () => {
  /** A live process to name as the lock's holder. */
  function holder() {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
  }

  it('a lock held by a live process: verify probes it first and waits before running its checks, then records iteration 1 once it is released', async () => {
    const p = new Project({ tasks: [task('Task 1: Waits', 'sh -c "echo ran > run-marker; exit 1"')], config: ENDLESS, git: false });
    const h = holder();
    const lock = p.path('.planning/ralf/01-01.lock');
    p.write('.planning/ralf/01-01.lock', `${h.pid} ${Date.now()} test`);
    try {
      const child = p.start(['task', 'verify', PLAN_REL, '1', '--json']);
      let exited = false;
      void child.done.then(() => (exited = true));
      // It waits on the lock (for up to 30 s) BEFORE its checks: nothing ran, nothing recorded.
      await sleep(2000);
      expect(exited).toBe(false);
      expect(p.exists('run-marker')).toBe(false);
      expect(p.exists(STATE_REL)).toBe(false);
      rmSync(lock); // the holder releases it
      const r = await child.done;
      expect(r.code).toBe(10);
      expect(JSON.parse(r.stdout)).toMatchObject({ iteration: 1, counted: true });
      expect(p.iterations(1)).toBe(1);
      expect(existsSync(lock)).toBe(false);
    } finally {
      h.stop();
      killAllIn(p.dir);
    }
  });

  it('a lock left by a holder killed with -9 is taken over: no wait, no busy', async () => {
    const p = new Project({ tasks: [task('Task 1: Takes over', 'sh -c "exit 1"')], config: ENDLESS, git: false });
    const h = holder();
    h.stop();
    expect(await waitUntil(() => !alive(h.pid), 5_000)).toBe(true);
    p.write('.planning/ralf/01-01.lock', `${h.pid} ${Date.now()} dead`);
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.iteration).toBe(1);
    expect(p.exists('.planning/ralf/01-01.lock')).toBe(false);
    expect(processesIn(p.dir)).toEqual([]);
  });

  it('busy only after the wait limit: exit 75 naming the lock and its holder, state untouched (engine API with a 1.5 s limit; the CLI waits 30 s)', async () => {
    const p = new Project({ tasks: [task('Task 1: Busy', 'sh -c "exit 1"')], config: ENDLESS, git: false });
    const h = holder();
    try {
      p.write('.planning/ralf/01-01.lock', `${h.pid} ${Date.now()} held`);
      const t0 = Date.now();
      let error: unknown = null;
      try {
        await verifyTask({ planPath: p.path(PLAN_REL), taskNumber: 1, cwd: p.dir, env: p.env() as NodeJS.ProcessEnv, lockWaitMs: 1500 });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(RalfError);
      const e = error as RalfError;
      expect(e.kind).toBe('busy');
      expect(e.exitCode).toBe(75);
      expect(e.message).toBe(`${p.path('.planning/ralf/01-01.lock')} is locked by process ${h.pid}; waited 2 s`);
      expect(e.problems[0]).toMatchObject({ file: p.path('.planning/ralf/01-01.lock'), message: `locked by process ${h.pid}` });
      // It gave up no earlier than the limit (a lower bound only, not a speed assertion).
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1500);
      expect(p.exists(STATE_REL)).toBe(false);
      expect(p.log().entries).toEqual([]);
    } finally {
      h.stop();
    }
  });
});
