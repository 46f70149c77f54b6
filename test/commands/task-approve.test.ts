/**
 * Rule 4 approvals through the real CLI in real temp git repos: an approved architectural
 * change passes the task's own guard, a later task's guard and the plan-level guard; a
 * different change is still caught; the approved tree stays reachable after `git gc`.
 */
import { describe, expect, it } from 'vitest';
import { autoTask, Project, PLAN_REL } from '../engine/project.js';
import { taskLoop } from '../helpers/state.js';

const valueCheck = "node -e \"process.exit(require('./src/a.js')==='fixed'?0:1)\"";
const pkg = (deps: Record<string, string>) => `${JSON.stringify({ name: 'x', version: '1.0.0', dependencies: deps }, null, 2)}\n`;
const files = { 'src/a.js': "module.exports = 'broken';\n", 'package.json': pkg({}) };
const tasks = [
  autoTask({ name: 'Task 1: Make the value right', verify: valueCheck }),
  autoTask({ name: 'Task 2: Keep it right', files: ['src/b.js'], verify: valueCheck }),
].join('\n');
const after = `\n<verification>\n\`${valueCheck}\`\n</verification>\n`;

function json(r: { stdout: unknown }): any {
  return JSON.parse(String(r.stdout));
}

describe('ralf task approve', () => {
  it('an approved dependency passes the task, a later task and the plan-level loop; the stop stays in the history', async () => {
    const p = new Project({ tasks, files, after });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    p.write('package.json', pkg({ zod: '^3.0.0' }));
    const stop = await p.verify(1);
    expect(stop.code).toBe(20);
    expect(stop.json).toMatchObject({ stop_reason: 'rule4_architectural' });
    // Whatever starts ralf here (`ralf`, or the runtime's own command line), the approve command is named.
    expect(stop.json.handoff.markdown).toContain(` task approve ${PLAN_REL} 1`);

    const a = await p.run(['task', 'approve', PLAN_REL, '1', '--note', 'zod is fine', '--json']);
    expect(a.exitCode).toBe(0);
    expect(String(a.stderr)).toBe('');
    const approved = json(a);
    expect(approved).toMatchObject({ action: 'approve', scope: 'task', task: { number: 1 }, approval: { findings: ['new dependency in package.json: zod (dependencies)'], source: 'diff_guard', open: false, note: 'zod is fine' } });
    expect(approved.approval.ref).toMatch(/^refs\/ralf\/approved\/01-01\/task-1\//);

    // The task's own guard: the change is still in the diff since the same start, and approved.
    const pass = await p.verify(1);
    expect(pass.code).toBe(0);
    expect(pass.json).toMatchObject({ verdict: 'pass', iteration: 1 });
    const loop = taskLoop(p.state(), 1);
    expect(loop.iterations[0].rule4_approved).toEqual(['new dependency in package.json: zod (dependencies)']);
    expect(loop.segments).toHaveLength(1);
    expect(loop.segments[0]).toMatchObject({ stop_reason: 'rule4_architectural', ended_by: 'approve' });
    expect(loop.segments[0].iterations).toHaveLength(1);

    // A later task verified without `task start` starts at HEAD: the uncommitted dependency is in its diff, approved.
    p.write('src/b.js', 'module.exports = 2;\n');
    expect((await p.verify(2)).code).toBe(0);
    // The plan-level loop starts at task 1's start: approved there too.
    const plan = await p.run(['plan', 'verify', PLAN_REL, '--json']);
    expect(plan.exitCode).toBe(0);
    expect(json(plan)).toMatchObject({ verdict: 'pass' });

    // The approved tree survives git gc: it is reachable from the ref.
    p.git('gc', '--prune=now', '--quiet');
    expect(p.git('cat-file', '-p', `${approved.approval.ref}:package.json`)).toContain('zod');
  });

  it('a different architectural change after the approval still stops the loop', async () => {
    const p = new Project({ tasks, files, after });
    await p.run(['task', 'start', PLAN_REL, '1']);
    p.write('package.json', pkg({ zod: '^3.0.0' }));
    expect((await p.verify(1)).code).toBe(20);
    expect((await p.run(['task', 'approve', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/a.js', "module.exports = 'fixed';\n");
    p.write('package.json', pkg({ zod: '^3.0.0', lodash: '^4.0.0' }));
    const r = await p.verify(1);
    expect(r.code).toBe(20);
    expect(r.json.handoff.escalation.findings).toEqual(['new dependency in package.json: lodash (dependencies)']);
  });

  it("an agent's escalation, approved, covers the change the agent then makes, for later guards too", async () => {
    const p = new Project({ tasks, files, after });
    await p.run(['task', 'start', PLAN_REL, '1']);
    const e = await p.run(['task', 'escalate', PLAN_REL, '1', '--rule', '4', '--reason', 'needs a users table']);
    expect(e.exitCode).toBe(20);
    const a = await p.run(['task', 'approve', PLAN_REL, '1', '--json']);
    expect(a.exitCode).toBe(0);
    expect(json(a).approval).toMatchObject({ source: 'agent', open: true, findings: [], reason: 'needs a users table' });
    p.write('db/migrations/001_users.sql', 'create table users (id int);\n');
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const v = await p.verify(1);
    expect(v.code).toBe(0);
    const state = p.state();
    expect(state.approvals[0]).toMatchObject({ open: false, findings: ['new migration file: db/migrations/001_users.sql'] });
    expect((await p.run(['plan', 'verify', PLAN_REL, '--json'])).exitCode).toBe(0);
  });

  it('refuses a loop that is not stopped by Rule 4, naming the task and what to do (exit 2)', async () => {
    const p = new Project({ tasks, files, after });
    const none = await p.run(['task', 'approve', PLAN_REL, '1']);
    expect(none.exitCode).toBe(2);
    expect(String(none.stderr)).toMatch(/task 1 has no loop state/);
    // Hints name commands as they run here (this runtime's own command line, not a bare `ralf`).
    expect(String(none.stderr)).toMatch(/`"[^`]*ralf\.js" status \S*PLAN\.md` lists the plan's loops/);
    await p.verify(1);
    const running = await p.run(['task', 'approve', PLAN_REL, '1']);
    expect(running.exitCode).toBe(2);
    expect(String(running.stderr)).toMatch(/task 1 is running, not stopped by Rule 4: nothing to approve/);
    expect(String(running.stderr)).toMatch(/`"[^`]*ralf\.js" task reset \S*PLAN\.md 1`/);
    expect(String(running.stderr)).toMatch(/ task reset /);
    const usage = await p.run(['task', 'approve', PLAN_REL, '1', '--plan']);
    expect(usage.exitCode).toBe(2);
  });

  it('readable output says what was approved and what to do next', async () => {
    const p = new Project({ tasks, files, after });
    await p.run(['task', 'start', PLAN_REL, '1']);
    p.write('package.json', pkg({ zod: '^3.0.0' }));
    await p.verify(1);
    const r = await p.run(['task', 'approve', PLAN_REL, '1']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/APPROVED Task 1/);
    expect(String(r.stdout)).toMatch(/new dependency in package.json: zod/);
    expect(String(r.stdout)).toMatch(/next: .* task verify /);
  });
});
