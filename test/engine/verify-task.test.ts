/**
 * The I/O shell with fake collaborators: which work happens (checks, git, config/plan
 * loading) in each situation, deterministically and without subprocesses.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import type { EngineDeps, RawCheck } from '../../src/engine/shell/deps.js';
import { escalateTask } from '../../src/engine/shell/escalate-task.js';
import { recordLoopEvent } from '../../src/engine/shell/record-event.js';
import { resetTask } from '../../src/engine/shell/reset-task.js';
import { startTask } from '../../src/engine/shell/start-task.js';
import { readPlanState } from '../../src/engine/shell/store.js';
import { verifyPlan, verifyTask } from '../../src/engine/shell/verify-task.js';
import type { Check, Plan, PlanTask } from '../../src/plan/model.js';
import { RalfError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { taskLoop } from '../helpers/state.js';

const check: Check = { kind: 'command_succeeds', command: 'node check.js', source: { element: 'verify', line: 1 } };

function task(n: number, extra: Partial<PlanTask> = {}): PlanTask {
  return { number: n, name: `Task ${n}: thing`, type: 'auto', tdd: false, gate: null, attributes: {}, line: 1, end_line: 2, files: ['src/a.js'], elements: {}, checks: [check], manual: [], decision: 'loop', reason: '', ...extra };
}

function plan(path: string, tasks: PlanTask[], extra: Partial<Plan> = {}): Plan {
  return {
    path,
    id: '01-01',
    frontmatter_source: 'yaml',
    frontmatter: { phase: '01', plan: '01', type: 'execute', wave: 1, depends_on: [], files_modified: ['src/a.js'], autonomous: true, requirements: [], must_haves: { truths: [], artifacts: [], key_links: [] }, gap_closure: false, extra: {} },
    objective: 'Demo',
    tasks,
    plan_checks: [check],
    plan_manual: [],
    plan_decision: { decision: 'loop', reason: '' },
    warnings: [],
    ...extra,
  };
}

const fail = (fp = 'E'): RawCheck => ({ index: 0, kind: 'command_succeeds', command: 'node check.js', passed: false, exit_code: 1, signal: null, timed_out: false, duration_ms: 3, output_tail: `Error: ${fp}` });
const pass = (): RawCheck => ({ ...fail(), passed: true, exit_code: 0, output_tail: 'ok' });

interface Fake {
  deps: EngineDeps;
  calls: Record<string, number>;
  root: string;
  planPath: string;
  results: RawCheck[][];
  tree: string | null;
  head: string | null;
  findings: string[];
}

function setup(tasks: PlanTask[] = [task(1)], opts: { config?: Partial<typeof DEFAULT_CONFIG>; git?: boolean; planExtra?: Partial<Plan> } = {}): Fake {
  const root = tempDir();
  const planPath = join(root, '.planning', 'phases', '01-x', '01-01-PLAN.md');
  mkdirSync(join(root, '.planning', 'phases', '01-x'), { recursive: true });
  writeFileSync(planPath, '# plan\n');
  const calls: Record<string, number> = {};
  const count = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);
  const fake: Fake = { deps: undefined as unknown as EngineDeps, calls, root, planPath, results: [], tree: 'tree-a', head: 'tree-0', findings: [] };
  const git = opts.git !== false;
  fake.deps = {
    planning: async () => ({
      loadConfig: () => {
        count('loadConfig');
        return { config: { ...DEFAULT_CONFIG, ...opts.config }, sources: {}, project_root: root, files: [{ path: join(root, '.planning', 'config.json'), exists: false }] };
      },
      readPlan: (path) => {
        count('readPlan');
        return plan(path, tasks, opts.planExtra);
      },
      planFromText: (_text, path) => plan(path, tasks, opts.planExtra),
      checkTimeoutSeconds: 600,
    }),
    runChecks: async () => {
      count('runChecks');
      return fake.results.shift() ?? [fail()];
    },
    fingerprint: (output) => ({ fingerprint: output.split('\n')[0] ?? null, failing_units: [] }),
    git: {
      insideGit: () => git,
      headTree: async () => (count('headTree'), fake.head),
      snapshot: async () => (count('snapshot'), fake.tree),
      taskDiff: async ({ toTree }) => (count('taskDiff'), { diffHash: `diff-${toTree}`, filesChanged: ['src/a.js'], findings: fake.findings }),
      written: async () => (count('written'), {}),
    },
  };
  return fake;
}

const clock = () => new Date('2026-01-01T00:00:00Z');

describe('verifyTask (fake collaborators)', () => {
  it('records an iteration: start from HEAD, diff facts from git', async () => {
    const f = setup();
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o).toMatchObject({ verdict: 'retry', exit_code: 10, iteration: 1, fingerprint: 'Error: E' });
    const loop = taskLoop(readPlanState(f.root, '01-01')!, 1)!;
    expect(loop.start_ref).toBe('tree-0');
    expect(loop.iterations[0]).toMatchObject({ tree: 'tree-a', diff_hash: 'diff-tree-a', files_changed: ['src/a.js'] });
  });

  it('an unchanged tree costs no git diff on the next verify', async () => {
    const f = setup([task(1)], { config: { max_iterations: 5, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.taskDiff).toBe(1);
    f.tree = 'tree-b';
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.taskDiff).toBe(2);
    expect(o.progress_reasons.join()).toMatch(/code changed/);
  });

  it('a tree equal to the start needs no diff at all', async () => {
    const f = setup();
    f.tree = 'tree-0';
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.taskDiff).toBeUndefined();
    expect(taskLoop(readPlanState(f.root, '01-01')!, 1)!.iterations[0]!.diff_hash).toBeNull();
  });

  it('outside git: no git calls; progress sees task file contents change', async () => {
    const f = setup([task(1)], { git: false, config: { max_iterations: 5, error_fingerprint_repeats: 5, no_progress_repeats: 5 } });
    mkdirSync(join(f.root, 'src'));
    writeFileSync(join(f.root, 'src/a.js'), 'one');
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    writeFileSync(join(f.root, 'src/a.js'), 'two');
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o.progress).toBe(true);
    const same = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(same.progress).toBe(false);
    expect(f.calls.snapshot ?? 0).toBe(0);
    expect(f.calls.headTree ?? 0).toBe(0);
  });

  it('diff guard findings stop the loop even when the checks pass', async () => {
    const f = setup();
    f.results.push([pass()]);
    f.findings = ['new dependency in package.json: left-pad (dependencies)'];
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o).toMatchObject({ verdict: 'stop', stop_reason: 'rule4_architectural', exit_code: 20 });
  });

  it('the STOP flag: no checks run, exit 130, nothing counted', async () => {
    const f = setup();
    mkdirSync(join(f.root, '.planning', 'ralf'), { recursive: true });
    writeFileSync(join(f.root, '.planning', 'ralf', 'STOP'), '');
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o).toMatchObject({ verdict: 'stop', stop_reason: 'interrupted', exit_code: 130, counted: false });
    expect(f.calls.runChecks).toBeUndefined();
  });

  it('the STOP flag on a task that already passed: exit 130, the pass stays recorded', async () => {
    const f = setup();
    f.results.push([pass()]);
    expect((await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock })).exit_code).toBe(0);
    mkdirSync(join(f.root, '.planning', 'ralf'), { recursive: true });
    writeFileSync(join(f.root, '.planning', 'ralf', 'STOP'), '');
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o).toMatchObject({ exit_code: 130, verdict: 'stop', stop_reason: 'interrupted' });
    expect(taskLoop(readPlanState(f.root, '01-01')!, 1)).toMatchObject({ status: 'passed', stop_reason: 'success' });
  });

  it('an abort while the checks run records interrupted (exit 130), not an iteration', async () => {
    const f = setup();
    const controller = new AbortController();
    f.deps.runChecks = async () => {
      controller.abort('SIGINT');
      return [{ ...fail(), interrupted: true }];
    };
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock, signal: controller.signal });
    expect(o).toMatchObject({ exit_code: 130, stop_reason: 'interrupted', interrupted: { cause: 'signal', signal: 'SIGINT' }, iteration: 0 });
    expect(taskLoop(readPlanState(f.root, '01-01')!, 1)).toMatchObject({ status: 'stopped', stop_reason: 'interrupted', iterations: [] });
  });

  it('a stopped loop answers without running checks', async () => {
    const f = setup([task(1)], { config: { max_iterations: 1 } });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    const o = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(o).toMatchObject({ exit_code: 20, already_ended: true, counted: false });
    expect(f.calls.runChecks).toBe(1);
  });

  it('refuses and skips with exit 2, recording not_looped', async () => {
    const f = setup([task(1), task(2, { type: 'checkpoint:decision', decision: 'refuse', reason: 'checkpoint' }), task(3, { decision: 'skip', reason: 'no checks' })]);
    await expect(verifyTask({ planPath: f.planPath, taskNumber: 2, deps: f.deps, now: clock })).rejects.toMatchObject({ kind: 'task_refused', exitCode: 2 });
    await expect(verifyTask({ planPath: f.planPath, taskNumber: 3, deps: f.deps, now: clock })).rejects.toMatchObject({ kind: 'task_skipped', exitCode: 2 });
    expect(readPlanState(f.root, '01-01')!.not_looped.map((t) => [t.number, t.decision])).toEqual([
      [2, 'refuse'],
      [3, 'skip'],
    ]);
  });

  it('enabled: false skips every task', async () => {
    const f = setup([task(1)], { config: { enabled: false } });
    const err = await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RalfError);
    expect((err as RalfError).kind).toBe('task_skipped');
  });

  it('enabled: false: task start and task verify refuse alike and record every task as skipped', async () => {
    for (const act of ['start', 'verify'] as const) {
      const f = setup([task(1), task(2)], { config: { enabled: false } });
      const options = { planPath: f.planPath, taskNumber: 2, deps: f.deps, now: clock };
      const err = await (act === 'start' ? startTask(options) : verifyTask(options)).catch((e: unknown) => e);
      expect((err as RalfError).kind).toBe('task_skipped');
      expect((err as RalfError).problems[0]?.message).toBe('the loop is disabled (ralf_lite.enabled is false)');
      expect(readPlanState(f.root, '01-01')!.not_looped.map((t) => [t.number, t.decision, t.reason])).toEqual([
        [1, 'skip', 'the loop is disabled (ralf_lite.enabled is false)'],
        [2, 'skip', 'the loop is disabled (ralf_lite.enabled is false)'],
      ]);
      expect(f.calls.runChecks).toBeUndefined();
    }
  });
});

describe('plan cache', () => {
  function age(f: Fake): void {
    const old = new Date(Date.now() - 60_000);
    utimesSync(f.planPath, old, old);
  }

  it('a second verify of an unchanged plan loads neither config nor plan', async () => {
    const f = setup([task(1)], { config: { max_iterations: 5 } });
    age(f);
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.loadConfig).toBe(1);
    expect(f.calls.readPlan).toBe(1);
  });

  it('editing the plan (or creating a config file) is a miss', async () => {
    const f = setup([task(1)], { config: { max_iterations: 5 } });
    age(f);
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    writeFileSync(f.planPath, '# plan, edited\n');
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.readPlan).toBe(2);
    age(f);
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    writeFileSync(join(f.root, '.planning', 'config.json'), '{}');
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.loadConfig).toBe(4);
  });

  it('a plan modified just now is not cached (it may still be changing)', async () => {
    const f = setup([task(1)], { config: { max_iterations: 5 } });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    expect(f.calls.readPlan).toBe(2);
  });

  it('a different environment (host selection) is a miss', async () => {
    const f = setup([task(1)], { config: { max_iterations: 5 } });
    age(f);
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock, env: { HOME: '/h' } });
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock, env: { HOME: '/h', CLAUDECODE: '1' } });
    expect(f.calls.loadConfig).toBe(2);
  });
});

describe('plan loop, escalation, reset and run events', () => {
  it('verifyPlan keeps its own loop in state.plan', async () => {
    const f = setup();
    const o = await verifyPlan({ planPath: f.planPath, deps: f.deps, now: clock });
    expect(o).toMatchObject({ scope: 'plan', task: null, iteration: 1 });
    expect(readPlanState(f.root, '01-01')!.plan).toMatchObject({ scope: 'plan', task_number: null });
  });

  it('verifyPlan refuses per plan_decision', async () => {
    const f = setup([task(1)], { planExtra: { plan_decision: { decision: 'refuse', reason: 'task 2 is a checkpoint' } } });
    await expect(verifyPlan({ planPath: f.planPath, deps: f.deps, now: clock })).rejects.toMatchObject({ kind: 'task_refused' });
    expect(readPlanState(f.root, '01-01')!.plan_not_looped).toEqual({ decision: 'refuse', reason: 'task 2 is a checkpoint' });
  });

  it('the plan loop starts where the earliest task started', async () => {
    const f = setup();
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    f.head = 'tree-later';
    await verifyPlan({ planPath: f.planPath, deps: f.deps, now: clock });
    expect(readPlanState(f.root, '01-01')!.plan!.start_ref).toBe('tree-0');
  });

  it('escalate, then reset from the current tree', async () => {
    const f = setup();
    const e = await escalateTask({ planPath: f.planPath, taskNumber: 1, rule: 4, reason: 'new table', deps: f.deps, now: clock });
    expect(e).toMatchObject({ exit_code: 20, stop_reason: 'rule4_architectural' });
    f.tree = 'tree-now';
    const r = await resetTask({ planPath: f.planPath, which: 1, deps: f.deps, now: clock });
    expect(r.reset).toHaveLength(1);
    expect(taskLoop(readPlanState(f.root, '01-01')!, 1)).toMatchObject({ status: 'idle', start_ref: 'tree-now', escalation: null });
  });

  it('recordLoopEvent: blocked and budgets stop the loop with a handoff', async () => {
    const f = setup();
    await verifyTask({ planPath: f.planPath, taskNumber: 1, deps: f.deps, now: clock });
    const b = await recordLoopEvent({ planPath: f.planPath, taskNumber: 1, event: { type: 'blocked', reason: 'gh auth login needed' }, deps: f.deps, now: clock });
    expect(b).toMatchObject({ exit_code: 20, stop_reason: 'blocked' });
    expect(b.handoff?.markdown).toContain('**Type:** human-action');
    const t = await recordLoopEvent({ planPath: f.planPath, taskNumber: null, event: { type: 'budget_exhausted', budget: 'token', detail: '2M tokens' }, deps: f.deps, now: clock });
    expect(t).toMatchObject({ stop_reason: 'token_budget', scope: 'plan' });
  });
});
