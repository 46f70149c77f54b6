/**
 * The loop's verdicts on realistic multi-iteration scenarios, in real temp git repos with
 * real checks (issue #12): each scenario is an agent's sequence of edits and the verdicts
 * it must get.
 */
import { describe, expect, it } from 'vitest';
import { newLoopState } from '../../src/engine/core/loop-state.js';
import { reduce } from '../../src/engine/core/reducer.js';
import { taskLoop } from '../helpers/state.js';
import { autoTask, Project } from './project.js';

const NODE_TESTS = `const test = require('node:test');
const assert = require('node:assert');
const v = require('./src/v.json');
for (const name of ['alpha', 'beta', 'gamma']) test('unit ' + name, () => assert.strictEqual(v[name], true));
`;
const units = (alpha: boolean, beta: boolean, gamma: boolean) => JSON.stringify({ alpha, beta, gamma });

describe('verdicts: progress the checks can see', () => {
  it.each([
    ['gamma, beta, alpha', ['gamma', 'beta', 'alpha']],
    ['beta, gamma, alpha', ['beta', 'gamma', 'alpha']],
  ])('fixing one of three failing tests at a time (%s) is retry with progress until it passes', async (_order, order) => {
    const p = new Project({
      tasks: autoTask({ name: 'Make the units pass', files: ['src/v.json'], verify: 'node --test test.js' }),
      files: { 'src/v.json': units(false, false, false), 'test.js': NODE_TESTS },
      config: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 },
    });
    const first = await p.verify(1);
    expect(first.json).toMatchObject({ verdict: 'retry', iteration: 1 });
    expect(first.json.failing_tests.length).toBe(3);
    const fixed = { alpha: false, beta: false, gamma: false };
    const verdicts: string[] = [];
    for (const name of order) {
      fixed[name as keyof typeof fixed] = true;
      p.write('src/v.json', units(fixed.alpha, fixed.beta, fixed.gamma));
      const r = await p.verify(1);
      verdicts.push(r.json.verdict);
      if (r.json.verdict === 'retry') {
        expect(r.json.progress).toBe(true);
        expect(r.json.progress_reasons.join('; ')).toMatch(/no longer failing: /);
      }
    }
    expect(verdicts).toEqual(['retry', 'retry', 'pass']);
  });

  it.each([
    ['gamma, beta, alpha', ['gamma', 'beta', 'alpha']],
    ['gamma, alpha, beta', ['gamma', 'alpha', 'beta']],
  ])('a check script that lists its failures in its own words: fixing one of three (%s) is progress until it passes', async (_order, order) => {
    const script = ['set -u', 'source src/vals.sh', 'rc=0', ...['alpha', 'beta', 'gamma'].map((n, i) => `[ "$${n}" = ${i + 1} ] || { echo "FAIL ${n}: expected ${i + 1}, got $${n}"; rc=1; }`), 'exit $rc', ''].join('\n');
    const vals = (v: Record<string, number>) => Object.entries(v).map(([k, x]) => `${k}=${x}`).join('\n') + '\n';
    const v = { alpha: 0, beta: 0, gamma: 0 };
    const p = new Project({
      tasks: autoTask({ name: 'Set the values', files: ['src/vals.sh'], verify: 'bash check.sh' }),
      files: { 'src/vals.sh': vals(v), 'check.sh': script },
      config: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 },
    });
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'retry', iteration: 1 });
    const verdicts: string[] = [];
    for (const name of order) {
      v[name as keyof typeof v] = ['alpha', 'beta', 'gamma'].indexOf(name) + 1;
      p.write('src/vals.sh', vals(v));
      const r = await p.verify(1);
      verdicts.push(r.json.verdict);
      if (r.json.verdict === 'retry') expect(r.json.progress_reasons.join('; ')).toMatch(new RegExp(`no longer failing: FAIL ${name}`));
    }
    expect(verdicts).toEqual(['retry', 'retry', 'pass']);
  });

  it('a fix outside <files> that moves the error downstream inside the check is progress', async () => {
    const check = `const app = require('./src/app.js');
if (app() !== 42) { console.error('AssertionError: expected 42, got ' + app()); process.exit(1); }
`;
    const p = new Project({
      tasks: autoTask({ name: 'Answer 42', files: ['src/app.js'], verify: 'node check.js' }),
      files: {
        'src/app.js': "const util = require('./util.js');\nmodule.exports = () => util.answer();\n",
        'src/util.js': "exports.answer = () => { throw new TypeError('util.answer is not implemented'); };\n",
        'check.js': check,
      },
      // With 1, any iteration without progress stops the loop.
      config: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 1 },
    });
    expect((await p.verify(1)).json.fingerprint).toMatch(/not implemented/);
    p.write('src/util.js', 'exports.answer = () => 41;\n');
    const second = await p.verify(1);
    expect(second.json).toMatchObject({ verdict: 'retry', progress: true, iteration: 2 });
    expect(second.json.fingerprint).toMatch(/expected 42/);
    p.write('src/util.js', 'exports.answer = () => 42;\n');
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'pass', iteration: 3 });
  });
});

