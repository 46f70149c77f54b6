import { describe, expect, it } from 'vitest';
import { reduce } from '../../src/engine/core/reducer.js';
import type { StopReason, Verdict } from '../../src/engine/core/types.js';
import { at, check, ctx, freshLoop, run, verified } from './helpers.js';

const fail = (fp: string, diff: string | null = null, t = 0) => verified([check(0, { fp })], { diff_hash: diff, t });
const pass = (opts: Parameters<typeof verified>[1] = {}) => verified([check(0)], opts);

describe('reduce: success', () => {
  it('passes on iteration 1 when every check passes', () => {
    const { state, last } = run([pass()]);
    expect(last).toMatchObject({ verdict: 'pass', stop_reason: 'success', iteration: 1, counted: true, handoff: null });
    expect(state).toMatchObject({ status: 'passed', stop_reason: 'success', start_ref: 'start-tree', started_at: at(0) });
    expect(state.iterations[0]).toMatchObject({ iteration: 1, passed: true, verdict: 'pass', stop_reason: 'success', fingerprint: null });
  });

  it('passes on iteration 2 after a failure', () => {
    const { state, decisions } = run([fail('TypeError: x is undefined'), pass()]);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'pass']);
    expect(state.iterations[1]!.progress_reasons).toEqual(['check fixed: node check1.js']);
    expect(state.total_duration_ms).toBe(2000);
  });

  it.each([
    ['the same tree that failed (flaky, or a change outside the tree): the pass stands and names it', 'd1', 1],
    ['a new tree: nothing named', 'd2', undefined],
    ['back at the start tree, which no iteration failed on: nothing named', null, undefined],
  ] as Array<[string, string | null, number | undefined]>)('a pass after a failure on %s', (_name, tree, named) => {
    const { state, last } = run([fail('A', 'd1'), pass({ diff_hash: tree, tree: tree ?? 'start-tree' })]);
    expect(last.verdict).toBe('pass');
    expect(state.iterations[1]!.same_tree_failed).toBe(named);
    if (named) expect(last.message).toBe('Task 2 passed on iteration 2/3. Note: the same code failed at iteration 1 (the working tree is unchanged since): unless something outside it changed (dependencies installed, a service started), the checks are flaky and this pass may be luck.');
    else expect(last.message).toBe('Task 2 passed on iteration 2/3.');
  });

  it("a pass after the task's named files changed (a git-ignored .env fixed) is no pass on the same code: nothing named, progress recorded", () => {
    const { state, last } = run([verified([check(0, { fp: 'A' })], { diff_hash: null, tree: 'start-tree', declared_hash: 'env1' }), pass({ diff_hash: null, tree: 'start-tree', declared_hash: 'env2' })]);
    expect(last.verdict).toBe('pass');
    expect(state.iterations[1]).toMatchObject({ declared_hash: 'env2', progress: true });
    expect(state.iterations[1]!.same_tree_failed).toBeUndefined();
    // The same contents again: the note stands.
    const again = run([verified([check(0, { fp: 'A' })], { diff_hash: null, tree: 'start-tree', declared_hash: 'env1' }), pass({ diff_hash: null, tree: 'start-tree', declared_hash: 'env1' })]);
    expect(again.state.iterations[1]!.same_tree_failed).toBe(1);
  });

  it('success on the last allowed iteration is success, not max_iterations', () => {
    const { last } = run([fail('A', 'd1'), fail('B', 'd2'), pass()], ctx({ max_iterations: 3, error_fingerprint_repeats: 9, no_progress_repeats: 9 }));
    expect(last).toMatchObject({ verdict: 'pass', stop_reason: 'success', iteration: 3 });
  });

  it('a task with no checks passes only with --done-confirmed', () => {
    const r1 = run([verified([], { requires_confirmation: true })]);
    expect(r1.last).toMatchObject({ verdict: 'confirm', counted: false });
    const r2 = run([verified([], { requires_confirmation: true, done_confirmed: true })]);
    expect(r2.last).toMatchObject({ verdict: 'pass', counted: true });
  });
});

