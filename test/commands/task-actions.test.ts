import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { autoTask, checkpointTask, Project, PLAN_REL, VALUE_CHECK } from '../engine/project.js';
import { taskLoop } from '../helpers/state.js';

const files = { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK };
const task = autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js' });

describe('ralf task escalate', () => {
  it('stops the loop with rule4_architectural and a decision handoff (exit 20)', async () => {
    const p = new Project({ tasks: task, files });
    await p.verify(1);
    const r = await p.run(['task', 'escalate', PLAN_REL, '1', '--rule', '4', '--reason', 'needs a new users table', '--alternatives', 'store it in the existing JSON column', '--json']);
    expect(r.exitCode).toBe(20);
    const o = JSON.parse(String(r.stdout));
    expect(o).toMatchObject({ action: 'escalate', verdict: 'stop', stop_reason: 'rule4_architectural', iteration: 1 });
    expect(o.handoff).toMatchObject({ recommended_action: 'decision_needed', escalation: { rule: 4, source: 'agent', reason: 'needs a new users table', alternatives: 'store it in the existing JSON column' } });
    expect(o.handoff.markdown).toContain('⚠️ Architectural Decision Needed');
    expect(o.handoff.markdown).toContain('Alternatives: store it in the existing JSON column');
    expect(o.handoff.markdown).toContain('Proceed with proposed change? (yes / different approach / defer)');
    // The loop stays stopped for later verifies.
    expect((await p.verify(1)).code).toBe(20);
  });

  it('readable output shows the checkpoint', async () => {
    const p = new Project({ tasks: task, files });
    const r = await p.run(['task', 'escalate', PLAN_REL, '1', '--rule', '4', '--reason', 'switch ORM']);
    expect(r.exitCode).toBe(20);
    expect(String(r.stdout)).toContain('## CHECKPOINT REACHED');
  });

  it.each([
    [['--rule', '2', '--reason', 'x'], /only --rule 4/],
    [['--reason', 'x'], /missing --rule 4/],
    [['--rule', '4'], /missing --reason/],
  ])('rejects %j', async (flags, message) => {
    const p = new Project({ tasks: task, files });
    const r = await p.run(['task', 'escalate', PLAN_REL, '1', ...flags]);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(message);
  });
});

describe('ralf task reset and start', () => {
  it('reset clears one task loop; the next verify is iteration 1', async () => {
    const p = new Project({ tasks: task, files, config: { max_iterations: 1 } });
    expect((await p.verify(1)).code).toBe(20);
    const dry = await p.run(['task', 'reset', PLAN_REL, '1', '--dry-run']);
    expect(String(dry.stdout)).toMatch(/would reset task 1 \(1 iteration, stopped \(max_iterations\)\)/);
    expect(taskLoop(p.state(), 1).iterations).toHaveLength(1);
    const r = await p.run(['task', 'reset', PLAN_REL, '1', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout)).reset).toHaveLength(1);
    expect(taskLoop(p.state(), 1)).toMatchObject({ status: 'idle', iterations: [] });
    const again = await p.verify(1);
    expect(again.json).toMatchObject({ iteration: 1 });
    expect(p.log().map((l) => l.action)).toEqual(['verify', 'reset', 'verify']);
  });

  it('reset --all clears every loop; reset of a task without state says so', async () => {
    const p = new Project({ tasks: `${task}\n${autoTask({ name: 'Task 2: Other', verify: 'node check.js' })}`, files });
    await p.verify(1);
    await p.verify(2);
    const none = await p.run(['task', 'reset', PLAN_REL, '--plan']);
    expect(none.exitCode).toBe(0);
    expect(String(none.stdout)).toMatch(/nothing to reset/);
    const all = await p.run(['task', 'reset', PLAN_REL, '--all', '--json']);
    expect(JSON.parse(String(all.stdout)).reset).toHaveLength(2);
    expect(Object.values(p.state().tasks).map((l: any) => l.iterations.length)).toEqual([0, 0]);
  });

  it('start records the start snapshot; the diff guard then sees only changes made after it', async () => {
    const p = new Project({ tasks: task, files: { ...files, 'package.json': '{"name":"x","dependencies":{}}' } });
    // An uncommitted dependency from before the task started (e.g. a human's change).
    p.write('package.json', '{"name":"x","dependencies":{"lodash":"^4.0.0"}}');
    const s = await p.run(['task', 'start', PLAN_REL, '1', '--json']);
    expect(s.exitCode).toBe(0);
    const started = JSON.parse(String(s.stdout));
    expect(started.start_ref).toMatch(/^[0-9a-f]{40}$/);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'pass' });
    expect(taskLoop(p.state(), 1).start_ref).toBe(started.start_ref);
  });

  it('start refuses a checkpoint task', async () => {
    const p = new Project({ tasks: `${task}\n${checkpointTask}`, files });
    const r = await p.run(['task', 'start', PLAN_REL, '2']);
    expect(r.exitCode).toBe(2);
  });
});