describe('verdicts: stuck agents', () => {
  const files = { 'src/a.js': "module.exports = 'broken';\n", 'check.js': "const v = require('./src/a.js');\nif (v !== 'fixed') { console.error('Error: expected fixed, got ' + v); process.exit(1); }\n" };
  const task = autoTask({ name: 'Make the value right', verify: 'node check.js' });

  it('A,B,A,B oscillation stops with no_progress at iteration no_progress_repeats + 2, never split_task', async () => {
    // With error_fingerprint_repeats 2 the fingerprint rule stops it earlier, at the 2nd A (reducer.test.ts).
    const p = new Project({ tasks: task, files, config: { max_iterations: 10, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
    const results = [];
    for (const value of ['A', 'B', 'A', 'B']) {
      p.write('src/a.js', `module.exports = '${value}';\n`);
      results.push(await p.verify(1));
    }
    expect(results.map((r) => r.code)).toEqual([10, 10, 10, 20]);
    expect(results[2]!.json.progress).toBe(false);
    expect(results[2]!.json.progress_reasons[0]).toMatch(/back to the tree of iteration 1/);
    expect(results[3]!.json).toMatchObject({ verdict: 'stop', stop_reason: 'no_progress', iteration: 4 });
    expect(results[3]!.json.handoff.recommended_action).toBe('manual_investigation');
  });

  it('undoing the change is not progress', async () => {
    const p = new Project({ tasks: task, files, config: { max_iterations: 10, error_fingerprint_repeats: 5, no_progress_repeats: 1 } });
    p.write('src/a.js', "module.exports = 'A';\n");
    await p.verify(1);
    p.write('src/a.js', files['src/a.js']);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'stop', stop_reason: 'no_progress', iteration: 2 });
  });
});

describe('verdicts: checks that write into the working tree', () => {
  // A build into a committed dist/: it deletes the old output and writes a new, content-named file.
  const build = `const fs = require('node:fs');
const src = fs.readFileSync('src/a.js', 'utf8');
fs.rmSync('dist', { recursive: true, force: true });
fs.mkdirSync('dist');
const id = require('node:crypto').createHash('sha1').update(src).digest('hex').slice(0, 8);
fs.writeFileSync('dist/out-' + id + '.js', src);
`;
  const check = "const v = require('./src/a.js');\nif (v !== 'fixed') { console.error('Error: expected fixed, got ' + v); process.exit(1); }\n";

  it('a check that rewrites dist/ never yields Rule 4 and is reported', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Build and check', files: ['src/a.js'], verify: 'node build.js && node check.js' }),
      files: { 'src/a.js': "module.exports = 'broken';\n", 'dist/out-old.js': 'old\n', 'build.js': build, 'check.js': check },
      config: { max_iterations: 6, error_fingerprint_repeats: 3, no_progress_repeats: 2 },
    });
    const results = [];
    for (const value of ['try1', 'try2', 'fixed']) {
      p.write('src/a.js', `module.exports = '${value}';\n`);
      results.push(await p.verify(1));
    }
    expect(results.map((r) => r.json.verdict)).toEqual(['retry', 'retry', 'pass']);
    for (const r of results) {
      expect(r.json.stop_reason).not.toBe('rule4_architectural');
      expect(r.json.message).toMatch(/checks modified tracked files: .*dist\//);
      expect(r.json.checks_modified.some((f: string) => f.startsWith('dist/'))).toBe(true);
    }
    expect(taskLoop(p.state(), 1).iterations.every((it: { rule4_findings?: string[] }) => (it.rule4_findings ?? []).length === 0)).toBe(true);
  });

  it('an idle agent after a check rewrote files is not progress', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Build and check', files: ['src/a.js'], verify: 'node build.js && node check.js' }),
      files: { 'src/a.js': "module.exports = 'broken';\n", 'dist/out-old.js': 'old\n', 'build.js': build, 'check.js': check },
      config: { max_iterations: 6, error_fingerprint_repeats: 9, no_progress_repeats: 1 },
    });
    p.write('src/a.js', "module.exports = 'try';\n");
    await p.verify(1);
    expect((await p.verify(1)).json).toMatchObject({ verdict: 'stop', stop_reason: 'no_progress', iteration: 2 });
  });
});

