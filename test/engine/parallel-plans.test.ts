/**
 * Parallel plans of one wave in one working tree (issue 12, #12): GSD runs them at once, each
 * agent in the same checkout. A loop's guard and progress see only changes not attributed to
 * another open loop: the files another open plan declares are that plan's.
 */
import { describe, expect, it } from 'vitest';
import { autoTask, PLAN_REL, Project, VALUE_CHECK } from './project.js';

const PLAN_B = '.planning/phases/01-demo/01-02-PLAN.md';
const PACKAGE = (deps: Record<string, string>) => `${JSON.stringify({ name: 'demo', version: '1.0.0', dependencies: deps }, null, 2)}\n`;

/** Plan B of the same wave: adds a dependency and writes src/b.js (both declared). */
const planB = [
  '---',
  'phase: 01-demo',
  'plan: 02',
  'type: execute',
  'wave: 1',
  'depends_on: []',
  'files_modified: [package.json, src/b.js]',
  'autonomous: true',
  '---',
  '',
  '<objective>',
  'Parse dates with a library.',
  '</objective>',
  '',
  '<tasks>',
  autoTask({ name: 'Use date-fns', files: ['package.json', 'src/b.js'], verify: 'node -e "require(\'./src/b.js\')"' }),
  '</tasks>',
  '',
].join('\n');

function twoPlans(): Project {
  const p = new Project({
    tasks: autoTask({ name: 'Fix a', files: ['src/a.js'], verify: 'node check.js' }),
    files: { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK, 'package.json': PACKAGE({}) },
    config: { max_iterations: 6, error_fingerprint_repeats: 3, no_progress_repeats: 2 },
  });
  p.write(PLAN_B, planB);
  p.git('add', '-A');
  p.git('commit', '-qm', 'plan 01-02');
  return p;
}

async function start(p: Project, plan: string): Promise<void> {
  const r = await p.run(['task', 'start', plan, '1', '--json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
}

describe('parallel plans in one working tree', () => {
  it("plan B's new dependency is not plan A's Rule 4 finding, B's edits are not A's progress, A's own fix still counts", async () => {
    const p = twoPlans();
    await start(p, PLAN_REL);
    await start(p, PLAN_B);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'retry', iteration: 1 });

    // B's agent adds a dependency and writes its file; A's agent has not changed anything yet.
    p.write('package.json', PACKAGE({ 'date-fns': '^3.0.0' }));
    p.write('src/b.js', 'module.exports = {};\n');
    const second = await p.verify(1);
    expect(second.json.stop_reason).not.toBe('rule4_architectural');
    expect(second.json).toMatchObject({ verdict: 'retry', iteration: 2, progress: false });
    const files = p.state().tasks[Object.keys(p.state().tasks)[0]!].iterations.at(-1).files_changed;
    expect(files).toEqual([]);

    // A's agent fixes its own file: seen, and the task passes.
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const third = await p.verify(1);
    expect(third.json).toMatchObject({ verdict: 'pass', iteration: 3 });

    // B's loop sees its own changes (declared: no Rule 4) and passes too.
    const b = await p.run(['task', 'verify', PLAN_B, '1', '--json']);
    expect(JSON.parse(String(b.stdout))).toMatchObject({ verdict: 'pass' });
  });

  it('without another open loop the same dependency is a Rule 4 finding of this task', async () => {
    const p = twoPlans();
    await start(p, PLAN_REL);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'retry', iteration: 1 });
    p.write('package.json', PACKAGE({ 'date-fns': '^3.0.0' }));
    const second = await p.verify(1);
    expect(second.json).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural' });
    expect(JSON.stringify(second.json.handoff)).toMatch(/new dependency in package\.json: date-fns/);
  });

  it('a file both plans declare stays this loop’s to see', async () => {
    const p = twoPlans();
    // Plan B also declares src/a.js: A's change there is A's (and B's) — not taken away.
    p.write(PLAN_B, planB.replace('files_modified: [package.json, src/b.js]', 'files_modified: [package.json, src/b.js, src/a.js]'));
    p.git('commit', '-qam', 'B declares a.js too');
    await start(p, PLAN_REL);
    await start(p, PLAN_B);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'retry', iteration: 1 });
    p.write('src/a.js', "module.exports = 'still wrong';\n");
    const second = await p.verify(1);
    expect(second.json).toMatchObject({ verdict: 'retry', progress: true });
  });

  it('a loop left open in another phase attributes nothing here (GSD runs one phase at a time)', async () => {
    const p = twoPlans();
    const other = '.planning/phases/02-later/02-01-PLAN.md';
    p.write(other, planB.replace('phase: 01-demo', 'phase: 02-later').replace('plan: 02', 'plan: 01'));
    p.git('add', '-A');
    p.git('commit', '-qm', 'phase 2 plan');
    await start(p, other);
    await start(p, PLAN_REL);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'retry', iteration: 1 });
    p.write('package.json', PACKAGE({ 'date-fns': '^3.0.0' }));
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural' });
  });
});

