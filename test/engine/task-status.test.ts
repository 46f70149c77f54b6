import { describe, expect, it } from 'vitest';
import { planDeferral } from '../../src/engine/core/deferral.js';
import { newLoopState, newPlanState } from '../../src/engine/core/loop-state.js';
import { planStatus, type StatusTask } from '../../src/engine/core/task-status.js';
import { lastHandoff } from '../../src/engine/core/status.js';
import type { LoopState, PlanState } from '../../src/engine/core/types.js';

const task = (n: number, decision: StatusTask['decision'] = 'loop'): StatusTask => ({ number: n, name: `Task ${n}: T${n}`, key: `name:t${n}`, type: decision === 'refuse' ? 'checkpoint:human-verify' : 'auto', decision, memory_key: String(n) });
const loop = (n: number, patch: Partial<LoopState>): LoopState => ({ ...newLoopState({ scope: 'task', task_number: n, task_name: `Task ${n}: T${n}`, max_iterations: 3 }), ...patch });
const LOOPS = { decision: 'loop' as const, reason: 'autonomous: true with plan-level checks' };
function state(loops: Record<string, LoopState>): PlanState {
  return { ...newPlanState({ plan_path: 'p', plan_id: '01-01', now: 'n' }), tasks: loops };
}

describe('planStatus: where a plan resumes', () => {
  it('resumes at the first unfinished task; passed and deferred tasks are never re-opened', () => {
    const s = state({ 'name:t1': loop(1, { status: 'passed' }), 'name:t2': loop(2, { status: 'stopped', stop_reason: 'deferred', deferred: { at: 'a', reason: 'r', ref: null, removed: [], left: [], restore_command: null } }) });
    const r = planStatus({ tasks: [task(1), task(2), task(3)], state: s, commits: new Map([[1, 'abc1234']]), memory: null, planDecision: LOOPS });
    expect(r.tasks.map((t) => [t.status, t.commit])).toEqual([['passed', 'abc1234'], ['deferred', null], ['not_started', null]]);
    expect(r.resume_at).toBe(3);
  });

  it('a stopped or running task is where the plan resumes, even with later tasks done; an interrupted loop is running', () => {
    const s = state({ 'name:t1': loop(1, { status: 'stopped', stop_reason: 'interrupted', iterations: [] , start_ref: 's' }), 'name:t2': loop(2, { status: 'passed' }) });
    const r = planStatus({ tasks: [task(1), task(2)], state: s, commits: new Map(), memory: null, planDecision: LOOPS });
    expect(r.tasks[0]!.status).toBe('running');
    expect(r.resume_at).toBe(1);
  });

  it('a task the loop does not wrap is done by its commit, ralf run or a checkpoint answer, or taken as done when a later task started', () => {
    const tasks = [task(1, 'skip'), task(2, 'refuse'), task(3, 'refuse'), task(4), task(5, 'skip')];
    const s = state({ 'name:t4': loop(4, { status: 'running', start_ref: 's' }) });
    const r = planStatus({ tasks, state: s, commits: new Map([[1, 'c1']]), memory: { tasks: {}, checkpoints: { '2': { reply: 'approved' } } }, planDecision: LOOPS });
    expect(r.tasks.map((t) => [t.status, t.done_by])).toEqual([['passed', 'commit'], ['passed', 'checkpoint answer'], ['not_started', null], ['running', null], ['not_started', null]]);
    expect(r.tasks[2]!.note).toMatch(/taken as done/);
    expect(r.resume_at).toBe(4);
    expect(planStatus({ tasks: [task(1, 'skip')], state: null, commits: new Map(), memory: null, planDecision: LOOPS }).resume_at).toBe(1);
  });

  it('every task finished: no resume point', () => {
    const r = planStatus({ tasks: [task(1)], state: state({ 'name:t1': loop(1, { status: 'passed' }) }), commits: new Map(), memory: null, planDecision: LOOPS });
    expect(r).toMatchObject({ resume_at: null, tasks_complete: true });
  });

  it('the last handoff is that of the most recently stopped loop, not of a deferred one', () => {
    const h = (n: number) => ({ markdown: `h${n}` }) as unknown as LoopState['handoff'];
    const s = state({
      a: loop(1, { status: 'stopped', stop_reason: 'no_progress', handoff: h(1), updated_at: '2026-01-01T00:00:02Z' }),
      b: loop(2, { status: 'stopped', stop_reason: 'max_iterations', handoff: h(2), updated_at: '2026-01-01T00:00:01Z' }),
      c: loop(3, { status: 'stopped', stop_reason: 'deferred', handoff: h(3), updated_at: '2026-01-01T00:00:03Z', deferred: { at: 'a', reason: 'r', ref: null, removed: [], left: [], restore_command: null } }),
    });
    expect(lastHandoff(s)).toMatchObject({ task: 1, stop_reason: 'no_progress', handoff: { markdown: 'h1' } });
  });
});

describe('planDeferral: only the loop\'s edits', () => {
  it('puts back what the loop changed unless it changed after the last verify', () => {
    const r = planDeferral({ startSource: 'task_start', loopPaths: ['src/b.js', 'src/a.js'], changedSinceVerify: new Set(['src/b.js']) });
    expect(r.remove).toEqual(['src/a.js']);
    expect(r.left).toEqual([{ path: 'src/b.js', reason: expect.stringMatching(/after the last verify/) }]);
  });

  it('removes nothing when the loop started from HEAD or its start is unknown', () => {
    for (const source of ['head', null, undefined] as const) {
      const r = planDeferral({ startSource: source, loopPaths: ['src/a.js'], changedSinceVerify: new Set() });
      expect(r.remove).toEqual([]);
      expect(r.left[0]!.reason).toMatch(/started from HEAD/);
    }
  });
});

describe('planStatus: the plan-level loop once every task is finished', () => {
  const done = () => state({ 'name:t1': loop(1, { status: 'passed' }) });
  it('not started, passed or stopped as its loop says; a plan that has none says why', () => {
    expect(planStatus({ tasks: [task(1)], state: done(), commits: new Map(), memory: null, planDecision: LOOPS }).plan_loop).toEqual({ decision: 'loop', reason: null, status: 'not_started', stop_reason: null });
    const passed = { ...done(), plan: { ...newLoopState({ scope: 'plan', task_number: null, task_name: 'Plan', max_iterations: 3 }), status: 'passed' as const } };
    expect(planStatus({ tasks: [task(1)], state: passed, commits: new Map(), memory: null, planDecision: LOOPS }).plan_loop.status).toBe('passed');
    const stopped = { ...done(), plan: { ...newLoopState({ scope: 'plan', task_number: null, task_name: 'Plan', max_iterations: 3 }), status: 'stopped' as const, stop_reason: 'max_iterations' as const } };
    expect(planStatus({ tasks: [task(1)], state: stopped, commits: new Map(), memory: null, planDecision: LOOPS }).plan_loop).toMatchObject({ status: 'stopped', stop_reason: 'max_iterations' });
    const none = planStatus({ tasks: [task(1)], state: done(), commits: new Map(), memory: null, planDecision: { decision: 'skip', reason: 'autonomous: false' } });
    expect(none.plan_loop).toEqual({ decision: 'skip', reason: 'autonomous: false', status: 'not_started', stop_reason: null });
  });
});
