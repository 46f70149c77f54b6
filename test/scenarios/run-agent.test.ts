/**
 * The same verdicts through `ralf run`: a scripted agent (agents/step-agent.mjs) that makes one
 * edit per call and always claims it is done, over a plan whose check is a real test runner.
 * The run ends where `task verify` would: progress passes, circles stop.
 */
import { describe, it } from 'vitest';
import { Scenario, wantFor } from './harness.js';
import { RUNNERS } from './runners.js';

const runner = RUNNERS.nodeTest;
const taskEnd = (events: any[]) => events.find((e) => e.type === 'task_end');

describe.concurrent('ralf run with a scripted agent (node:test)', () => {
  it('an agent fixing one test per call, last by name first: passes on iteration 3 and the task is committed', async ({ expect }) => {
    const s = new Scenario(runner, { want: wantFor(3), limits: { max_iterations: 5 } });
    const r = await s.runAgent([{ code: { values: { charlie: 3 } } }, { code: { values: { bravo: 2 } } }, { code: { values: { alpha: 1 } } }]);
    expect(r.code, JSON.stringify(r.events.slice(-2))).toBe(0);
    expect(taskEnd(r.events)).toMatchObject({ task: 1, outcome: 'passed', iterations: 3 });
    expect(s.git('log', '--format=%s').trim().split('\n')).toEqual(['feat(01-01): Make the units right', 'init']);
  }, 90_000);

  it('a lying agent going round in circles with a cosmetic change each call: stopped with no_progress at iteration 4, files restored', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, limits: { max_iterations: 8, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
    const swap = (i: number) => ({ code: { values: i % 2 === 0 ? { alpha: 1, bravo: 0 } : { alpha: 0, bravo: 2 }, comment: `attempt ${i + 1}` } });
    const r = await s.runAgent(Array.from({ length: 8 }, (_, i) => swap(i)));
    expect(r.code, JSON.stringify(r.events.slice(-2))).toBe(20);
    expect(taskEnd(r.events)).toMatchObject({ task: 1, outcome: 'stopped', stop_reason: 'no_progress', iterations: 4 });
    expect(taskEnd(r.events).handoff.recommended_action).toBe('manual_investigation');
    expect(s.read('src/units.js')).toBe(runner.source({ values: { alpha: 0, bravo: 0 } })['src/units.js']);
  }, 90_000);
});