describe('verdicts: confirmation of manual criteria (exit 11)', () => {
  // The check counts its runs in an ignored file, so counting does not change the tree.
  const counting = "require('node:fs').appendFileSync('.home/runs', 'x');\nif (require('./src/a.js') !== 'fixed') process.exit(1);\n";
  const files = { 'src/a.js': "module.exports = 'fixed';\n", 'check.js': counting };
  const runs = (p: Project) => (p.exists('.home/runs') ? p.read('.home/runs').length : 0);

  it('confirm is bounded: the 3rd unconfirmed green verify stops with unconfirmed; a confirmation then passes', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Greet', verify: 'node check.js', done: 'The greeting reads well to a human' }), files });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await p.verify(1)).code);
    expect(codes).toEqual([11, 11, 20]);
    const stopped = taskLoop(p.state(), 1);
    expect(stopped).toMatchObject({ status: 'stopped', stop_reason: 'unconfirmed', iterations: [] });
    expect(stopped.handoff.recommended_action).toBe('decision_needed');
    const confirmed = await p.verify(1, '--done-confirmed');
    expect(confirmed.json).toMatchObject({ verdict: 'pass', iteration: 1, done_confirmed: true, checks_reused: true });
  });

  it('--done-confirmed on the unchanged tree reuses the green result; after a change the checks run again', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Greet', verify: 'node check.js', done: 'The greeting reads well to a human' }), files });
    expect((await p.verify(1)).code).toBe(11);
    expect(runs(p)).toBe(1);
    const confirmed = await p.verify(1, '--done-confirmed');
    expect(confirmed.json).toMatchObject({ verdict: 'pass', checks_reused: true });
    expect(confirmed.json.checks[0]).toMatchObject({ command: 'node check.js', passed: true });
    expect(runs(p)).toBe(1);

    const q = new Project({ tasks: autoTask({ name: 'Greet', verify: 'node check.js', done: 'The greeting reads well to a human' }), files });
    expect((await q.verify(1)).code).toBe(11);
    q.write('src/a.js', "module.exports = 'fixed'; // reworded\n");
    const again = await q.verify(1, '--done-confirmed');
    expect(again.json.verdict).toBe('pass');
    expect(again.json.checks_reused).toBeUndefined();
    expect(runs(q)).toBe(2);
  });

  it('the plan-level loop answers confirm (exit 11) too, and --done-confirmed passes it', async () => {
    const verification = '\n<verification>\n- `node check.js` exits 0\n- The greeting reads well to a human\n</verification>\n';
    const p = new Project({ tasks: autoTask({ name: 'Greet', verify: 'node check.js' }), files, after: verification });
    const first = await p.run(['plan', 'verify', '.planning/phases/01-demo/01-01-PLAN.md', '--json']);
    expect(first.exitCode).toBe(11);
    expect(JSON.parse(String(first.stdout))).toMatchObject({ scope: 'plan', verdict: 'confirm', counted: false });
    const second = await p.run(['plan', 'verify', '.planning/phases/01-demo/01-01-PLAN.md', '--json', '--done-confirmed']);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(String(second.stdout))).toMatchObject({ verdict: 'pass', checks_reused: true });
  });
});

