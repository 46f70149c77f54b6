import { beforeAll, describe, expect, it } from 'vitest';
import { autoTask, checkpointTask, Project, PLAN_REL, VALUE_CHECK } from '../engine/project.js';
import { taskLoop } from '../helpers/state.js';

const task = (extra: Partial<Parameters<typeof autoTask>[0]> = {}) => autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js', ...extra });
const files = { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK };

describe('ralf task verify: scripted agents', () => {
  it('a task fixed on iteration 2 passes (exit 10, then 0)', async () => {
    const p = new Project({ tasks: task(), files });
    const first = await p.verify(1);
    expect(first.code).toBe(10);
    expect(first.json).toMatchObject({ verdict: 'retry', stop_reason: null, iteration: 1, max_iterations: 3, progress: true, handoff: null });
    expect(first.json.fingerprint).toContain('expected fixed, got broken');
    expect(first.json.checks[0]).toMatchObject({ command: 'node check.js', passed: false, exit_code: 1 });
    expect(first.json.checks[0].output_tail).toContain('Error: expected fixed, got broken');

    p.write('src/a.js', "module.exports = 'fixed';\n");
    const second = await p.verify(1);
    expect(second.code).toBe(0);
    expect(second.json).toMatchObject({ verdict: 'pass', stop_reason: 'success', iteration: 2, fingerprint: null });
    expect(second.json.progress_reasons).toContain('check fixed: node check.js');

    const state = p.state();
    expect(state).toMatchObject({ schema_version: 2, plan_id: '01-01', plan_path: PLAN_REL });
    expect(Object.keys(state.tasks)).toEqual(['name:make-the-value-right']);
    expect(taskLoop(state, 1)).toMatchObject({ status: 'passed', stop_reason: 'success' });
    expect(taskLoop(state, 1).iterations).toHaveLength(2);
    expect(taskLoop(state, 1).iterations[1].files_changed).toEqual(['src/a.js']);
    expect(p.log().map((l) => [l.iteration, l.verdict, l.counted])).toEqual([
      [1, 'retry', true],
      [2, 'pass', true],
    ]);
  });

  it('an agent repeating the same error stops with repeated_fingerprint after exactly error_fingerprint_repeats', async () => {
    const p = new Project({ tasks: task(), files, config: { max_iterations: 6, error_fingerprint_repeats: 3, no_progress_repeats: 6 } });
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      // The agent edits the file every time (progress by diff), but the error is the same.
      p.write('src/a.js', `// attempt ${i}\nmodule.exports = 'broken';\n`);
      codes.push((await p.verify(1)).code ?? -1);
    }
    expect(codes).toEqual([10, 10, 20]);
    const s = taskLoop(p.state(), 1);
    expect(s).toMatchObject({ status: 'stopped', stop_reason: 'repeated_fingerprint', fingerprint_streak: 3 });
    expect(s.iterations).toHaveLength(3);
    expect(s.handoff.recommended_action).toBe('manual_investigation');
  });

  it('an agent that changes nothing stops with no_progress', async () => {
    const p = new Project({ tasks: task(), files, config: { max_iterations: 6, error_fingerprint_repeats: 6, no_progress_repeats: 2 } });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await p.verify(1));
    expect(results.map((r) => r.code)).toEqual([10, 10, 20]);
    expect(results[1]!.json.progress).toBe(false);
    expect(results[2]!.json).toMatchObject({ verdict: 'stop', stop_reason: 'no_progress', iteration: 3 });
    expect(results[2]!.json.handoff).toMatchObject({ stop_reason: 'no_progress', recommended_action: 'manual_investigation', iterations: 3 });
  });

  it('a new wrong value every time until max_iterations: progress, but nothing fixed, recommends manual_investigation (was: split_task)', async () => {
    const p = new Project({ tasks: task(), files, config: { max_iterations: 3 } });
    const results = [];
    for (let i = 1; i <= 3; i++) {
      p.write('src/a.js', `module.exports = 'attempt-${i}';\n`);
      results.push(await p.verify(1));
    }
    expect(results.map((r) => r.code)).toEqual([10, 10, 20]);
    expect(results[1]!.json.warning).toMatch(/next iteration is the last/);
    const h = results[2]!.json.handoff;
    expect(h).toMatchObject({ stop_reason: 'max_iterations', recommended_action: 'manual_investigation', iterations: 3, max_iterations: 3 });
    expect(h.fingerprints.map((f: { iteration: number }) => f.iteration)).toEqual([1, 2, 3]);
    expect(h.files_changed).toEqual(['src/a.js']);
    expect(h.still_failing[0].command).toBe('node check.js');
    expect(h.markdown).toContain('## CHECKPOINT REACHED');
    expect(h.markdown).toContain('**Type:** decision');
  });

  it('a Rule 4 diff (a new dependency in package.json) stops with rule4_architectural', async () => {
    const p = new Project({ tasks: task(), files: { ...files, 'package.json': JSON.stringify({ name: 'demo', dependencies: {} }, null, 2) } });
    p.write('package.json', JSON.stringify({ name: 'demo', dependencies: { 'left-pad': '^1.3.0' } }, null, 2));
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const r = await p.verify(1, '--done-confirmed');
    expect(r.code).toBe(20);
    expect(r.json).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural' });
    expect(r.json.handoff.recommended_action).toBe('decision_needed');
    expect(r.json.handoff.escalation).toMatchObject({ rule: 4, source: 'diff_guard' });
    expect(r.json.handoff.escalation.findings.join('\n')).toContain('left-pad');
    expect(r.json.handoff.markdown).toContain('⚠️ Architectural Decision Needed');

    // The human approves: reset takes the current tree as the new baseline; the loop passes.
    expect((await p.run(['task', 'reset', PLAN_REL, '1'])).exitCode).toBe(0);
    const again = await p.verify(1, '--done-confirmed');
    expect(again.json).toMatchObject({ verdict: 'pass', iteration: 1 });
  });

  it('a verify after the loop stopped gets the stopped verdict without adding an iteration', async () => {
    const p = new Project({ tasks: task(), files, config: { max_iterations: 1 } });
    expect((await p.verify(1)).code).toBe(20);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const r = await p.verify(1, '--done-confirmed');
    expect(r.code).toBe(20);
    expect(r.json).toMatchObject({ verdict: 'stop', stop_reason: 'max_iterations', iteration: 1, counted: false, already_ended: true });
    expect(r.json.checks).toEqual([]);
    expect(taskLoop(p.state(), 1).iterations).toHaveLength(1);
  });
});