describe('reduce: manual done criteria', () => {
  it('checks pass without --done-confirmed: confirm, which does not use an iteration', () => {
    const { state, last } = run([pass({ requires_confirmation: true, tree: 't1' })]);
    expect(last).toMatchObject({ verdict: 'confirm', stop_reason: null, counted: false, iteration: 0 });
    expect(last.message).toBe('checks pass; confirm manual criteria with --done-confirmed (request 1 of 3)');
    expect(state).toMatchObject({ status: 'running', awaiting_confirmation: true, iterations: [], confirmations: 1, pending_confirmation: { tree: 't1' } });
  });

  it('then --done-confirmed passes and records the confirmation', () => {
    const { state, last } = run([pass({ requires_confirmation: true }), pass({ requires_confirmation: true, done_confirmed: true })]);
    expect(last).toMatchObject({ verdict: 'pass', counted: true, iteration: 1 });
    expect(state).toMatchObject({ status: 'passed', done_confirmed: true, awaiting_confirmation: false });
    expect(state.iterations[0]!.done_confirmed).toBe(true);
  });

  it('unconfirmed passes use no iteration but stop at their own bound (CONFIRM_MAX = 3) with unconfirmed', () => {
    const events = Array.from({ length: 3 }, () => pass({ requires_confirmation: true }));
    const { state, decisions } = run(events);
    expect(decisions.map((d) => d.verdict)).toEqual(['confirm', 'confirm', 'stop']);
    expect(state).toMatchObject({ stop_reason: 'unconfirmed', iterations: [] });
    // A confirmation after that stop passes.
    const r = reduce(state, pass({ requires_confirmation: true, done_confirmed: true }), ctx());
    expect(r.decision).toMatchObject({ verdict: 'pass', counted: true, iteration: 1 });
  });

  it('a counted iteration resets the confirmation count', () => {
    const { state } = run([pass({ requires_confirmation: true }), pass({ requires_confirmation: true }), fail('A', 'd1'), pass({ requires_confirmation: true })]);
    expect(state).toMatchObject({ status: 'running', confirmations: 1 });
  });
});

describe('reduce: repeated_fingerprint boundaries', () => {
  it.each([
    // [repeats, identical failures, expected verdicts]
    [1, 1, ['stop']],
    [2, 1, ['retry']],
    [2, 2, ['retry', 'stop']],
    [3, 2, ['retry', 'retry']],
    [3, 3, ['retry', 'retry', 'stop']],
  ] as Array<[number, number, Verdict[]]>)('error_fingerprint_repeats=%i after %i identical failures', (repeats, count, verdicts) => {
    // The code changes every time (progress), so only the fingerprint rule can stop it.
    const events = Array.from({ length: count }, (_, i) => fail('Error: same', `diff-${i}`));
    const { decisions, state } = run(events, ctx({ max_iterations: 10, error_fingerprint_repeats: repeats, no_progress_repeats: 10 }));
    expect(decisions.map((d) => d.verdict)).toEqual(verdicts);
    expect(state.fingerprint_streak).toBe(count);
    if (verdicts.at(-1) === 'stop') expect(state.stop_reason).toBe('repeated_fingerprint');
  });

  it('a different fingerprint resets the streak', () => {
    const { state, decisions } = run([fail('A', 'd1'), fail('B', 'd2'), fail('B', 'd3')], ctx({ max_iterations: 10 }));
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'stop']);
    expect(state.stop_reason).toBe('repeated_fingerprint');
  });

  it('a failure without a fingerprint never builds a streak', () => {
    const ev = (d: string) => verified([check(0, { fp: null, passed: false })], { diff_hash: d });
    const { state, decisions } = run([ev('a'), ev('b')], ctx({ max_iterations: 10 }));
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry']);
    expect(state.fingerprint_streak).toBe(0);
  });
});

