/**
 * First contact, fourth round: how a loop goes on around what happens to it from outside — a
 * verify killed with SIGKILL while its checks run, the plan-level loop of a plan with
 * `must_haves.truths` after its task passed, a `checkpoint:human-verify` between two tasks, and
 * a second plan of the same wave that adds a dependency (and its lockfile) while this plan's
 * loop runs. Played as a host's agent runs them (`ralf task verify`, `plan verify`, `status`).
 * Each trail was written down before the scenario first ran.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { PLAN, Scenario, word, type Limits } from './harness.js';
import { RUNNERS } from './runners.js';

const limits: Limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const runner = RUNNERS.nodeTest;

/** Sleeps while `.slow` exists (after saying so in `.started`): a check to kill a verify in. */
const SLOW = "const fs = require('node:fs');\nif (fs.existsSync('.slow')) {\n  fs.writeFileSync('.started', String(process.pid));\n  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);\n}\n";

/** Whether a process is gone (or a zombie nobody reaped yet). */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z');
  } catch {
    return true;
  }
}

function planHeader(plan: string, files: string[], extra = ''): string {
  return `---\nphase: 01-units\nplan: ${plan}\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [${files.join(', ')}]\n${extra}---\n\n<objective>\nMake every unit return its value.\n</objective>\n\n`;
}

function task(n: number, name: string, files: string[], check: string): string {
  return `<task type="auto">\n  <name>Task ${n}: ${name}</name>\n  <files>${files.join(', ')}</files>\n  <action>${name}.</action>\n  <verify>\`${check}\`</verify>\n</task>\n`;
}

async function ralfJson(s: Scenario, args: string[]): Promise<{ code: number | undefined; json: any; word: string }> {
  const r = await s.ralf([...args, '--json']);
  let json: any = null;
  try {
    json = JSON.parse(String(r.stdout));
  } catch {
    throw new Error(`${args.join(' ')} printed no JSON (exit ${r.exitCode}):\n${String(r.stdout)}\n${String(r.stderr)}`);
  }
  return { code: r.exitCode, json, word: word(json) };
}

