import { describe, expect, it } from 'vitest';
import { autoFixed, buildHandoff, steadyProgress } from '../../src/engine/core/handoff.js';
import { bareTaskName, taskTitle } from '../../src/engine/core/label.js';
import { renderVerify } from '../../src/engine/cli/render.js';
import { lastLines } from '../../src/engine/core/tail.js';
import type { VerifyOutcome } from '../../src/engine/shell/verify-task.js';
import { at, check, ctx, freshLoop, run, verified } from './helpers.js';

describe('handoff', () => {
  it('lists fingerprints per iteration, what was auto-fixed, files and still-failing checks', () => {
    const { state } = run(
      [
        verified([check(0, { fp: 'A', tests: ['t1', 't2'] }), check(1, { fp: 'B' })], { diff_hash: 'd1', files_changed: ['src/a.js'] }),
        verified([check(0, { fp: 'A', tests: ['t2'] }), check(1)], { diff_hash: 'd2', files_changed: ['src/a.js', 'src/b.js'] }),
        verified([check(0, { fp: 'C', tests: ['t2'], output: 'line\n'.repeat(100) + 'Error: C' }), check(1)], { diff_hash: 'd3', files_changed: ['src/a.js', 'src/b.js'] }),
      ],
      ctx({ max_iterations: 3, error_fingerprint_repeats: 5, no_progress_repeats: 5 }),
    );
    const h = state.handoff!;
    expect(h).toMatchObject({ scope: 'task', task_number: 2, stop_reason: 'max_iterations', iterations: 3, max_iterations: 3, recommended_action: 'split_task' });
    expect(h.fingerprints).toEqual([
      { iteration: 1, fingerprint: 'A' },
      { iteration: 2, fingerprint: 'A' },
      { iteration: 3, fingerprint: 'C' },
    ]);
    expect(h.auto_fixed).toEqual(['node check2.js', 'test: t1']);
    expect(h.files_changed).toEqual(['src/a.js', 'src/b.js']);
    expect(h.still_failing).toHaveLength(1);
    expect(h.still_failing[0]!.output_tail.split('\n').length).toBeLessThanOrEqual(21);
    expect(h.still_failing[0]!.output_tail).toContain('Error: C');
    expect(h.recommendation).toMatch(/split it into smaller tasks/i);
  });

  it('a test fixed at iteration 1 counts as auto-fixed against the baseline of the untouched tree (was: left out)', () => {
    const start = { ...freshLoop(), baseline: { at: at(0), source: 'task_start' as const, failing: [{ command: 'node check1.js', fingerprint: 'A', failing_tests: ['t1', 't2'] }, { command: 'node check2.js', fingerprint: 'B' }] } };
    // Iteration 1 fixes t1 and check 2; iteration 2 changes nothing the checks see: stopped.
    const { state } = run(
      [
        verified([check(0, { fp: 'A', tests: ['t2'] }), check(1)], { diff_hash: 'd1', files_changed: ['src/a.js'] }),
        verified([check(0, { fp: 'A', tests: ['t2'] }), check(1)], { diff_hash: 'd1', files_changed: ['src/a.js'] }),
      ],
      ctx(),
      start,
    );
    expect(state.stop_reason).toBe('repeated_fingerprint');
    expect(state.handoff!.auto_fixed).toEqual(['node check2.js', 'test: t1']);
    expect(state.handoff!.markdown).toContain('- test `t1`');
    // Without a baseline (no untouched tree was verified) there is nothing to compare iteration 1 with.
    expect(autoFixed(state.iterations)).toEqual([]);
  });

  it('markdown follows the GSD checkpoint shape', () => {
    const { state } = run([verified([check(0, { fp: 'TypeError: x | y' })]), verified([check(0, { fp: 'TypeError: x | y' })])]);
    const md = state.handoff!.markdown;
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual(['## CHECKPOINT REACHED', '### Current Task', '### Checkpoint Details', '### Awaiting']);
    expect(md).toContain('**Type:** decision');
    expect(md).toContain('**Plan:** 01-02');
    expect(md).toContain('**Progress:** 1/3 tasks complete');
    expect(md).toContain('**Task 2:** Add the parser');
    expect(md).toContain('**Status:** awaiting decision');
    expect(md).toContain('| 2 | `TypeError: x \\| y` | no |');
    expect(md).toContain('`manual_investigation`');
    expect(md).not.toMatch(/\n\n\n/);
  });

  it('agent escalation renders the Architectural Decision Needed block with its parts', () => {
    const { state } = run([
      {
        type: 'escalated',
        now: at(1),
        escalation: { rule: 4, source: 'agent', reason: 'needs a new table', proposed_change: 'add table sessions', why_needed: 'tokens must persist', impact: 'migration', alternatives: 'keep in memory' },
      },
    ]);
    const md = state.handoff!.markdown;
    expect(md).toContain('⚠️ Architectural Decision Needed');
    expect(md).toContain('Current task: Task 2: Add the parser');
    expect(md).toContain('Proposed change: add table sessions');
    expect(md).toContain('Why needed: tokens must persist');
    expect(md).toContain('Impact: migration');
    expect(md).toContain('Alternatives: keep in memory');
    expect(md).toContain('Proceed with proposed change? (yes / different approach / defer)');
  });

  it('steady progress needs at least two iterations', () => {
    expect(steadyProgress([])).toBe(false);
    const one = run([verified([check(0, { fp: 'A' })])], ctx({ max_iterations: 1 })).state;
    expect(steadyProgress(one.iterations)).toBe(false);
    expect(one.handoff!.recommended_action).toBe('manual_investigation');
    expect(autoFixed([])).toEqual([]);
  });

  it('running out: split_task when at least half the repeats fixed something, manual_investigation when each only brought a new error (was: split_task for both)', () => {
    const limits = ctx({ max_iterations: 4, error_fingerprint_repeats: 5, no_progress_repeats: 5 });
    // One test, a different wrong value each time: a new tree and a new error, nothing fixed.
    const guessing = run([1, 2, 3, 4].map((i) => verified([check(0, { fp: `alpha | expected 10, got ${i}`, tests: ['alpha'] })], { diff_hash: `d${i}` })), limits).state;
    expect(guessing.iterations.map((it) => it.progress)).toEqual([true, true, true, true]);
    expect(guessing.handoff!.recommended_action).toBe('manual_investigation');
    expect(guessing.handoff!.recommendation).not.toMatch(/split it/i);
    // Four of six tests, one fixed per iteration: steady.
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const fixing = run([0, 1, 2, 3].map((i) => verified([check(0, { fp: `${names[i]} failed`, tests: names.slice(i) })], { diff_hash: `d${i}` })), limits).state;
    expect(fixing.handoff!.recommended_action).toBe('split_task');
    // One of three repeats fixed something, the others only brought a new error: not steady.
    const third = run([verified([check(0, { fp: 'A', tests: ['a', 'b', 'c'] })], { diff_hash: 'd1' }), verified([check(0, { fp: 'B', tests: ['b', 'c'] })], { diff_hash: 'd2' }), verified([check(0, { fp: 'B2', tests: ['b', 'c'] })], { diff_hash: 'd3' }), verified([check(0, { fp: 'B3', tests: ['b', 'c'] })], { diff_hash: 'd4' })], limits).state;
    expect(third.iterations.slice(1).map((it) => it.delta?.improved)).toEqual([true, false, false]);
    expect(third.handoff!.recommended_action).toBe('manual_investigation');
  });

  it('the plan-level handoff suggests resetting the plan loop', () => {
    const loop = { ...run([]).state, scope: 'plan' as const, task_number: null, task_name: 'Demo plan' };
    const h = buildHandoff({ ...loop, status: 'stopped', stop_reason: 'no_progress', no_progress_streak: 2 }, ctx());
    expect(h.markdown).toContain('**Plan-level verification:** Demo plan');
    expect(h.recommendation).toContain('--plan');
  });
});

