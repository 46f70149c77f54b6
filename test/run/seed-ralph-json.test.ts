/**
 * ralph.json, tried as its users work: its own max_iterations and stop conditions (success,
 * max_iterations, budget_exhausted, error) hold unless the project config says otherwise,
 * unknown keys are warned about, and a token budget that cannot be counted is said to be so.
 */
import { describe, expect, it } from 'vitest';
import { ofType, readState } from './helpers.js';
import { agentCalls, seedProject, seedRun, subjects } from './seed-helpers.js';
import { taskLoop } from '../helpers/state.js';

const ralphJson = (extra: Record<string, unknown> = {}) =>
  `${JSON.stringify(
    {
      task: 'Make `a.txt` say ok',
      acceptance_criteria: [
        { type: 'file_exists', path: 'a.txt' },
        { type: 'command_succeeds', command: 'node gate.mjs' },
      ],
      max_iterations: 3,
      budget: { max_tokens: 200000 },
      ...extra,
    },
    null,
    2,
  )}\n`;

describe('ralph.json', () => {
  it('passes on its own file and commits the work', async () => {
    const p = seedProject({ 'ralph.json': ralphJson() }, null);
    const r = await seedRun(p, ['ralph.json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end')).toMatchObject([{ outcome: 'passed', iterations: 1 }]);
    expect(subjects(p)[0]).toBe('feat(ralph.json): Make `a.txt` say ok');
  });

  it('gets all of its max_iterations (its own stop conditions), warns about unknown keys and an uncountable token budget; the project config still wins', async () => {
    const p = seedProject({ 'ralph.json': ralphJson({ owner: 'ana' }) }, null);
    const r = await seedRun(p, ['ralph.json'], { SEED_AGENT_FAIL: 'a.txt' });
    expect(r.exitCode, r.stderr).toBe(20);
    expect(ofType(r.events, 'task_end')).toMatchObject([{ outcome: 'stopped', stop_reason: 'max_iterations', iterations: 3 }]);
    expect(agentCalls(p)).toHaveLength(3);
    const warnings = ofType(r.events, 'warning').map((e) => e.message as string);
    expect(warnings).toContainEqual(expect.stringMatching(/unknown key "owner" ignored/));
    expect(warnings).toContainEqual(expect.stringMatching(/token budget 200000: only tokens the agent reports are counted/));
    expect(warnings).toContainEqual(expect.stringMatching(/the agent reported no tokens in 3 runs, so the budget could not be counted/));

    // The project config says otherwise: ralf's repeated-fingerprint stop applies again.
    const q = seedProject({ 'ralph.json': ralphJson() }, { error_fingerprint_repeats: 2 });
    const r2 = await seedRun(q, ['ralph.json'], { SEED_AGENT_FAIL: 'a.txt' });
    expect(ofType(r2.events, 'task_end')).toMatchObject([{ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 }]);
    // RALPH_MAX_ITERATIONS (the run's environment) wins over the file.
    const e = seedProject({ 'ralph.json': ralphJson() }, null);
    const r3 = await seedRun(e, ['ralph.json'], { SEED_AGENT_FAIL: 'a.txt', RALPH_MAX_ITERATIONS: '2' });
    expect(ofType(r3.events, 'task_end')).toMatchObject([{ outcome: 'stopped', stop_reason: 'max_iterations', iterations: 2 }]);
    expect(taskLoop(readState({ ...e, planPath: '', planRel: '' }, 'ralph.json'), 1).max_iterations).toBe(2);
  });
});