describe.concurrent('first contact: a verify killed, the plan-level loop, a checkpoint, a parallel plan', () => {
  it('a verify killed with SIGKILL while its checks run, then run again: nothing recorded for the killed one, its check processes killed, the count goes on (iterations 1, 2, 3), pass', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, checks: ['node slow.cjs', runner.verify], files: { 'slow.cjs': SLOW, '.gitignore': '.home/\n.slow\n.started\n' }, limits });
    await s.play([() => {}]);
    s.fix('alpha');
    s.write('.slow', '');
    const killed = s.ralf(['task', 'verify', PLAN, '1', '--json']);
    for (let i = 0; i < 600 && !s.exists('.started'); i++) await new Promise((r) => setTimeout(r, 50));
    const sleeper = Number(s.read('.started'));
    killed.kill('SIGKILL');
    await killed;
    s.remove('.slow');
    const trail = await s.play([() => {}, (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
    expect(s.results.map((r) => r.json.iteration), s.explain()).toEqual([1, 2, 3]);
    expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toMatch(/no longer failing: alpha/);
    expect(gone(sleeper), `the killed verify's check (pid ${sleeper}) is still running`).toBe(true);
  }, 90_000);

  it('the plan-level loop of a plan with must_haves.truths after its task passed: retry, retry, confirm (exit 11, not an iteration), then --done-confirmed: pass on the reused green result', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, limits });
    const truths = 'autonomous: true\nmust_haves:\n  truths:\n    - "Every unit returns the value its test expects"\n';
    s.write(PLAN, `${planHeader('01', ['src/units.js'], truths)}<tasks>\n${task(1, 'Make the units compile', ['src/units.js'], 'node --check src/units.js')}</tasks>\n\n<verification>\n\`node --test test/\`\n</verification>\n`);
    s.git('commit', '-qam', 'plan');
    const taskTrail = [(await ralfJson(s, ['task', 'verify', PLAN, '1'])).word];
    const planTrail: string[] = [];
    const codes: Array<number | undefined> = [];
    const plan = async (...flags: string[]) => {
      const v = await ralfJson(s, ['plan', 'verify', PLAN, ...flags]);
      planTrail.push(v.word);
      codes.push(v.code);
      return v;
    };
    await plan();
    s.fix('alpha');
    await plan();
    s.fix('bravo');
    await plan();
    const confirmed = await plan('--done-confirmed');
    expect(taskTrail).toEqual(['pass']);
    expect(planTrail, JSON.stringify(confirmed.json)).toEqual(['retry+', 'retry+', 'confirm', 'pass']);
    expect(codes).toEqual([10, 10, 11, 0]);
    expect(confirmed.json).toMatchObject({ iteration: 3, checks_reused: true });
  }, 90_000);

  it('a checkpoint:human-verify between two tasks: task 1 passes, status resumes at the checkpoint, verifying it is refused (exit 2), task 3 then loops and passes, status complete', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, limits });
    const checkpoint = '<task type="checkpoint:human-verify" gate="blocking">\n  <what-built>alpha returns 1</what-built>\n  <how-to-verify>Run node -e "console.log(require(\'./src/units.js\').alpha())" and check it prints 1.</how-to-verify>\n  <resume-signal>Type "approved" or describe issues</resume-signal>\n</task>\n';
    s.write(
      PLAN,
      `${planHeader('01', ['src/units.js'], 'autonomous: false\n')}<tasks>\n${task(1, 'Make alpha right', ['src/units.js'], 'node --test --test-name-pattern=alpha test/')}${checkpoint}${task(3, 'Make bravo right', ['src/units.js'], 'node --test test/')}</tasks>\n`,
    );
    s.git('commit', '-qam', 'plan');
    const verify = (n: number) => ralfJson(s, ['task', 'verify', PLAN, String(n)]);
    const status = async () => (await ralfJson(s, ['status', PLAN])).json;
    const trail1 = [(await verify(1)).word];
    s.fix('alpha');
    trail1.push((await verify(1)).word);
    expect(trail1).toEqual(['retry+', 'pass']);
    const atCheckpoint = await status();
    expect(atCheckpoint.resume_at, JSON.stringify(atCheckpoint.tasks)).toBe(2);
    const refused = await s.ralf(['task', 'verify', PLAN, '2', '--json']);
    expect(refused.exitCode, String(refused.stdout)).toBe(2);
    expect(String(refused.stdout) + String(refused.stderr)).toMatch(/checkpoint/);
    // The human approved; the agent goes on with task 3.
    const trail3 = [(await verify(3)).word];
    s.fix('bravo');
    trail3.push((await verify(3)).word);
    expect(trail3).toEqual(['retry+', 'pass']);
    const done = await status();
    expect({ resume_at: done.resume_at, complete: done.tasks_complete, statuses: done.tasks.map((t: any) => t.status) }, JSON.stringify(done.tasks)).toEqual({ resume_at: null, complete: true, statuses: ['passed', 'not_started', 'passed'] });
  }, 90_000);

  it('two plans of one wave in one tree: plan B adds a dependency (package.json, declared) and npm writes package-lock.json (declared by nobody) while A is idle: not A\'s progress, not A\'s Rule 4; A\'s own fixes count and pass; B passes', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, limits: { max_iterations: 8, error_fingerprint_repeats: 6, no_progress_repeats: 2 } });
    const PLAN_B = '.planning/phases/01-units/01-02-PLAN.md';
    s.write(PLAN_B, `${planHeader('02', ['package.json', 'src/dates.js'], 'autonomous: true\n')}<tasks>\n${task(1, 'Parse dates with dayjs', ['package.json', 'src/dates.js'], 'node -e "require(\'./src/dates.js\')"')}</tasks>\n`);
    s.git('add', PLAN_B);
    s.git('commit', '-qm', 'plan 01-02');
    for (const plan of [PLAN, PLAN_B]) expect((await s.ralf(['task', 'start', plan, '1', '--json'])).exitCode).toBe(0);
    const lock = { name: 'units', lockfileVersion: 3, requires: true, packages: { '': { name: 'units', dependencies: { dayjs: '^1.11.13' } }, 'node_modules/dayjs': { version: '1.11.13', resolved: 'https://registry.npmjs.org/dayjs/-/dayjs-1.11.13.tgz', integrity: 'sha512-oaMBel6gjolK862uaPQOVTA7q3TZhuSvuMQAAglQDOWYO9A91IrAOUJEyKVlqJlHE0vq5p5UXxzdPfMH/x6xNg==' } } };
    const trail = await s.play([
      () => {},
      (x) => {
        x.write('package.json', '{ "name": "units", "private": true, "type": "commonjs", "dependencies": { "dayjs": "^1.11.13" } }\n');
        x.write('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
        x.write('src/dates.js', 'exports.parse = (s) => new Date(s);\n');
      },
      (x) => x.fix('alpha'),
      (x) => x.fix('bravo'),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry-', 'retry+', 'pass']);
    const b = await ralfJson(s, ['task', 'verify', PLAN_B, '1']);
    expect(b.word, JSON.stringify(b.json)).toBe('pass');
    expect(existsSync(s.dir)).toBe(true);
  }, 90_000);
});
