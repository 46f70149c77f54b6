/**
 * A green run that got there by skipping tests is named for a human (core/skips.ts): pure
 * comparison, and an agent that skips its failing node:test in a real git repo.
 */
import { describe, expect, it } from 'vitest';
import { baselineOf } from '../../src/engine/core/baseline.js';
import { moreSkipped } from '../../src/engine/core/skips.js';
import { check } from './helpers.js';
import { autoTask, PLAN_REL, Project } from './project.js';

const counted = (index: number, skipped: number, fp?: string) => ({ ...check(index, fp === undefined ? {} : { fp }), skipped_tests: skipped });

describe('moreSkipped (pure)', () => {
  it('compares with the untouched tree\'s run, else the first iteration that counted', () => {
    const baseline = baselineOf([counted(0, 1, 'A')], '2026-11-24T00:00:00Z', 'task_start');
    expect(moreSkipped([counted(0, 2)], baseline, [])).toEqual([{ command: 'node check1.js', before: 1, now: 2 }]);
    expect(moreSkipped([counted(0, 1)], baseline, [])).toEqual([]);
    expect(moreSkipped([counted(0, 3)], null, [{ checks: [check(0, { fp: 'A' })] }, { checks: [counted(0, 0, 'A')] }])).toEqual([{ command: 'node check1.js', before: 0, now: 3 }]);
    // No count anywhere before: nothing to compare with.
    expect(moreSkipped([counted(0, 3)], null, [])).toEqual([]);
    expect(moreSkipped([check(0)], baseline, [])).toEqual([]);
  });
});

const TESTS = (skipBeta: boolean) => `const test = require('node:test');
const assert = require('node:assert');
const v = require('./src/v.json');
test('alpha', () => assert.strictEqual(v.alpha, 1));
test${skipBeta ? '.skip' : ''}('beta', () => assert.strictEqual(v.beta, 2));
`;

describe('an agent that skips its failing test', () => {
  it('passes, and the answer and the Loop Report say one more test is skipped than at the start', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Make the values right', files: ['src/v.json'], verify: 'node --test test.js' }),
      files: { 'src/v.json': '{"alpha":0,"beta":0}\n', 'test.js': TESTS(false) },
      config: { max_iterations: 5 },
    });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/v.json', '{"alpha":1,"beta":0}\n');
    p.write('test.js', TESTS(true));
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json).toMatchObject({ verdict: 'pass', skipped_more: [{ command: 'node --test test.js', before: 0, now: 1 }] });
    expect(r.json.message).toContain('`node --test test.js` skips 1 test (0 where the loop started). A skipped test verifies nothing');
    expect(p.state().tasks[Object.keys(p.state().tasks)[0]!].iterations[0].skipped_more).toEqual([{ command: 'node --test test.js', before: 0, now: 1 }]);
    const report = await p.run(['report', PLAN_REL, '--dry-run', '--create']);
    expect(String(report.stdout)).toContain('More tests skipped than where the loop started (a skipped test verifies nothing): `node --test test.js: 0 → 1`');
  });

  it('a run that skips what it skipped before the task says nothing', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Make the values right', files: ['src/v.json'], verify: 'node --test test.js' }),
      files: { 'src/v.json': '{"alpha":0,"beta":0}\n', 'test.js': TESTS(true) },
    });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/v.json', '{"alpha":1,"beta":0}\n');
    const r = await p.verify(1, '--done-confirmed');
    expect(r.json.verdict).toBe('pass');
    expect(r.json.skipped_more).toBeUndefined();
  });
});
