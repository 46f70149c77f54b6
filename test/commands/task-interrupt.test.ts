import { describe, expect, it } from 'vitest';
import { autoTask, Project, PLAN_REL } from '../engine/project.js';
import { alive } from '../helpers/processes.js';
import { taskLoop } from '../helpers/state.js';

/**
 * A check that announces itself (writes `running` with its pid), then fails fast when the
 * `fast` file exists, or only after a long sleep otherwise (a check we interrupt).
 */
const SLOW_CHECK = `const fs = require('fs');
fs.writeFileSync('running', String(process.pid));
if (fs.existsSync('fast')) { console.error('Error: still failing'); process.exit(1); }
setTimeout(() => { console.error('Error: slow failure'); process.exit(1); }, 60000);
`;

const task = autoTask({ name: 'Task 1: Slow', verify: 'node slow.js', files: ['src/a.js'] });
const files = { 'slow.js': SLOW_CHECK, 'src/a.js': 'module.exports = 1;\n', '.gitignore': '.home/\nrunning\nfast\n' };

async function waitFor(p: Project, path: string): Promise<void> {
  for (let i = 0; i < 600 && !p.exists(path); i++) await new Promise((r) => setTimeout(r, 50));
  if (!p.exists(path)) throw new Error(`${path} never appeared`);
}

describe('interruption', () => {
  it('SIGINT during the check: kills it, records interrupted, exits 130; the next verify resumes', async () => {
    const p = new Project({ tasks: task, files });
    const child = p.run(['task', 'verify', PLAN_REL, '1', '--json']);
    await waitFor(p, 'running');
    const checkPid = Number(p.read('running'));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const json = JSON.parse(String(r.stdout));
    expect(json).toMatchObject({ verdict: 'stop', stop_reason: 'interrupted', counted: false, iteration: 0, interrupted: { cause: 'signal', signal: 'SIGINT' } });
    expect(alive(checkPid)).toBe(false);
    expect(taskLoop(p.state(), 1)).toMatchObject({ status: 'stopped', stop_reason: 'interrupted', iterations: [] });

    p.write('fast', '');
    const again = await p.verify(1);
    expect(again.code).toBe(10);
    expect(again.json).toMatchObject({ verdict: 'retry', iteration: 1, counted: true });
    expect(taskLoop(p.state(), 1)).toMatchObject({ status: 'running', stop_reason: null, interrupted: null });
  });

  it('SIGTERM is handled the same way', async () => {
    const p = new Project({ tasks: task, files });
    const child = p.run(['task', 'verify', PLAN_REL, '1']);
    await waitFor(p, 'running');
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stdout)).toMatch(/interrupted/);
  });

  it('the STOP flag file stops before the checks run (exit 130) until it is removed', async () => {
    const p = new Project({ tasks: task, files: { ...files, fast: '' } });
    p.write('.planning/ralf/STOP', '');
    const r = await p.verify(1);
    expect(r.code).toBe(130);
    expect(r.json).toMatchObject({ verdict: 'stop', stop_reason: 'interrupted', interrupted: { cause: 'stop_flag' } });
    expect(p.exists('running')).toBe(false);
    // Still paused on the next call: the flag is the human's to remove.
    expect((await p.verify(1)).code).toBe(130);
    const status = await p.run(['status']);
    expect(String(status.stdout)).toMatch(/STOP flag present/);

    p.remove('.planning/ralf/STOP');
    const resumed = await p.verify(1);
    expect(resumed.code).toBe(10);
    expect(resumed.json.iteration).toBe(1);
  });

  it('kill -9 in the middle of a check: nothing is recorded, the next verify continues at the right iteration', async () => {
    const p = new Project({ tasks: task, files: { ...files, fast: '' } });
    expect((await p.verify(1)).json.iteration).toBe(1);
    p.remove('fast');
    p.remove('running');
    const child = p.run(['task', 'verify', PLAN_REL, '1', '--json']);
    await waitFor(p, 'running');
    child.kill('SIGKILL');
    await child;
    process.kill(Number(p.read('running')), 'SIGKILL'); // the orphaned check
    p.write('fast', '');
    const r = await p.verify(1);
    expect(r.json).toMatchObject({ iteration: 2, counted: true });
    expect(taskLoop(p.state(), 1).iterations.map((i: { iteration: number }) => i.iteration)).toEqual([1, 2]);
  });

  it('kill -9 at arbitrary points leaves state the next call continues exactly', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Task 1: Fast', verify: 'node -e "console.error(\'Error: nope\'); process.exit(1)"' }),
      files: { 'src/a.js': '1\n' },
      config: { max_iterations: 100, error_fingerprint_repeats: 100, no_progress_repeats: 100 },
    });
    for (const delay of [0, 5, 15, 30, 50, 80, 120, 160, 200, 250, 300, 400]) {
      const child = p.run(['task', 'verify', PLAN_REL, '1', '--json']);
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await child;
      if (p.exists('.planning/ralf/01-01.json')) {
        const iterations = taskLoop(p.state(), 1)?.iterations ?? [];
        expect(iterations.map((i: { iteration: number }) => i.iteration)).toEqual(iterations.map((_: unknown, k: number) => k + 1));
      }
    }
    const before = p.exists('.planning/ralf/01-01.json') ? (taskLoop(p.state(), 1)?.iterations.length ?? 0) : 0;
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.iteration).toBe(before + 1);
    // The history tolerates a torn line; every complete line parses.
    expect(p.log().length).toBeGreaterThan(0);
  });
});

describe('concurrency', () => {
  it('two concurrent verifies of the same task become two consecutive iterations', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Task 1: Slowish', verify: 'node -e "setTimeout(() => { console.error(\'Error: nope\'); process.exit(1) }, 400)"' }),
      files: { 'src/a.js': '1\n' },
      config: { max_iterations: 10, error_fingerprint_repeats: 10, no_progress_repeats: 10 },
    });
    const [a, b] = await Promise.all([p.verify(1), p.verify(1)]);
    expect([a.code, b.code]).toEqual([10, 10]);
    expect([a.json.iteration, b.json.iteration].sort()).toEqual([1, 2]);
    expect(taskLoop(p.state(), 1).iterations.map((i: { iteration: number }) => i.iteration)).toEqual([1, 2]);
    const counted = p.log().filter((l) => l.counted);
    expect(counted.map((l) => l.iteration).sort()).toEqual([1, 2]);
  });
});

describe('misbehaving checks', () => {
  it('a hung check is killed at check_timeout_seconds', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Hang', verify: 'node -e "console.log(\'starting\'); setInterval(() => {}, 1000)"' }), files: { 'src/a.js': '1\n' }, config: { check_timeout_seconds: 1 } });
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.checks[0]).toMatchObject({ passed: false, timed_out: true });
    expect(r.json.fingerprint).toMatch(/^timed out/);
  });

  it('a flooding check keeps a bounded output tail', async () => {
    const flood = 'node -e "const b = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 40; i++) process.stdout.write(b); process.stdout.write(\'Error: flood done\\n\'); process.exitCode = 1"';
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Flood', verify: flood }), files: { 'src/a.js': '1\n' } });
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    expect(r.json.checks[0].output_tail.length).toBeLessThan(200_000);
    expect(r.json.checks[0].output_tail).toContain('Error: flood done');
    expect(r.stdout.length).toBeLessThan(400_000);
    const stored = taskLoop(p.state(), 1).iterations[0].checks[0].output_tail;
    expect(stored.length).toBeLessThan(5000);
    expect(stored).toContain('Error: flood done');
  });
});