describe('reduce: no_progress boundaries', () => {
  it.each([
    [1, 1, ['retry']], // iteration 1 is never no-progress
    [1, 2, ['retry', 'stop']],
    [2, 2, ['retry', 'retry']],
    [2, 3, ['retry', 'retry', 'stop']],
    [3, 3, ['retry', 'retry', 'retry']],
    [3, 4, ['retry', 'retry', 'retry', 'stop']],
  ] as Array<[number, number, Verdict[]]>)('no_progress_repeats=%i after %i identical iterations', (repeats, count, verdicts) => {
    const events = Array.from({ length: count }, () => fail('Error: same', 'same-diff'));
    const { decisions, state } = run(events, ctx({ max_iterations: 10, error_fingerprint_repeats: 10, no_progress_repeats: repeats }));
    expect(decisions.map((d) => d.verdict)).toEqual(verdicts);
    expect(state.no_progress_streak).toBe(count - 1);
    if (verdicts.at(-1) === 'stop') expect(state.stop_reason).toBe('no_progress');
  });

  it('progress resets the streak', () => {
    const { decisions } = run([fail('A', 'd'), fail('A', 'd'), fail('A', 'd2'), fail('A', 'd2')], ctx({ max_iterations: 10, error_fingerprint_repeats: 10, no_progress_repeats: 2 }));
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'retry', 'retry']);
  });
});

describe('reduce: max_iterations boundaries', () => {
  it.each([
    [1, 1, ['stop']],
    [2, 1, ['retry']],
    [2, 2, ['retry', 'stop']],
    [3, 2, ['retry', 'retry']],
    [3, 3, ['retry', 'retry', 'stop']],
  ] as Array<[number, number, Verdict[]]>)('max_iterations=%i after %i progressing failures', (max, count, verdicts) => {
    // One of four failing tests fixed per iteration: steady progress.
    const tests = ['t1', 't2', 't3', 't4'];
    const events = Array.from({ length: count }, (_, i) => verified([check(0, { fp: `Error ${i}`, tests: tests.slice(i) })], { diff_hash: `diff-${i}` }));
    const { decisions, state } = run(events, ctx({ max_iterations: max }));
    expect(decisions.map((d) => d.verdict)).toEqual(verdicts);
    if (verdicts.at(-1) === 'stop') {
      expect(state.stop_reason).toBe('max_iterations');
      expect(state.handoff?.recommended_action).toBe(count >= 2 ? 'split_task' : 'manual_investigation');
      // A new error each time with nothing fixed is not steady progress (handoff.ts, steadyProgress).
      const guessing = run(Array.from({ length: count }, (_, i) => fail(`Error ${i}`, `diff-${i}`)), ctx({ max_iterations: max })).state;
      expect(guessing.handoff?.recommended_action).toBe('manual_investigation');
    }
  });
});

describe('reduce: precedence on the same iteration', () => {
  const table: Array<[string, Parameters<typeof ctx>[0], Array<ReturnType<typeof verified>>, StopReason]> = [
    ['repeated_fingerprint beats no_progress and max_iterations', { max_iterations: 2, error_fingerprint_repeats: 2, no_progress_repeats: 1 }, [fail('A', 'd'), fail('A', 'd')], 'repeated_fingerprint'],
    ['no_progress beats max_iterations', { max_iterations: 2, error_fingerprint_repeats: 5, no_progress_repeats: 1 }, [fail('A', 'd'), fail('A', 'd')], 'no_progress'],
    ['max_iterations beats time_budget', { max_iterations: 2, error_fingerprint_repeats: 5, no_progress_repeats: 5, time_budget_seconds: 50 }, [fail('A', 'd', 0), fail('B', 'e', 100)], 'max_iterations'],
    [
      'rule4 beats success',
      {},
      [verified([check(0)], { rule4_findings: ['package.json: new dependency "left-pad"'] })],
      'rule4_architectural',
    ],
    [
      'rule4 beats repeated_fingerprint',
      {},
      [fail('A', 'd'), verified([check(0, { fp: 'A' })], { diff_hash: 'd', rule4_findings: ['package.json: new dependency "x"'] })],
      'rule4_architectural',
    ],
  ];
  it.each(table)('%s', (_name, limits, events, expected) => {
    const { state } = run(events, ctx(limits));
    expect(state.stop_reason).toBe(expected);
    expect(state.iterations.at(-1)!.stop_reason).toBe(expected);
  });
});

