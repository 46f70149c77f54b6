import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newLoopState, newPlanState } from '../../src/engine/core/loop-state.js';
import { findProjectRoot, planIdFromPath, projectRootForPlan, statePaths } from '../../src/engine/shell/paths.js';
import { appendLog, listPlanIds, parsePlanState, readLog, readPlanState, stateIdOfPlan, writePlanState, type LogEntry } from '../../src/engine/shell/store.js';
import { RalfError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

const entry = (iteration: number): LogEntry => ({
  ts: '2026-01-01T00:00:00.000Z',
  scope: 'task',
  task: 1,
  iteration,
  action: 'verify',
  verdict: 'retry',
  stop_reason: null,
  counted: true,
  fingerprint: 'E',
  progress: true,
  duration_ms: 5,
  status: 'running',
  pid: 1,
});

describe('paths', () => {
  it.each([
    ['/p/.planning/phases/01-x/01-02-PLAN.md', '01-02'],
    ['/p/.planning/phases/09-x/09-03-FIX2-PLAN.md', '09-03-FIX2'],
    ['/p/.planning/phases/03-setup/PLAN.md', '03-setup'],
    ['/p/plans/feature.md', 'feature'],
    ['/p/.planning/phases/01-x/01-02-plan.md', '01-02'],
    ['/p/fix_plan.md', 'fix_plan'],
    ['/p/IMPLEMENTATION_PLAN.md', 'IMPLEMENTATION_PLAN'],
  ])('planIdFromPath(%s) = %s', (path, id) => {
    expect(planIdFromPath(path)).toBe(id);
  });

  it('finds a loop an older ralf recorded under the legacy id (fix_plan.md was `fix_`), and only for the same file', () => {
    const root = tempDir();
    mkdirSync(join(root, '.planning', 'ralf'), { recursive: true });
    expect(stateIdOfPlan(root, 'fix_plan.md')).toBe('fix_plan');
    writeFileSync(statePaths(root, 'fix_').state, JSON.stringify({ schema_version: 2, plan_path: 'fix_plan.md', plan_id: 'fix_', tasks: {} }));
    expect(stateIdOfPlan(root, 'fix_plan.md')).toBe('fix_');
    expect(stateIdOfPlan(root, 'docs/fix_plan.md')).toBe('fix_plan');
  });

  it('finds the project root above a plan, stopping at the repository root', () => {
    const root = tempDir();
    mkdirSync(join(root, '.planning', 'phases', '01-x'), { recursive: true });
    expect(projectRootForPlan(join(root, '.planning', 'phases', '01-x', '01-01-PLAN.md'))).toBe(root);
    const repo = join(root, 'sub');
    mkdirSync(join(repo, '.git'), { recursive: true });
    expect(findProjectRoot(repo)).toBeNull();
  });
});

describe('state file', () => {
  it('round-trips pretty JSON atomically', () => {
    const root = tempDir();
    const state = newPlanState({ plan_path: 'PLAN.md', plan_id: '01-01', now: 'now' });
    state.tasks['name:x'] = newLoopState({ scope: 'task', task_number: 1, task_name: 'x', max_iterations: 3 });
    writePlanState(root, state);
    const text = readFileSync(statePaths(root, '01-01').state, 'utf8');
    expect(text).toContain('\n  "schema_version": 2,');
    expect(readPlanState(root, '01-01')).toEqual(state);
    expect(listPlanIds(root)).toEqual(['01-01']);
  });

  it('is null when absent', () => {
    expect(readPlanState(tempDir(), 'x')).toBeNull();
  });

  it('refuses a newer schema_version with a clear error', () => {
    try {
      parsePlanState(JSON.stringify({ schema_version: 3, tasks: {} }), 'x.json');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(RalfError);
      expect((err as RalfError).kind).toBe('state_newer');
      expect((err as RalfError).message).toMatch(/newer ralf/);
    }
  });

  it.each([['{not json'], ['[]'], ['{"tasks":{}}'], ['{"schema_version":1,"tasks":[]}']])('rejects a broken state file %s', (text) => {
    expect(() => parsePlanState(text, 'x.json')).toThrow(RalfError);
  });
});

describe('iteration log', () => {
  it('appends one JSON line per entry', () => {
    const root = tempDir();
    appendLog(root, 'p', entry(1));
    appendLog(root, 'p', entry(2));
    const text = readFileSync(statePaths(root, 'p').log, 'utf8');
    expect(text.split('\n')).toHaveLength(3);
    expect(readLog(root, 'p').map((e) => e.iteration)).toEqual([1, 2]);
  });

  it('skips a torn last line, and the next append starts on a fresh line', () => {
    const root = tempDir();
    appendLog(root, 'p', entry(1));
    appendFileSync(statePaths(root, 'p').log, '{"ts":"2026-01-01T00:0'); // writer killed mid-line
    expect(readLog(root, 'p').map((e) => e.iteration)).toEqual([1]);
    appendLog(root, 'p', entry(2));
    expect(readLog(root, 'p').map((e) => e.iteration)).toEqual([1, 2]);
  });

  it('is empty when absent', () => {
    expect(readLog(tempDir(), 'p')).toEqual([]);
  });

  it('a torn line in the middle is skipped too', () => {
    const root = tempDir();
    mkdirSync(join(root, '.planning', 'ralf'), { recursive: true });
    writeFileSync(statePaths(root, 'p').log, `${JSON.stringify(entry(1))}\n{"broken\n${JSON.stringify(entry(2))}\n`);
    expect(readLog(root, 'p').map((e) => e.iteration)).toEqual([1, 2]);
  });
});