describe('ralf task verify: manual done criteria', () => {
  let p: Project;
  beforeAll(() => {
    p = new Project({ tasks: task({ done: 'The greeting reads well to a human' }), files: { ...files, 'src/a.js': "module.exports = 'fixed';\n" } });
  });

  it('checks pass without --done-confirmed: exit 11 confirm, no iteration used', async () => {
    const r = await p.verify(1);
    expect(r.code).toBe(11);
    expect(r.json).toMatchObject({ verdict: 'confirm', counted: false, iteration: 0, requires_confirmation: true });
    expect(r.json.message).toBe('checks pass; confirm manual criteria with --done-confirmed (request 1 of 3)');
    expect(r.json.manual.length).toBeGreaterThan(0);
  });

  it('with --done-confirmed: pass on iteration 1, confirmation recorded', async () => {
    const r = await p.verify(1, '--done-confirmed');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ verdict: 'pass', iteration: 1, done_confirmed: true });
    expect(taskLoop(p.state(), 1)).toMatchObject({ done_confirmed: true, status: 'passed' });
  });

  it('the readable output names the criteria', async () => {
    const q = new Project({ tasks: task({ done: 'The greeting reads well to a human' }), files: { ...files, 'src/a.js': "module.exports = 'fixed';\n" } });
    const r = await q.run(['task', 'verify', PLAN_REL, '1']);
    expect(r.exitCode).toBe(11);
    expect(String(r.stdout)).toMatch(/^CONFIRM Task 1/);
    expect(String(r.stdout)).toContain('--done-confirmed');
  });

  it('shows each check as it starts on stderr for people, and keeps stderr quiet with --json (not a terminal)', async () => {
    const q = new Project({ tasks: task({ verify: 'node check.js', done: '`node -e "process.exit(0)"` passes' }), files, config: { max_iterations: 5, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    const r = await q.run(['task', 'verify', PLAN_REL, '1']);
    expect(r.exitCode).toBe(10);
    expect(String(r.stderr).split('\n').filter(Boolean)).toEqual(['ralf: [1/2] node check.js', 'ralf: [2/2] node -e "process.exit(0)"']);
    const j = await q.verify(1);
    expect(j.code).toBe(10);
    expect(j.stderr).toBe('');
  });
});

describe('ralf task verify: refused and skipped tasks', () => {
  it('a checkpoint task is refused with exit 2 and recorded in not_looped', async () => {
    const p = new Project({ tasks: `${task()}\n${checkpointTask}`, files });
    const r = await p.verify(2);
    expect(r.code).toBe(2);
    expect(r.json.error.kind).toBe('task_refused');
    expect(JSON.stringify(r.json.error)).toMatch(/checkpoint/);
    expect(JSON.stringify(r.json.error)).toMatch(/CHECKPOINT REACHED/);
    const state = p.state();
    expect(state.not_looped).toEqual([expect.objectContaining({ number: 2, decision: 'refuse', type: 'checkpoint:human-verify' })]);
    expect(state.tasks).toEqual({});
  });

  it('a task without executable checks is skipped with exit 2 and a hint', async () => {
    const p = new Project({
      tasks: '<task type="auto">\n  <name>Task 1: Write docs</name>\n  <files>README.md</files>\n  <action>Write it.</action>\n  <done>The README explains setup</done>\n</task>',
      files,
    });
    const r = await p.verify(1);
    expect(r.code).toBe(2);
    expect(r.json.error.kind).toBe('task_skipped');
    expect(JSON.stringify(r.json.error)).toMatch(/without the loop/);
  });

  it('an unknown task number is a usage error', async () => {
    const p = new Project({ tasks: task(), files });
    const r = await p.verify(7);
    expect(r.code).toBe(2);
    expect(r.json.error.kind).toBe('task_not_found');
  });

  it('a bad task number is a usage error', async () => {
    const p = new Project({ tasks: task(), files });
    const r = await p.run(['task', 'verify', PLAN_REL, 'x']);
    expect(r.exitCode).toBe(2);
  });
});