describe('reduce: time budget', () => {
  it('stops with time_budget once the loop ran for time_budget_seconds', () => {
    const c = ctx({ max_iterations: 10, error_fingerprint_repeats: 10, no_progress_repeats: 10, time_budget_seconds: 60 });
    const { decisions, state } = run([fail('A', 'a', 0), fail('B', 'b', 58), fail('C', 'c', 59)], c);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'stop']);
    expect(state.stop_reason).toBe('time_budget');
  });
  it('no time budget by default', () => {
    const { last } = run([fail('A', 'a', 0), fail('B', 'b', 100_000)], ctx({ max_iterations: 10 }));
    expect(last.verdict).toBe('retry');
  });
});

describe('reduce: Rule 4', () => {
  it('diff guard findings stop with rule4_architectural and a decision_needed handoff', () => {
    const { state, last } = run([verified([check(0, { fp: 'A' })], { rule4_findings: ['package.json: new dependency "left-pad"'] })]);
    expect(last).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural', counted: true });
    expect(state.escalation).toMatchObject({ rule: 4, source: 'diff_guard', findings: ['package.json: new dependency "left-pad"'] });
    expect(state.handoff?.recommended_action).toBe('decision_needed');
    expect(state.handoff?.markdown).toContain('⚠️ Architectural Decision Needed');
  });

  it('escalation by the agent stops without counting an iteration', () => {
    const { state, last } = run([fail('A', 'd'), { type: 'escalated', now: at(5), escalation: { rule: 4, reason: 'needs a new users table', source: 'agent' } }]);
    expect(last).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural', counted: false, iteration: 1 });
    expect(state.handoff).toMatchObject({ recommended_action: 'decision_needed', escalation: { source: 'agent', reason: 'needs a new users table' } });
  });

  it('escalation also stops a loop that already passed or stopped', () => {
    const e = { type: 'escalated' as const, now: at(5), escalation: { rule: 4 as const, reason: 'r', source: 'agent' as const } };
    expect(run([pass(), e]).state.stop_reason).toBe('rule4_architectural');
    expect(run([fail('A', 'd'), fail('A', 'd'), e]).state.stop_reason).toBe('rule4_architectural');
  });
});

describe('reduce: after the loop ended', () => {
  it('a verify after a stop gets the stopped verdict and adds nothing', () => {
    const first = run([fail('A', 'd'), fail('A', 'd')]);
    expect(first.state.stop_reason).toBe('repeated_fingerprint');
    const again = reduce(first.state, pass({ t: 10 }), ctx());
    expect(again.decision).toMatchObject({ verdict: 'stop', stop_reason: 'repeated_fingerprint', counted: false, already_ended: true, iteration: 2 });
    expect(again.decision.handoff).toBe(first.state.handoff);
    expect(again.state).toBe(first.state);
  });

  it('a verify after a pass that still passes is a pass and adds nothing', () => {
    const first = run([pass()]);
    const again = reduce(first.state, pass({ t: 10 }), ctx());
    expect(again.decision).toMatchObject({ verdict: 'pass', stop_reason: 'success', counted: false, already_ended: true, iteration: 1 });
  });

  it('a verify after a pass that fails reopens the loop and counts', () => {
    const first = run([pass()]);
    const again = reduce(first.state, fail('regressed', 'd2', 10), ctx());
    expect(again.decision).toMatchObject({ verdict: 'retry', counted: true, iteration: 2 });
    expect(again.state.status).toBe('running');
  });
});