describe('verdicts: state identity', () => {
  const check = "const v = require('./src/a.js');\nif (v !== 'fixed') { console.error('Error: expected fixed, got ' + v); process.exit(1); }\n";
  const files = { 'src/a.js': "module.exports = 'broken';\n", 'check.js': check };

  it('an archived plan with the same file name does not leak its stopped loop into the new plan', async () => {
    const archived = '.planning/milestones/v1.0-phases/01-demo/01-01-PLAN.md';
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js' }), files, config: { max_iterations: 1 } });
    // The old milestone's plan (same file name, same task) ran its loop to a stop.
    p.write(archived, p.read('.planning/phases/01-demo/01-01-PLAN.md'));
    const old = await p.run(['task', 'verify', archived, '1', '--json']);
    expect(old.exitCode).toBe(20);
    // The new plan: checks run, iteration 1, nothing inherited.
    const fresh = await p.verify(1);
    expect(fresh.code).toBe(20); // max_iterations 1, a real run of the check
    expect(fresh.json).toMatchObject({ iteration: 1, counted: true, already_ended: false });
    expect(fresh.json.checks).toHaveLength(1);
    expect(fresh.json.state_path).not.toBe(JSON.parse(String(old.stdout)).state_path);
    // The first plan keeps 01-01.json; the other is named by its path's hash.
    expect(JSON.parse(p.read(fresh.json.state_path.slice(p.dir.length + 1))).plan_path).toBe('.planning/phases/01-demo/01-01-PLAN.md');
    expect(p.state().plan_path).toBe(archived);
  });

  it('inserting a task before a running one keeps its loop with it', async () => {
    const t1 = autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js' });
    const p = new Project({ tasks: t1, files, config: { max_iterations: 5, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    p.write('src/a.js', "module.exports = 'try1';\n");
    expect((await p.verify(1)).json.iteration).toBe(1);
    // The human inserts a new first task; the old task is now task 2.
    const plan = p.read('.planning/phases/01-demo/01-01-PLAN.md');
    const inserted = autoTask({ name: 'Task 1: Write the docs', verify: 'true' });
    p.write('.planning/phases/01-demo/01-01-PLAN.md', plan.replace('<tasks>\n', `<tasks>\n${inserted}\n`).replace('Task 1: Make the value right', 'Task 2: Make the value right'));
    p.write('src/a.js', "module.exports = 'try2';\n");
    const moved = await p.verify(2);
    expect(moved.json).toMatchObject({ iteration: 2, task: { number: 2 } });
    const first = await p.verify(1);
    expect(first.json).toMatchObject({ verdict: 'pass', iteration: 1 });
    expect(Object.keys(p.state().tasks).sort()).toEqual(['name:make-the-value-right', 'name:write-the-docs']);
  });

  it('a schema 1 state file migrates: position keys follow their task, changed-file lists are bounded', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js' }), files, config: { max_iterations: 5, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    p.write('src/a.js', "module.exports = 'try1';\n");
    await p.verify(1);
    const v2 = p.state();
    const loop = v2.tasks['name:make-the-value-right'];
    loop.iterations[0].files_changed = Array.from({ length: 500 }, (_, i) => `gen/f${i}.js`);
    delete loop.iterations[0].files_changed_count;
    p.write('.planning/ralf/01-01.json', JSON.stringify({ ...v2, schema_version: 1, tasks: { '1': loop } }, null, 2));
    p.write('src/a.js', "module.exports = 'try2';\n");
    const r = await p.verify(1);
    expect(r.json.iteration).toBe(2);
    const migrated = p.state();
    expect(migrated.schema_version).toBe(2);
    expect(Object.keys(migrated.tasks)).toEqual(['name:make-the-value-right']);
    expect(migrated.tasks['name:make-the-value-right'].iterations[0]).toMatchObject({ files_changed_count: 500 });
    expect(migrated.tasks['name:make-the-value-right'].iterations[0].files_changed).toHaveLength(20);
  });
});

describe('verdicts: bounded state', () => {
  it('100 iterations that each change 20k files keep the state under 1 MB', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => `node_modules/some-package/lib/deeply/nested/file-${i}.js`);
    let state = newLoopState({ scope: 'task', task_number: 1, task_name: 'x', max_iterations: 100 });
    const limits = { max_iterations: 100, error_fingerprint_repeats: 100, no_progress_repeats: 100 };
    for (let i = 0; i < 100; i++) {
      const event = { ...verifiedEvent(i), files_changed: files, diff_hash: `d${i}` };
      state = reduce(state, event, { limits, plan_id: '01-01', plan_path: 'p', plan_progress: null }).state;
    }
    expect(state.iterations).toHaveLength(100);
    expect(state.iterations[99]).toMatchObject({ files_changed_count: 20_000 });
    expect(JSON.stringify(state, null, 2).length).toBeLessThan(1024 * 1024);
  });

  it('a verify in a repo with 20k untracked files records 20 paths and the count', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: x', verify: 'node -e "process.exit(1)"' }), files: {} });
    for (let i = 0; i < 20_000; i++) p.write(`out/${i % 100}/f${i}.txt`, `${i}\n`);
    const r = await p.verify(1);
    expect(r.code).toBe(10);
    const it1 = taskLoop(p.state(), 1).iterations[0];
    expect(it1.files_changed).toHaveLength(20);
    expect(it1.files_changed_count).toBe(20_000);
    expect(p.read('.planning/ralf/01-01.json').length).toBeLessThan(64 * 1024);
  }, 60_000);
});

function verifiedEvent(i: number) {
  const check = { index: 0, kind: 'command_succeeds' as const, command: 'npm test', passed: false, exit_code: 1, signal: null, timed_out: false, duration_ms: 5, output_tail: 'Error: x\n'.repeat(50), fingerprint: `Error ${i}` };
  return { type: 'iteration_verified' as const, now: new Date(1_700_000_000_000 + i * 1000).toISOString(), started_at: new Date(1_700_000_000_000 + i * 1000).toISOString(), duration_ms: 5, checks: [check], diff_hash: null, tree: `t${i}`, files_changed: [], rule4_findings: [], done_confirmed: false, requires_confirmation: false, start_ref: 's' };
}
