import { describe, expect, it } from 'vitest';
import { applyApprovals, updateApprovals } from '../../src/engine/core/approvals.js';
import { reduce } from '../../src/engine/core/reducer.js';
import { SEGMENTS_KEPT, allIterations, totalIterations } from '../../src/engine/core/segments.js';
import { newPlanState } from '../../src/engine/core/loop-state.js';
import type { LoopState, Rule4Approval } from '../../src/engine/core/types.js';
import { at, check, ctx, run, verified } from './helpers.js';

const approval = (over: Partial<Rule4Approval> = {}): Rule4Approval => ({
  at: at(0),
  scope: 'task',
  task_number: 1,
  task_key: 'name:one',
  task_name: 'Task 1: One',
  findings: ['new dependency in package.json: zod (dependencies)'],
  reason: 'diff guard',
  source: 'diff_guard',
  open: false,
  note: null,
  ref: null,
  ...over,
});

describe('applyApprovals', () => {
  it('subtracts approved findings by their exact text, for any loop of the plan', () => {
    const findings = ['new dependency in package.json: zod (dependencies)', 'new dependency in package.json: lodash (dependencies)'];
    for (const who of [{ scope: 'task' as const, taskKey: 'name:one' }, { scope: 'task' as const, taskKey: 'name:two' }, { scope: 'plan' as const, taskKey: null }]) {
      const g = applyApprovals(findings, [approval()], who);
      expect(g.approved).toEqual([findings[0]]);
      expect(g.blocking).toEqual([findings[1]]);
      expect(g.absorbed.size).toBe(0);
    }
  });

  it("an open approval (an agent's escalation) covers its own loop's findings only, and records them", () => {
    const open = approval({ findings: [], open: true, source: 'agent' });
    const own = applyApprovals(['new migration file: db/migrations/1.sql'], [open], { scope: 'task', taskKey: 'name:one' });
    expect(own).toMatchObject({ blocking: [], approved: ['new migration file: db/migrations/1.sql'] });
    expect([...own.absorbed]).toEqual([[0, ['new migration file: db/migrations/1.sql']]]);
    const other = applyApprovals(['new migration file: db/migrations/1.sql'], [open], { scope: 'task', taskKey: 'name:two' });
    expect(other.blocking).toEqual(['new migration file: db/migrations/1.sql']);

    const state = { ...newPlanState({ plan_path: 'p', plan_id: '01-01', now: at(0) }), approvals: [open] };
    const updated = updateApprovals(state, own.absorbed, { scope: 'task', taskKey: 'name:one' }, true);
    expect(updated.approvals![0]).toMatchObject({ open: false, findings: ['new migration file: db/migrations/1.sql'] });
    // Not passed yet: it stays open.
    expect(updateApprovals(state, own.absorbed, { scope: 'task', taskKey: 'name:one' }, false).approvals![0]!.open).toBe(true);
  });

  it('no findings, nothing to do', () => {
    expect(applyApprovals([], [approval()], { scope: 'plan', taskKey: null })).toMatchObject({ blocking: [], approved: [] });
  });
});

describe('reduce: segments across reset and approve', () => {
  const guardStop = verified([check(0)], { rule4_findings: ['new dependency in package.json: zod (dependencies)'], diff_hash: 'd1', t: 1 });

  it('approve starts a fresh budget from the same start point and keeps the stopped stretch', () => {
    const { state } = run([verified([check(0, { fp: 'E' })], { diff_hash: 'd0', t: 0 }), guardStop]);
    expect(state.stop_reason).toBe('rule4_architectural');
    const r = reduce(state, { type: 'approved', now: at(5), findings: ['new dependency in package.json: zod (dependencies)'] }, ctx());
    expect(r.state).toMatchObject({ status: 'idle', iterations: [], start_ref: state.start_ref, stop_reason: null });
    expect(r.state.segments).toHaveLength(1);
    expect(r.state.segments![0]).toMatchObject({ stop_reason: 'rule4_architectural', ended_by: 'approve', recommended_action: 'decision_needed' });
    expect(totalIterations(r.state)).toBe(2);
    const next = reduce(r.state, verified([check(0)], { diff_hash: 'd2', t: 6 }), ctx());
    expect(next.decision).toMatchObject({ verdict: 'pass', iteration: 1 });
    expect(allIterations(next.state).map((x) => [x.segment, x.iteration.iteration])).toEqual([[1, 1], [1, 2], [2, 1]]);
  });

  it('reset keeps the earlier stretch too, with a new start point', () => {
    const { state } = run([verified([check(0, { fp: 'E' })], { diff_hash: 'd0', t: 0 })]);
    const r = reduce(state, { type: 'reset', now: at(3), start_ref: 'tree-now' }, ctx());
    expect(r.state).toMatchObject({ start_ref: 'tree-now', start_source: 'reset', iterations: [] });
    expect(r.state.segments![0]).toMatchObject({ ended_by: 'reset', status: 'running' });
  });

  it(`keeps at most ${SEGMENTS_KEPT} segments and counts the rest`, () => {
    let loop: LoopState = run([verified([check(0, { fp: 'E' })], { diff_hash: 'd0', t: 0 })]).state;
    for (let i = 0; i < SEGMENTS_KEPT + 3; i++) {
      loop = reduce(loop, { type: 'reset', now: at(i + 1), start_ref: 's' }, ctx()).state;
      loop = reduce(loop, verified([check(0, { fp: 'E' })], { diff_hash: `d${i}`, t: i + 1 }), ctx()).state;
    }
    expect(loop.segments).toHaveLength(SEGMENTS_KEPT);
    expect(loop.segments_dropped).toBe(3);
  });

  it('defer stops the loop for good; a later verify answers without recording', () => {
    const { state } = run([verified([check(0, { fp: 'E' })], { diff_hash: 'd0', t: 0 })]);
    const deferral = { at: at(2), reason: 'later', ref: null, removed: [], left: [], restore_command: null };
    const r = reduce(state, { type: 'deferred', now: at(2), deferral }, ctx());
    expect(r.state).toMatchObject({ status: 'stopped', stop_reason: 'deferred', deferred: deferral });
    const q = reduce(r.state, verified([check(0)], { diff_hash: 'd9', t: 3 }), ctx());
    expect(q.decision).toMatchObject({ already_ended: true, counted: false });
    expect(q.decision.message).toMatch(/deferred \(later\)/);
  });
});
