/**
 * What `ralf run` accepts besides one PLAN.md: tasks that are not looped (run once), the
 * plan-level loop, a phase directory (wave order, completed plans skipped), and a seed
 * format (a PRD checklist) through the src/formats dispatcher.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { agentCmd, autoTask, git, makeProject, ofType, planText, prompts, ralfRun, readState, runStableCli } from './helpers.js';

describe.concurrent('ralf run targets', () => {
  it('a task without objective checks runs once, unverified, and is committed; then the plan-level loop verifies', async ({ expect }) => {
    const p = makeProject([
      `<task type="auto">
  <name>Task 1: Write notes</name>
  <files>notes.txt</files>
  <action>Write ok into notes.txt.</action>
</task>`,
      autoTask(2, 'Write a', ['a.txt']),
    ]);
    // A plan-level check (autonomous plan): both files must be ok at the end.
    const text = readFileSync(p.planPath, 'utf8').replace('</tasks>\n', '</tasks>\n\n<verification>\n- [ ] `node check.mjs notes a` passes\n</verification>\n');
    writeFileSync(p.planPath, text);
    git(p.root, 'commit', '-qam', 'plan-level check');
    const r = await ralfRun(p, 'progress');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_start').map((e) => [e.task, e.decision])).toEqual([
      [1, 'skip'],
      [2, 'loop'],
      [null, 'loop'],
    ]);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([
      [1, 'ran_once'],
      [2, 'passed'],
      [null, 'passed'],
    ]);
    expect(prompts(p)[0]).toMatch(/^Single run \(this task has no objective checks/m);
    // The plan-level checks already pass after the tasks: verified without another agent run.
    expect(ofType(r.events, 'agent_start')).toHaveLength(2);
    expect(git(p.root, 'log', '--format=%s').split('\n')).toEqual(['feat(01-01): Write a', 'feat(01-01): Write notes', 'plan-level check', 'init']);
    expect(readState(p).plan).toMatchObject({ status: 'passed' });
  });

  it('a phase directory runs its plans in wave order and skips plans that have a SUMMARY.md', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write c', ['c.txt'])], { planId: '01-03' });
    const dir = join(p.root, '.planning/phases/01-test');
    writeFileSync(join(dir, '01-01-PLAN.md'), planText([autoTask(1, 'Write a', ['a.txt'])], { wave: 2, plan: '01' }));
    writeFileSync(join(dir, '01-02-PLAN.md'), planText([autoTask(1, 'Write b', ['b.txt'])], { wave: 1, plan: '02' }));
    writeFileSync(join(dir, '01-03-PLAN.md'), planText([autoTask(1, 'Write c', ['c.txt'])], { wave: 1, plan: '03' }));
    writeFileSync(join(dir, '01-03-SUMMARY.md'), '# Phase 01 Plan 03 Summary\n');
    git(p.root, 'add', '--', '.');
    git(p.root, 'commit', '-qm', 'phase');
    const r = await runStableCli(['run', '.planning/phases/01-test', '--agent', agentCmd('progress'), '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root }) });
    const events = String(r.stdout).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(events[0]).toMatchObject({ type: 'run_start', target_kind: 'gsd-phase' });
    expect(ofType(events, 'plan_skip')).toMatchObject([{ plan_id: '01-03' }]);
    expect(ofType(events, 'plan_start').map((e) => e.plan_id)).toEqual(['01-02', '01-01']);
    expect(git(p.root, 'log', '--format=%s', '-2').split('\n')).toEqual(['feat(01-01): Write a', 'feat(01-02): Write b']);
    for (const id of ['01-01', '01-02']) expect(readFileSync(join(dir, `${id}-SUMMARY.md`), 'utf8')).toContain('## RALF Lite Loop Report');
  });

  it('a PRD checklist (seed format) runs through the same loop and gets its marks written back', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'unused', ['z.txt'])]);
    writeFileSync(join(p.root, 'PRD.md'), '# PRD\n\n- [ ] Write a. Verify: `node check.mjs a`\n- [ ] Write b. Verify: `node check.mjs b`\n');
    git(p.root, 'add', '--', 'PRD.md');
    git(p.root, 'commit', '-qm', 'prd');
    const r = await runStableCli(['run', 'PRD.md', '--agent', agentCmd('progress'), '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root }) });
    const events = String(r.stdout).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(events[0]).toMatchObject({ type: 'run_start', target_kind: 'prd' });
    expect(ofType(events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([
      [1, 'passed'],
      [2, 'passed'],
    ]);
    expect(readFileSync(join(p.root, 'PRD.md'), 'utf8')).toContain('- [x] Write a.');
  });
});

describe('ralf run: project without git', () => {
  it('still loops (no commits, no restores) and says so', async () => {
    const { tempDir } = await import('../helpers/cli.js');
    const root = tempDir('ralf-nogit-');
    mkdirSync(join(root, '.planning/phases/01-x'), { recursive: true });
    writeFileSync(join(root, '.planning/phases/01-x/01-01-PLAN.md'), planText([autoTask(1, 'Write a', ['a.txt'])]));
    const { CHECK_MJS } = await import('./helpers.js');
    writeFileSync(join(root, 'check.mjs'), CHECK_MJS);
    const r = await runStableCli(['run', '.planning/phases/01-x/01-01-PLAN.md', '--agent', agentCmd('progress'), '--json'], { cwd: root, env: cleanEnv({ HOME: root }) });
    const events = String(r.stdout).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(ofType(events, 'warning')[0]!.message).toMatch(/not in a git repository/);
    expect(ofType(events, 'task_end')[0]).toMatchObject({ outcome: 'passed', commit: null });
  });
});
