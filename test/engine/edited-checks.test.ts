/**
 * An agent that edits the plan's checks cannot change what verifies its work: the loop runs
 * the checks the plan stated where the loop started (src/engine/core/checks-at-start.ts), in
 * real git repos through the CLI.
 */
import { describe, expect, it } from 'vitest';
import { checksToRun } from '../../src/engine/core/checks-at-start.js';
import type { Check } from '../../src/plan/model.js';
import { autoTask, PLAN_REL, Project } from './project.js';

const HELLO = autoTask({ name: 'Say hello', files: ['a.txt'], verify: 'grep -q hello a.txt' });

function weaken(p: Project, from: string, to: string): void {
  const text = p.read(PLAN_REL);
  expect(text).toContain(from);
  p.write(PLAN_REL, text.replace(from, to));
}

describe('checksToRun (pure)', () => {
  const cmd = (command: string, line = 10): Check => ({ kind: 'command_succeeds', command, source: { element: 'verify', line } });

  it('runs the plan as it is when nothing was recorded or the checks are the same (lines may move)', () => {
    expect(checksToRun(null, [cmd('npm test')])).toEqual({ checks: [cmd('npm test')], edited: null });
    expect(checksToRun([cmd('npm test', 10)], [cmd('npm test', 14)])).toEqual({ checks: [cmd('npm test', 14)], edited: null });
  });

  it('runs the recorded checks when the plan weakened, dropped, reordered or added one', () => {
    const start = [cmd('npm test'), cmd('npx tsc --noEmit')];
    for (const now of [[cmd('true'), cmd('npx tsc --noEmit')], [cmd('npm test')], [cmd('npx tsc --noEmit'), cmd('npm test')], [...start, cmd('echo ok')], []]) {
      expect(checksToRun(start, now)).toEqual({ checks: start, edited: now });
    }
    const fileCheck: Check = { kind: 'contains_text', path: 'a.txt', text: 'hello', source: { element: 'done', line: 3 } };
    expect(checksToRun([fileCheck], [{ ...fileCheck, text: 'hell' }]).edited).not.toBeNull();
  });
});

describe('an agent edits the plan\'s checks', () => {
  it('after `task start`: the weakened check does not run; the original fails until the work is done', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' }, config: { max_iterations: 5, error_fingerprint_repeats: 3, no_progress_repeats: 3 } });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    const first = await p.verify(1, '--done-confirmed');
    expect(first.json).toMatchObject({ verdict: 'retry', iteration: 1 });
    expect(first.json.plan_checks_edited).toBeUndefined();

    // The lie: the check now asks for what the file already says.
    weaken(p, 'grep -q hello a.txt', 'grep -q bye a.txt');
    const lied = await p.verify(1, '--done-confirmed');
    expect(lied.code).toBe(10);
    expect(lied.json.verdict).toBe('retry');
    expect(lied.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q hello a.txt']);
    expect(lied.json.plan_checks_edited).toEqual(['grep -q bye a.txt']);
    expect(lied.json.message).toMatch(/task 1's checks were edited since the loop started \(now: `grep -q bye a\.txt`\); ralf ran them as they were then/);
    expect(lied.json.message).toContain(`task reset ${PLAN_REL} 1`);
    expect(p.state().tasks['1'] ?? Object.values(p.state().tasks)[0]).toMatchObject({ checks_at_start: [{ command: 'grep -q hello a.txt' }] });

    // The real fix passes (the plan still says `bye`: the recorded check is what counts).
    p.write('a.txt', 'hello\n');
    const fixed = await p.verify(1, '--done-confirmed');
    expect(fixed.json).toMatchObject({ verdict: 'pass' });
    expect(fixed.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q hello a.txt']);
    const iterations = (Object.values(p.state().tasks)[0] as { iterations: Array<{ plan_checks_edited?: string[] }> }).iterations;
    expect(iterations.map((i) => i.plan_checks_edited ?? null)).toEqual([null, ['grep -q bye a.txt'], ['grep -q bye a.txt']]);

    // The Loop Report says so, for the human who reads SUMMARY.md.
    const report = await p.run(['report', PLAN_REL, '--dry-run', '--create']);
    expect(report.exitCode, String(report.stderr)).toBe(0);
    expect(String(report.stdout)).toContain('Checks edited in the plan during the loop, not run (the loop ran the ones it started with): `grep -q bye a.txt`');
  });

  it('a stop\'s handoff tells the human which checks the plan now has', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    expect((await p.verify(1, '--done-confirmed')).json.verdict).toBe('retry');
    weaken(p, 'grep -q hello a.txt', 'true');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'stop', stop_reason: 'repeated_fingerprint' });
    expect(r.json.handoff.markdown).toContain('**Checks edited in the plan during the loop** (not run; the loop ran the ones it started with): `true`');
  });

  it('without `task start`: the first verify runs the checks as committed at HEAD, not the edited working copy', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    weaken(p, 'grep -q hello a.txt', 'true');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'retry', iteration: 1, plan_checks_edited: ['true'] });
    expect(r.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q hello a.txt']);
    expect(r.json.message).toContain("task 1's checks differ from the plan as committed at HEAD (now: `true`); ralf ran them as committed");
  });

  it('deleting the check does not leave the task with nothing to verify', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    weaken(p, '<verify>`grep -q hello a.txt`</verify>', '<verify>Looks right.</verify>');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'retry', plan_checks_edited: [] });
    expect(r.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q hello a.txt']);
  });

  it('flipping `autonomous` or the task type does not end an open loop; a checkpoint type still refuses', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    weaken(p, 'autonomous: true', 'autonomous: false');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'retry' });
    expect(r.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q hello a.txt']);
    weaken(p, 'autonomous: false', 'autonomous: true');
    weaken(p, '<task type="auto">', '<task type="checkpoint:human-verify">');
    const gate = await p.verify(1, '--done-confirmed');
    expect(gate.code).toBe(2);
    expect(JSON.stringify(gate.json.error)).toMatch(/checkpoint:human-verify/);
  });

  it('a human who changes the checks on purpose resets the loop, which takes the plan as it is', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    expect((await p.verify(1, '--done-confirmed')).json.verdict).toBe('retry');
    weaken(p, 'grep -q hello a.txt', 'grep -q bye a.txt');
    expect((await p.run(['task', 'reset', PLAN_REL, '1'])).exitCode).toBe(0);
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'pass' });
    expect(r.json.plan_checks_edited).toBeUndefined();
    expect(r.json.checks.map((c: { command: string }) => c.command)).toEqual(['grep -q bye a.txt']);
  });

  it('edits elsewhere in the plan (lines shift, notes added) change nothing', async () => {
    const p = new Project({ tasks: HELLO, files: { 'a.txt': 'bye\n' } });
    const text = p.read(PLAN_REL);
    p.write(PLAN_REL, text.replace('<objective>', '<!-- executed 2026-11-24 -->\n\n<objective>'));
    p.write('a.txt', 'hello\n');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'pass' });
    expect(r.json.plan_checks_edited).toBeUndefined();
  });
});