describe('reduce: interruption, reset, run events', () => {
  it('interrupted does not count; the next verify resumes at the next iteration', () => {
    const { state, decisions } = run([fail('A', 'd1'), { type: 'interrupted', now: at(3), cause: 'signal', signal: 'SIGINT' }, fail('B', 'd2', 5)]);
    expect(decisions[1]).toMatchObject({ verdict: 'stop', stop_reason: 'interrupted', counted: false, iteration: 1 });
    expect(decisions[2]).toMatchObject({ verdict: 'retry', counted: true, iteration: 2 });
    expect(state).toMatchObject({ status: 'running', stop_reason: null, interrupted: null });
  });

  it('interrupted keeps a finished loop as it was', () => {
    const first = run([pass()]);
    const r = reduce(first.state, { type: 'interrupted', now: at(3), cause: 'stop_flag' }, ctx());
    expect(r.decision).toMatchObject({ verdict: 'pass', already_ended: true });
  });

  it('reset clears the loop and sets the new start point', () => {
    const { state, last } = run([fail('A', 'd'), fail('A', 'd'), { type: 'reset', now: at(9), start_ref: 'tree-2' }]);
    expect(state).toMatchObject({ status: 'idle', stop_reason: null, iterations: [], start_ref: 'tree-2', fingerprint_streak: 0, no_progress_streak: 0, handoff: null });
    expect(last.verdict).toBe('retry');
  });

  it.each([
    [{ type: 'budget_exhausted' as const, now: at(9), budget: 'time' as const, detail: '4h run' }, 'time_budget'],
    [{ type: 'budget_exhausted' as const, now: at(9), budget: 'token' as const, detail: '2M tokens' }, 'token_budget'],
    [{ type: 'blocked' as const, now: at(9), reason: 'gh: not logged in' }, 'blocked'],
  ])('%o stops with %s', (event, reason) => {
    const { state, last } = run([fail('A', 'd'), event]);
    expect(last).toMatchObject({ verdict: 'stop', stop_reason: reason, counted: false });
    expect(state.handoff?.recommended_action).toBe('manual_investigation');
    expect(state.stop_detail).toBeTruthy();
  });

  it('started records the start point before the first verify only', () => {
    const s1 = run([{ type: 'started', now: at(0), start_ref: 'tree-a' }]).state;
    expect(s1).toMatchObject({ start_ref: 'tree-a', started_at: at(0), status: 'idle' });
    const s2 = run([{ type: 'started', now: at(0), start_ref: 'tree-a' }, fail('A', 'd', 1), { type: 'started', now: at(5), start_ref: 'tree-b' }]).state;
    expect(s2.start_ref).toBe('tree-a');
  });

  it('a verify keeps an existing start point', () => {
    const s = run([{ type: 'started', now: at(0), start_ref: 'tree-a' }, verified([check(0, { fp: 'A' })], { start_ref: 'other' })]).state;
    expect(s.start_ref).toBe('tree-a');
  });
});

describe('reduce: 80% warning', () => {
  it.each([
    [3, 1, false],
    [3, 2, true],
    [5, 3, true],
    [10, 6, false],
    [10, 7, true],
  ])('max_iterations=%i after iteration %i: warning %s', (max, count, warned) => {
    const events = Array.from({ length: count }, (_, i) => fail(`E${i}`, `d${i}`));
    const { last, state } = run(events, ctx({ max_iterations: max, error_fingerprint_repeats: 99, no_progress_repeats: 99 }));
    expect(last.verdict).toBe('retry');
    expect(last.warning !== null).toBe(warned);
    expect(state.warning ?? null).toBe(last.warning);
  });
});