describe('ralf status', () => {
  it('shows each plan with state, from --cwd', async () => {
    const p = new Project({ tasks: `${task}\n${checkpointTask}`, files, config: { max_iterations: 1 } });
    await p.verify(1);
    await p.verify(2);
    const r = await p.run(['status', '--cwd', p.dir, '--json']);
    expect(r.exitCode).toBe(0);
    const o = JSON.parse(String(r.stdout));
    expect(o.project_root).toBe(p.dir);
    expect(o.plans).toHaveLength(1);
    expect(o.plans[0]).toMatchObject({ plan_id: '01-01', plan_path: PLAN_REL });
    expect(o.plans[0].loops[0]).toMatchObject({ scope: 'task', task: 1, status: 'stopped', stop_reason: 'max_iterations', iterations: 1, max_iterations: 1 });
    expect(o.plans[0].loops[0].last_fingerprint).toContain('expected fixed');
    expect(o.plans[0].not_looped[0]).toMatchObject({ number: 2, decision: 'refuse' });

    const text = await p.run(['status']);
    expect(String(text.stdout)).toMatch(/Plan 01-01/);
    expect(String(text.stdout)).toMatch(/max_iterations/);
  });

  it('with a PLAN: that plan only; --json names the state file instead of embedding it (a host hands its model ~30,000 characters of a tool result)', async () => {
    const p = new Project({ tasks: task, files });
    const empty = await p.run(['status', PLAN_REL]);
    expect(String(empty.stdout)).toMatch(/no loop state yet/);
    await p.verify(1);
    const r = await p.run(['status', PLAN_REL, '--json']);
    const o = JSON.parse(String(r.stdout));
    expect(o.plans).toHaveLength(1);
    expect(o.state).toBeUndefined();
    expect(o.plans[0].state_path).toBe('.planning/ralf/01-01.json');
    expect(o.tasks[0]).toMatchObject({ number: 1, status: 'running', iterations: 1 });
    expect(o.resume_at).toBe(1);
  });

  it('outside a project: exit 2', async () => {
    const p = new Project({ tasks: task, files });
    const r = await p.run(['status', '--cwd', tempDir()]);
    expect(r.exitCode).toBe(2);
  });

  it('a PLAN that cannot be read: exit 2 naming it when no loop is recorded; the recorded loops when one is', async () => {
    const p = new Project({ tasks: task, files });
    const typo = await p.run(['status', '.planning/phases/01-x/01-01-PLNA.md']);
    expect(typo.exitCode).toBe(2);
    expect(String(typo.stderr)).toContain('01-01-PLNA.md: no such file');
    expect(String(typo.stdout)).toBe('');
    await p.verify(1);
    rmSync(join(p.dir, PLAN_REL));
    const gone = await p.run(['status', PLAN_REL]);
    expect(gone.exitCode).toBe(0);
    expect(String(gone.stdout)).toMatch(/Plan 01-01/);
    expect(String(gone.stderr) + String(gone.stdout)).toMatch(/the plan could not be read/);
  });

  it('refuses state written by a newer ralf', async () => {
    const p = new Project({ tasks: task, files });
    await p.verify(1);
    const state = p.state();
    p.write('.planning/ralf/01-01.json', JSON.stringify({ ...state, schema_version: 99 }));
    const s = await p.run(['status', '--json']);
    expect(s.exitCode).toBe(2);
    expect(JSON.parse(String(s.stdout)).problems[0]).toMatchObject({ plan_id: '01-01', kind: 'state_newer' });
    const one = await p.run(['status', PLAN_REL, '--json']);
    expect(one.exitCode).toBe(2);
    expect(JSON.parse(String(one.stdout)).error.kind).toBe('state_newer');
    const v = await p.verify(1);
    expect(v.code).toBe(2);
    expect(v.json.error.message).toMatch(/newer ralf/);
    // Untouched.
    expect(p.state().schema_version).toBe(99);
  });
});

describe('ralf plan verify', () => {
  const verification = '\n<verification>\n- `node check.js` exits 0\n</verification>\n';

  it('runs the plan-level checks with the same exit codes and its own loop', async () => {
    const p = new Project({ tasks: task, files, after: verification });
    const first = await p.run(['plan', 'verify', PLAN_REL, '--json']);
    expect(first.exitCode).toBe(10);
    const o = JSON.parse(String(first.stdout));
    expect(o).toMatchObject({ scope: 'plan', task: null, verdict: 'retry', iteration: 1 });
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const second = await p.run(['plan', 'verify', PLAN_REL, '--json', '--done-confirmed']);
    expect(second.exitCode).toBe(0);
    expect(p.state().plan).toMatchObject({ scope: 'plan', status: 'passed', stop_reason: 'success' });
  });

  it('a plan that is not autonomous is not looped (exit 2 with the reason)', async () => {
    const p = new Project({ tasks: task, files, after: verification, autonomous: false });
    const r = await p.run(['plan', 'verify', PLAN_REL, '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(String(r.stdout)).error.kind).toMatch(/task_skipped|task_refused/);
    expect(p.state().plan_not_looped).toMatchObject({ decision: 'skip' });
  });
});

describe('ralf task <unknown>', () => {
  it('names the unknown action, not a missing plan (exit 2)', async () => {
    const r = await runCli(['task', 'frobnicate'], { cwd: tempDir('ralf-task-') });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('unknown subcommand "frobnicate" (expected verify, escalate, reset, start, approve or defer)');
  });
});
