/**
 * The confirm verdict (checks pass, manual criteria unconfirmed: `verdict: "confirm"`, exit 11 for
 * `task verify`/`plan verify`) and the plan-level loop, through `ralf run` on an `autonomous: true`
 * plan with `must_haves.truths` (criteria only a person or the agent can confirm) and a
 * `<verification>` check. The scripted agent says DONE (which confirms) or makes no promise at
 * all. Every command the handoff prints is run as written in the project directory.
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';
import { PLAN, Scenario, wantFor, type AgentRun } from './harness.js';
import { RUNNERS } from './runners.js';

const runner = RUNNERS.nodeTest;
const SUMMARY = '.planning/phases/01-units/01-01-SUMMARY.md';
const FIXED = runner.source({ values: { alpha: 1, bravo: 2 } })['src/units.js']!;

/** Task 1 only compiles the units; the plan's <verification> runs the tests; two truths to confirm. */
const PLAN_WITH_TRUTHS = `---
phase: 01-units
plan: 01
type: execute
wave: 1
depends_on: []
files_modified: [src/units.js]
autonomous: true
must_haves:
  truths:
    - "Every unit returns the value its test expects"
    - "The units read well to a maintainer"
---

<objective>
Make every unit return its value.
</objective>

<tasks>
<task type="auto">
  <name>Task 1: Make the units compile</name>
  <files>src/units.js</files>
  <action>Make every unit return what its test expects.</action>
  <verify>\`node --check src/units.js\`</verify>
</task>
</tasks>

<verification>
\`node --test test/\`
</verification>
`;

function project(plan: (s: Scenario) => string): Scenario {
  const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
  s.write(PLAN, plan(s));
  s.git('commit', '-qam', 'plan');
  return s;
}

const ofType = (r: AgentRun, type: string) => r.events.filter((e) => e.type === type);
/** Each verify as `<task or plan>:<iteration>:<verdict>[:<stop reason>]`. */
const trail = (r: AgentRun) => ofType(r, 'verify').map((v) => `${v.task ?? 'plan'}:${v.iteration}:${v.verdict}${v.stop_reason && v.stop_reason !== 'success' ? `:${v.stop_reason}` : ''}`);
const explain = (r: AgentRun) => JSON.stringify(r.events.filter((e) => e.type !== 'agent_start' && e.type !== 'agent_exit').map(({ ts: _t, elapsed_ms: _e, handoff: _h, tasks: _k, ...e }) => e), null, 1).slice(0, 6000);
const commits = (s: Scenario) => s.git('log', '--format=%s').trim().split('\n');

function sh(s: Scenario, command: string): { code: number | null; stdout: string } {
  const r = spawnSync('bash', ['-c', command], { cwd: s.dir, env: s.env() as NodeJS.ProcessEnv, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout + r.stderr };
}
const doneConfirmed = (text: string) => /`([^`]* --done-confirmed)`/.exec(text)?.[1];

describe.concurrent('ralf run: the confirm verdict and the plan-level loop', () => {
  it('the tasks did it all: the plan-level loop asks to confirm (confirm, not an iteration), the agent says DONE, the green result is reused: complete, exit 0', async ({ expect }) => {
    const s = project(() => PLAN_WITH_TRUTHS);
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } } }, {}]);
    expect(r.code, explain(r)).toBe(0);
    expect(trail(r)).toEqual(['1:1:pass', 'plan:0:confirm', 'plan:1:pass']);
    expect(ofType(r, 'verify')[1].message).toContain('request 1 of 3');
    expect(ofType(r, 'verify')[2].message).toContain('was reused');
    expect(ofType(r, 'agent_start')).toHaveLength(2);
    expect(commits(s)).toEqual(['feat(01-01): Make the units compile', 'plan', 'init']);
    expect(s.read(SUMMARY)).toMatch(/Plan-level loop: passed after 1 iteration/);
  }, 90_000);

  it('the plan-level checks fail after the task passed: the agent repairs them at plan level (retry, then pass at 2, confirmed by DONE)', async ({ expect }) => {
    const s = project(() => PLAN_WITH_TRUTHS);
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { code: { values: { bravo: 2 } } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(trail(r)).toEqual(['1:1:pass', 'plan:1:retry', 'plan:2:pass']);
    expect(s.git('show', '--name-only', '--format=', 'HEAD').trim()).toBe('src/units.js');
    expect(s.read(SUMMARY)).toMatch(/Plan-level loop: passed after 2 iterations/);
  }, 90_000);

  it('an agent that never confirms at plan level: confirm, confirm, then stopped unconfirmed at the 3rd request (exit 20); the handoff\'s --done-confirmed verify passes and the same run again completes', async ({ expect }) => {
    const s = project(() => PLAN_WITH_TRUTHS);
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } } }, { silent: true }, { silent: true }, { silent: true }]);
    expect(r.code, explain(r)).toBe(20);
    expect(trail(r)).toEqual(['1:1:pass', 'plan:0:confirm', 'plan:0:confirm', 'plan:0:stop:unconfirmed']);
    expect(s.exists(SUMMARY)).toBe(false);
    const handoff = ofType(r, 'task_end').at(-1).handoff;
    expect(handoff.recommended_action).toBe('decision_needed');
    const confirm = doneConfirmed(handoff.recommendation);
    expect(confirm, handoff.recommendation).toMatch(/ plan verify /);
    const v = sh(s, `${confirm} --json`);
    expect(v.code, v.stdout).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ verdict: 'pass' });
    const again = await s.runAgent([]);
    expect(again.code, explain(again)).toBe(0);
    expect(ofType(again, 'agent_start')).toEqual([]);
    expect(ofType(again, 'run_end')[0]).toMatchObject({ outcome: 'complete' });
    expect(s.exists(SUMMARY)).toBe(true);
  }, 90_000);

  it('a task with a manual <done> and an agent that never confirms: stopped unconfirmed with its passing change kept; the handoff\'s --done-confirmed verify passes it and the next run commits it', async ({ expect }) => {
    const s = project((sc) => sc.read(PLAN).replace('</verify>', '</verify>\n  <done>The units read well to a maintainer</done>'));
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } }, silent: true }, { silent: true }, { silent: true }]);
    expect(r.code, explain(r)).toBe(20);
    expect(trail(r)).toEqual(['1:0:confirm', '1:0:confirm', '1:0:stop:unconfirmed']);
    expect(ofType(r, 'revert')).toEqual([]);
    expect(s.read('src/units.js')).toBe(FIXED);
    const handoff = ofType(r, 'task_end')[0].handoff;
    const confirm = doneConfirmed(handoff.recommendation);
    expect(confirm, handoff.recommendation).toMatch(/ task verify /);
    const v = sh(s, confirm!);
    expect(v.code, v.stdout).toBe(0);
    const again = await s.runAgent([]);
    expect(again.code, explain(again)).toBe(0);
    expect(ofType(again, 'task_end')[0]).toMatchObject({ outcome: 'already_done' });
    expect(ofType(again, 'commit')[0]).toMatchObject({ task: 1, files: ['src/units.js'] });
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'plan', 'init']);
    expect(s.git('status', '--porcelain', '--', 'src')).toBe('');
  }, 90_000);
});