describe('reduce: concurrent verifies become consecutive iterations', () => {
  it('two results computed from the same state both count, in order', () => {
    const base = run([fail('A', 'd1')]).state;
    // Both verifies read `base`, ran checks, then reduce one after the other under the lock.
    const first = reduce(base, fail('B', 'd2', 5), ctx({ max_iterations: 5 }));
    const second = reduce(first.state, fail('C', 'd3', 5), ctx({ max_iterations: 5 }));
    expect(second.state.iterations.map((i) => i.iteration)).toEqual([1, 2, 3]);
  });
});

describe('reduce: the per-iteration delta drives every rule', () => {
  const loose = ctx({ max_iterations: 10, error_fingerprint_repeats: 2, no_progress_repeats: 2 });
  const tests = (fp: string, names: string[], diff: string) => verified([check(0, { fp, tests: names })], { diff_hash: diff });

  it.each([
    ['b then c', [['a', 'c'], ['a']]],
    ['c then b', [['a', 'b'], ['a']]],
  ])('fixing one of three failing tests at a time (%s) is retry with progress, never repeated_fingerprint', (_name, steps) => {
    // The fingerprint names the first failing test by sort order, so it stays `FAIL a` throughout.
    const events = [tests('FAIL a', ['a', 'b', 'c'], 'd0'), ...steps.map((names, i) => tests('FAIL a', names, `d${i + 1}`))];
    const { decisions, state } = run(events, loose);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'retry']);
    expect(decisions.slice(1).every((d) => d.progress === true)).toBe(true);
    expect(decisions[1]!.progress_reasons[0]).toMatch(/^no longer failing: /);
    expect(state.fingerprint_streak).toBe(1);
  });

  it('fixing check 2 while check 1 fails identically is progress', () => {
    const { decisions } = run([verified([check(0, { fp: 'A' }), check(1, { fp: 'B' })], { diff_hash: 'd1' }), verified([check(0, { fp: 'A' }), check(1)], { diff_hash: 'd2' })], loose);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry']);
    expect(decisions[1]!.progress_reasons).toEqual(['check fixed: node check2.js']);
  });

  it('cosmetic edits with the same error stop with repeated_fingerprint at the 2nd occurrence', () => {
    const { decisions, state } = run([fail('A', 'd1'), fail('A', 'd2')], loose);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'stop']);
    expect(state.stop_reason).toBe('repeated_fingerprint');
  });

  it('A,B,A,B oscillation stops with no_progress at iteration no_progress_repeats + 2, never split_task', () => {
    const osc = [fail('A', 'dA'), fail('B', 'dB'), fail('A', 'dA'), fail('B', 'dB')];
    const { decisions, state } = run(osc, ctx({ max_iterations: 10, error_fingerprint_repeats: 3, no_progress_repeats: 2 }));
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'retry', 'stop']);
    expect(state).toMatchObject({ stop_reason: 'no_progress', no_progress_streak: 2 });
    expect(state.handoff?.recommended_action).toBe('manual_investigation');
  });

  // A return to an earlier result continues that result's fingerprint count when nothing
  // improved in between: the detour (another wrong value, a syntax error) neither resets it
  // nor adds to it. [name, limits, events (fingerprint, tree, failing tests), verdicts, stop, counts]
  const detour = (fp: string, tree: string, names?: string[]) => verified([check(0, { fp, ...(names ? { tests: names } : {}) })], { diff_hash: tree, tree });
  it.each([
    ['A, B, A (two wrong values): the 2nd A is the 2nd occurrence', 2, [detour('A', 'dA'), detour('B', 'dB'), detour('A', 'dA')], ['retry', 'retry', 'stop'], 'repeated_fingerprint', [1, 1, 2]],
    ['A, S1, A, S2, A (a fresh syntax error between): the 3rd A with repeats 3', 3, [detour('A', 'dA', ['t']), detour('S1', 'dS1'), detour('A', 'dA2', ['t']), detour('S2', 'dS2'), detour('A', 'dA3', ['t'])], ['retry', 'retry', 'retry', 'retry', 'stop'], 'repeated_fingerprint', [1, 1, 2, 1, 3]],
    ['A, B, A, B where B fixed a test (a swap): the 2nd A is no repeat (B improved on it); the 2nd B is, nothing improved since B', 3, [detour('FAIL a', 'd1', ['a']), detour('FAIL b', 'd2', ['b']), detour('FAIL a', 'd3', ['a']), detour('FAIL b', 'd4', ['b'])], ['retry', 'retry', 'retry', 'stop'], 'no_progress', [1, 1, 1, 2]],
    ['A, A′ in a row is unchanged: the 2nd occurrence', 2, [detour('A', 'd1'), detour('A', 'd2')], ['retry', 'stop'], 'repeated_fingerprint', [1, 2]],
  ] as Array<[string, number, ReturnType<typeof detour>[], Verdict[], StopReason, number[]]>)('%s', (_name, repeats, events, verdicts, stop, counts) => {
    const { decisions, state } = run(events, ctx({ max_iterations: 10, error_fingerprint_repeats: repeats, no_progress_repeats: 2 }));
    expect(decisions.map((d) => d.verdict)).toEqual(verdicts);
    expect(state.stop_reason).toBe(stop);
    expect(state.iterations.map((it) => it.fingerprint_streak)).toEqual(counts);
    expect(state.handoff?.recommended_action).toBe('manual_investigation');
  });

  it('oscillation that runs into max_iterations is manual_investigation, not split_task', () => {
    const { state } = run([fail('A', 'dA'), fail('B', 'dB'), fail('A', 'dA')], ctx({ max_iterations: 3, error_fingerprint_repeats: 9, no_progress_repeats: 9 }));
    expect(state.stop_reason).toBe('max_iterations');
    expect(state.handoff?.recommended_action).toBe('manual_investigation');
  });

  it('a downstream error (compile error, then failing tests) is progress and resets the fingerprint count', () => {
    const { decisions, state } = run([fail('TS2304', 'd1'), tests('FAIL t1', ['t1'], 'd2'), tests('FAIL t1', ['t1'], 'd3')], loose);
    expect(decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'stop']);
    expect(decisions[1]!.progress_reasons[0]).toMatch(/^error moved downstream/);
    expect(state.stop_reason).toBe('repeated_fingerprint');
  });

  it('a different error in check 2 while check 1 fails identically is not a repeat; the same in both is', () => {
    const two = (fp2: string, hash: string) => verified([check(0, { fp: 'lint: TODO left' }), check(1, { fp: fp2 })], { diff_hash: hash, tree: hash });
    const moving = run([two('expected 10, got 3', 'd1'), two('expected 10, got 7', 'd2'), two('expected 10, got 9', 'd3')], ctx({ max_iterations: 6 }));
    expect(moving.decisions.map((d) => d.verdict)).toEqual(['retry', 'retry', 'retry']);
    expect(moving.state.iterations[1]!.delta).toMatchObject({ fingerprint_changed: false, failures_changed: true, improved: false });
    expect(moving.state.iterations[1]!.progress_reasons).toEqual(['code changed, a different error']);
    const stuck = run([two('expected 10, got 3', 'd1'), two('expected 10, got 3', 'd2')], ctx({ max_iterations: 6 }));
    expect(stuck.last).toMatchObject({ verdict: 'stop', stop_reason: 'repeated_fingerprint' });
  });

  it('the delta is recorded on each iteration', () => {
    const { state } = run([tests('FAIL a', ['a', 'b'], 'd1'), tests('FAIL a', ['a'], 'd2')], loose);
    expect(state.iterations[1]!.delta).toEqual({ checks_fixed: [], tests_fixed: ['b'], fingerprint_changed: false, stage_advanced: [], novel_tree: true, returned_to: null, returned_result: null, improved: true });
  });
});
