/**
 * `ralf run` and Rule 4: the agent's architectural change is kept in the working tree for the
 * human's decision (not restored), `ralf task approve` records the approval, and the next run
 * continues the task with the change and commits it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { taskLoop } from '../helpers/state.js';
import { autoTask, git, makeProject, ofType, ralfRun, readState, runStableCli } from './helpers.js';
import { cleanEnv } from '../helpers/cli.js';

describe('ralf run: a Rule 4 stop, then an approval or a deferral', () => {
  it('keeps the change, and after `ralf task approve` the next run passes and commits it', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { autonomous: false });
    writeFileSync(join(p.root, 'package.json'), `${JSON.stringify({ name: 'x', version: '1.0.0', dependencies: {} }, null, 2)}\n`);
    git(p.root, 'add', 'package.json');
    git(p.root, 'commit', '-q', '-m', 'package');

    const r = await ralfRun(p, 'dependency');
    expect(r.exitCode).toBe(20);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ task: 1, outcome: 'stopped', stop_reason: 'rule4_architectural' });
    // Nothing restored: the human decides on the change as the agent left it.
    expect(ofType(r.events, 'revert')).toHaveLength(0);
    expect(ofType(r.events, 'warning').map((w) => w.message).join('\n')).toMatch(/ task approve \S+ 1/);
    expect(readFileSync(join(p.root, 'package.json'), 'utf8')).toContain('left-pad');
    expect(readFileSync(join(p.root, 'a.txt'), 'utf8')).toBe('ok\n');

    const a = await runStableCli(['task', 'approve', p.planRel, '1', '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root }) });
    expect(a.exitCode).toBe(0);

    const again = await ralfRun(p, 'progress');
    expect(again.exitCode).toBe(0);
    expect(ofType(again.events, 'task_end')[0]).toMatchObject({ task: 1, outcome: 'passed' });
    const commit = ofType(again.events, 'commit')[0]!;
    expect(commit.files).toEqual(['a.txt', 'package.json']);
    expect(git(p.root, 'show', 'HEAD:package.json')).toContain('left-pad');
    const loop = taskLoop(readState(p), 1);
    expect(loop.segments[0]).toMatchObject({ stop_reason: 'rule4_architectural', ended_by: 'approve' });
    expect(loop.iterations.at(-1).rule4_approved).toEqual(['new dependency in package.json: left-pad (dependencies)']);
  });

  it('after `ralf task defer` the next run skips the task (deferred) and finishes the plan without it', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt']), autoTask(2, 'Write b', ['b.txt'])], { autonomous: false });
    writeFileSync(join(p.root, 'package.json'), `${JSON.stringify({ name: 'x', version: '1.0.0', dependencies: {} }, null, 2)}\n`);
    git(p.root, 'add', 'package.json');
    git(p.root, 'commit', '-q', '-m', 'package');
    expect((await ralfRun(p, 'dependency')).exitCode).toBe(20);

    const d = await runStableCli(['task', 'defer', p.planRel, '1', '--reason', 'no new dependencies now', '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root }) });
    expect(d.exitCode).toBe(0);
    expect(JSON.parse(String(d.stdout)).deferral.removed).toEqual(['a.txt', 'package.json']);
    expect(readFileSync(join(p.root, 'package.json'), 'utf8')).not.toContain('left-pad');

    const again = await ralfRun(p, 'progress');
    expect(again.exitCode).toBe(0);
    expect(ofType(again.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'deferred'], [2, 'passed']]);
    expect(git(p.root, 'show', '--stat', '--format=', 'HEAD')).toContain('b.txt');
    expect(git(p.root, 'show', 'HEAD:package.json')).not.toContain('left-pad');
  });
});