describe('labels and tails', () => {
  it.each([
    [3, 'Task 3: Add login', 'Add login'],
    [3, 'task 3 - Add login', 'Add login'],
    [3, 'Add login', 'Add login'],
    [3, 'Task 3', 'Task 3'],
  ])('bareTaskName(%i, %s)', (n, name, bare) => {
    expect(bareTaskName(n, name)).toBe(bare);
  });

  it('taskTitle', () => {
    expect(taskTitle(2, 'Task 2: Parse')).toBe('Task 2 "Parse"');
    expect(taskTitle(2, 'Task 2')).toBe('Task 2');
  });

  it('lastLines keeps the end and says what it dropped', () => {
    expect(lastLines('a\nb\nc\n', 2)).toBe('… (1 earlier line omitted)\nb\nc');
    expect(lastLines('a\nb', 5)).toBe('a\nb');
    expect(lastLines('', 5)).toBe('');
    expect(lastLines('x'.repeat(50), 3, 10)).toContain('xxxxxxxxxx');
  });
});

describe('readable verify output', () => {
  const base: VerifyOutcome = {
    verdict: 'retry',
    stop_reason: null,
    exit_code: 10,
    scope: 'task',
    task: { number: 2, name: 'Task 2: Parse' },
    plan_id: '01-02',
    plan_path: 'p.md',
    iteration: 2,
    max_iterations: 3,
    counted: true,
    already_ended: false,
    fingerprint: 'Error: boom',
    progress: false,
    progress_reasons: ['no progress: same'],
    checks: [check(0, { fp: 'Error: boom', output: Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') }), check(1)],
    failing_tests: [],
    done_confirmed: false,
    manual: [],
    requires_confirmation: false,
    warning: 'iteration 2/3: the next iteration is the last one before the loop stops with max_iterations',
    message: 'Task 2 failed iteration 2/3: 1 of 2 checks failing.',
    next: 'Repair it.',
    interrupted: null,
    handoff: null,
    state_path: 's.json',
  };

  it('shows the failing command, the last 40 lines, fingerprint, i/N, warning and next step', () => {
    const text = renderVerify(base);
    expect(text).toContain('RETRY Task 2 "Parse" — iteration 2/3');
    expect(text).toContain('✗ node check1.js (exit 1, 5 ms)');
    expect(text).toContain('line 99');
    expect(text).toContain('line 60');
    expect(text).not.toContain('line 59\n');
    expect(text).toContain('fingerprint: Error: boom');
    expect(text).toContain('warning: iteration 2/3');
    expect(text).toContain('next: Repair it.');
    expect(text).not.toContain('node check2.js');
  });
});
