/**
 * Resume through the real CLI in real temp git repos: `ralf task defer` records the deferral
 * and takes only the loop's edits out of the tree (kept under a ref), `ralf status <PLAN>`
 * lists every task (passed with its commit, stopped, deferred, running, not started), where to
 * resume and the last handoff; the Loop Report shows every segment and the approvals.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { autoTask, checkpointTask, Project, PLAN_REL } from '../engine/project.js';
import { taskLoop } from '../helpers/state.js';

const check = (file: string) => `node -e "process.exit(require('./${file}')==='fixed'?0:1)"`;
const files = { 'src/a.js': "module.exports = 'broken';\n", 'src/b.js': "module.exports = 'broken';\n", 'src/c.js': "module.exports = 'broken';\n" };
const tasks = [
  autoTask({ name: 'Task 1: Fix a', files: ['src/a.js'], verify: check('src/a.js') }),
  autoTask({ name: 'Task 2: Fix b', files: ['src/b.js'], verify: check('src/b.js') }),
  checkpointTask,
  autoTask({ name: 'Task 4: Fix c', files: ['src/c.js'], verify: check('src/c.js') }),
].join('\n');

function json(r: { stdout: unknown }): any {
  return JSON.parse(String(r.stdout));
}

describe('ralf task defer', () => {
  it("records the deferral and removes only the loop's edits, kept under a ref; the user's other work stays", async () => {
    const p = new Project({ tasks, files, config: { max_iterations: 5 } });
    p.write('notes.txt', 'my own notes\n'); // the user's uncommitted work, before the task
    await p.run(['task', 'start', PLAN_REL, '2']);
    p.write('src/b.js', "module.exports = 'still broken';\n");
    p.write('src/helper.js', 'module.exports = 1;\n');
    expect((await p.verify(2)).code).toBe(10);
    p.write('notes.txt', 'my own notes, edited during the task\n'); // not what the loop verified
    const r = await p.run(['task', 'defer', PLAN_REL, '2', '--reason', 'needs the payments API key', '--json']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe('');
    const o = json(r);
    expect(o).toMatchObject({ action: 'defer', stop_reason: 'deferred', deferral: { reason: 'needs the payments API key', removed: ['src/b.js', 'src/helper.js'] } });
    expect(o.deferral.ref).toMatch(/^refs\/ralf\/deferred\/01-01\/task-2\//);
    expect(p.read('src/b.js')).toBe("module.exports = 'broken';\n");
    expect(p.exists('src/helper.js')).toBe(false);
    expect(p.read('notes.txt')).toBe('my own notes, edited during the task\n');
    // The edits are reachable after gc, and the printed command brings them back as written.
    p.git('gc', '--prune=now', '--quiet');
    expect(o.deferral.restore_command).toBe(`git restore --source=${o.deferral.ref} -- src/b.js src/helper.js`);
    p.git('restore', `--source=${o.deferral.ref}`, '--', 'src/b.js', 'src/helper.js');
    expect(p.read('src/b.js')).toBe("module.exports = 'still broken';\n");
    // A deferred task stays deferred: verify answers the stop without running anything.
    const v = await p.verify(2);
    expect(v.code).toBe(20);
    expect(v.json).toMatchObject({ counted: false, already_ended: true });
    expect(taskLoop(p.state(), 2).deferred.reason).toBe('needs the payments API key');
  });

  it('a loop that started from HEAD removes nothing and says why', async () => {
    const p = new Project({ tasks, files });
    p.write('src/b.js', "module.exports = 'nope';\n");
    expect((await p.verify(2)).code).toBe(10);
    const o = json(await p.run(['task', 'defer', PLAN_REL, '2', '--reason', 'later', '--json']));
    expect(o.deferral.removed).toEqual([]);
    expect(o.deferral.left[0]).toMatchObject({ path: 'src/b.js' });
    expect(o.deferral.left[0].reason).toMatch(/started from HEAD/);
    expect(p.read('src/b.js')).toBe("module.exports = 'nope';\n");
  });

  it('refuses a passed task and a missing reason (exit 2)', async () => {
    const p = new Project({ tasks, files });
    p.write('src/a.js', "module.exports = 'fixed';\n");
    expect((await p.verify(1)).code).toBe(0);
    const r = await p.run(['task', 'defer', PLAN_REL, '1', '--reason', 'x']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/task 1 already passed; nothing to defer/);
    // The hint names the status command as it runs here (this runtime's own command line, not a bare `ralf`).
    expect(String(r.stderr)).toMatch(/`"[^`]*ralf\.js" status \S*01-01-PLAN\.md` shows where the plan resumes/);
    const noReason = await p.run(['task', 'defer', PLAN_REL, '2']);
    expect(noReason.exitCode).toBe(2);
    expect(String(noReason.stderr)).toMatch(/missing --reason/);
  });
});

describe('ralf status <PLAN>', () => {
  it('lists every task (passed with its commit, deferred, stopped, running, not started), where to resume, and the last handoff', async () => {
    const p = new Project({ tasks, files, config: { max_iterations: 2, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    // Task 1 passes and is committed the GSD way.
    await p.run(['task', 'start', PLAN_REL, '1']);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    expect((await p.verify(1)).code).toBe(0);
    p.git('add', 'src/a.js');
    p.git('commit', '-qm', 'feat(01-01): Fix a');
    const sha = p.git('rev-parse', '--short', 'HEAD').trim();

    let s = json(await p.run(['status', PLAN_REL, '--json']));
    expect(s.tasks.map((t: any) => [t.number, t.status])).toEqual([[1, 'passed'], [2, 'not_started'], [3, 'not_started'], [4, 'not_started']]);
    expect(s.tasks[0]).toMatchObject({ commit: sha, done_by: 'loop' });
    expect(s.resume_at).toBe(2);

    // Task 2 runs out of iterations: stopped, with its handoff.
    await p.run(['task', 'start', PLAN_REL, '2']);
    p.write('src/b.js', "module.exports = 'x';\n");
    await p.verify(2);
    p.write('src/b.js', "module.exports = 'y';\n");
    expect((await p.verify(2)).code).toBe(20);
    const stopped = await p.run(['status', PLAN_REL, '--json']);
    expect(String(stopped.stderr)).toBe('');
    s = json(stopped);
    expect(s.tasks[1]).toMatchObject({ status: 'stopped', stop_reason: 'max_iterations', iterations_total: 2 });
    expect(s.resume_at).toBe(2);
    expect(s.last_handoff).toMatchObject({ scope: 'task', task: 2, stop_reason: 'max_iterations' });
    expect(s.last_handoff.handoff.markdown).toContain('## CHECKPOINT REACHED');
    const readable = await p.run(['status', PLAN_REL]);
    expect(String(readable.stdout)).toMatch(/Resume at task 2: Task 2: Fix b \(stopped with max_iterations/);
    expect(String(readable.stdout)).toContain('Last handoff (task 2, max_iterations');
    expect(String(readable.stdout)).toContain('## CHECKPOINT REACHED');

    // Deferred: the plan resumes at the checkpoint task, then task 4 (running once started).
    await p.run(['task', 'defer', PLAN_REL, '2', '--reason', 'needs design input']);
    s = json(await p.run(['status', PLAN_REL, '--json']));
    expect(s.tasks[1]).toMatchObject({ status: 'deferred', deferred: { reason: 'needs design input' } });
    expect(s.resume_at).toBe(3);
    expect(s.last_handoff).toBeNull();
    await p.run(['task', 'start', PLAN_REL, '4']);
    s = json(await p.run(['status', PLAN_REL, '--json']));
    // The checkpoint left no record, but a later task started: the earlier session went past it.
    expect(s.tasks[2]).toMatchObject({ status: 'not_started', decision: 'refuse' });
    expect(s.tasks[2].note).toMatch(/taken as done/);
    expect(s.tasks[3]).toMatchObject({ status: 'running' });
    expect(s.resume_at).toBe(4);
    p.write('src/c.js', "module.exports = 'fixed';\n");
    expect((await p.verify(4)).code).toBe(0);
    s = json(await p.run(['status', PLAN_REL, '--json']));
    expect(s).toMatchObject({ resume_at: null, tasks_complete: true });
    // What comes next follows the plan-level loop: this plan has none (a checkpoint task), so the SUMMARY.
    expect(s.plan_loop).toMatchObject({ status: 'not_started' });
    const done = String((await p.run(['status', PLAN_REL])).stdout);
    expect(done).toContain('Every task passed or was deferred; no plan-level loop (');
    const refresh = done.match(/Loop Report: `([^`]+)`/)![1]!;
    expect(refresh).toMatch(/ralf\.js"? report \.planning\/phases\/01-demo\/01-01-PLAN\.md$/);
    // …and it runs as written where status was read, once GSD wrote the SUMMARY.
    p.write('.planning/phases/01-demo/01-01-SUMMARY.md', '# Phase 1 Plan 1: Summary\n');
    expect(execFileSync('bash', ['-c', refresh], { cwd: p.dir, encoding: 'utf8' })).toMatch(/Loop Report/);
  });

  it('the Loop Report and status count every iteration across a reset and an approval, and list the approval', async () => {
    const pkg = (deps: Record<string, string>) => `${JSON.stringify({ name: 'x', dependencies: deps })}\n`;
    const p = new Project({ tasks, files: { ...files, 'package.json': pkg({}) }, config: { max_iterations: 3 } });
    await p.run(['task', 'start', PLAN_REL, '1']);
    p.write('src/a.js', "module.exports = 'nope';\n");
    expect((await p.verify(1)).code).toBe(10);
    expect((await p.run(['task', 'reset', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('package.json', pkg({ zod: '^3.0.0' }));
    expect((await p.verify(1)).code).toBe(20);
    expect((await p.run(['task', 'approve', PLAN_REL, '1', '--note', 'fine'])).exitCode).toBe(0);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    expect((await p.verify(1)).code).toBe(0);

    const s = json(await p.run(['status', PLAN_REL, '--json']));
    expect(s.tasks[0]).toMatchObject({ status: 'passed', iterations: 1, iterations_total: 3, segments: 3 });
    expect(s.approvals).toHaveLength(1);
    expect(s.plans[0].loops[0]).toMatchObject({ iterations_total: 3, segments: 3 });

    p.write('.planning/phases/01-demo/01-01-SUMMARY.md', '# Summary\n');
    const report = await p.run(['report', PLAN_REL, '--dry-run']);
    expect(report.exitCode).toBe(0);
    const text = String(report.stdout);
    expect(text).toContain('1/3 (3 in all)');
    expect(text).toMatch(/Segment 1 \(ended: reset\): 1 iteration/);
    expect(text).toMatch(/Segment 2 \(ended: Rule 4 change approved\): 1 iteration, `rule4_architectural`/);
    expect(text).toMatch(/Approved \(Rule 4\): `new dependency in package.json: zod \(dependencies\)`/);
  });

  it("a stopped loop's trees stay reachable after git gc, and a deferred task is not counted in a later handoff's Progress", async () => {
    const p = new Project({ tasks, files, config: { max_iterations: 2, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    await p.run(['task', 'start', PLAN_REL, '1']);
    await p.run(['task', 'defer', PLAN_REL, '1', '--reason', 'later']);
    await p.run(['task', 'start', PLAN_REL, '2']);
    p.write('src/b.js', "module.exports = 'x';\n");
    await p.verify(2);
    p.write('src/b.js', "module.exports = 'y';\n");
    const stop = await p.verify(2);
    expect(stop.code).toBe(20);
    expect(stop.json.handoff.markdown).toContain('**Progress:** 0/4 tasks complete');
    const refs = p.git('for-each-ref', '--format=%(refname)', 'refs/ralf/loops').trim().split('\n');
    expect(refs).toContain('refs/ralf/loops/01-01/name-fix-b');
    p.git('gc', '--prune=now', '--quiet');
    const loop = taskLoop(p.state(), 2);
    for (const tree of [loop.start_ref, ...loop.iterations.map((it: { tree: string }) => it.tree)]) expect(p.git('cat-file', '-t', tree).trim()).toBe('tree');
    // The deferral still works on the pruned repository: its trees were kept.
    const d = await p.run(['task', 'defer', PLAN_REL, '2', '--reason', 'needs design', '--json']);
    expect(d.exitCode).toBe(0);
    expect(JSON.parse(String(d.stdout)).deferral.removed).toEqual(['src/b.js']);
  });
});
