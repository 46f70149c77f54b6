/**
 * A green run that got there by skipping tests is named for a human (core/skips.ts): pure
 * comparison, and an agent that skips its failing node:test in a real git repo.
 */
import { describe, expect, it } from 'vitest';
import { baselineOf } from '../../src/engine/core/baseline.js';
import { fewerTests, holdWeakened, moreSkipped } from '../../src/engine/core/skips.js';
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

describe('fewerTests and holdWeakened (pure)', () => {
  const ran = (index: number, n: number, fp?: string) => ({ ...check(index, fp === undefined ? {} : { fp }), tests_run: n });

  it('compares with the most tests the check ran before in the loop (the baseline or any iteration)', () => {
    const baseline = { ...baselineOf([ran(0, 3, 'A')], '2026-11-24T00:00:00Z', 'task_start') };
    expect(baseline.tests).toEqual({ 'node check1.js': 3 });
    expect(fewerTests([ran(0, 2)], baseline, [])).toEqual([{ command: 'node check1.js', before: 3, now: 2 }]);
    expect(fewerTests([ran(0, 3)], baseline, [])).toEqual([]);
    // A test added during the loop and deleted again is deleted.
    expect(fewerTests([ran(0, 3)], null, [{ checks: [ran(0, 3, 'A')] }, { checks: [ran(0, 4, 'A')] }])).toEqual([{ command: 'node check1.js', before: 4, now: 3 }]);
    expect(fewerTests([check(0)], baseline, [])).toEqual([]);
  });

  it('holds a passing check that skips more or runs fewer tests as failing; a failing one stays as it is', () => {
    const [held, failing, other] = holdWeakened([check(0), check(1, { fp: 'B' }), check(2)], [{ command: 'node check1.js', before: 0, now: 1 }, { command: 'node check2.js', before: 0, now: 1 }], [{ command: 'node check1.js', before: 3, now: 2 }]);
    expect(held).toMatchObject({ passed: false, exit_code: 0, fingerprint: 'held: skips 1 test (0 where the loop started); runs 2 tests (3 earlier in the loop)' });
    expect(held!.output_tail.startsWith('[ralf] passes only by skipping tests: it skips 1 test')).toBe(true);
    expect(failing).toMatchObject({ passed: false, fingerprint: 'B' });
    expect(failing!.held).toBeUndefined();
    expect(other).toEqual(check(2));
  });
});

const TESTS = (skipBeta: boolean) => `const test = require('node:test');
const assert = require('node:assert');
const v = require('./src/v.json');
test('alpha', () => assert.strictEqual(v.alpha, 1));
test${skipBeta ? '.skip' : ''}('beta', () => assert.strictEqual(v.beta, 2));
`;

describe('an agent that skips its failing test', () => {
  it('is held as failing: the answer names the skip; unskipping and fixing the test passes', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Make the values right', files: ['src/v.json'], verify: 'node --test test.js' }),
      files: { 'src/v.json': '{"alpha":0,"beta":0}\n', 'test.js': TESTS(false) },
      config: { max_iterations: 5 },
    });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/v.json', '{"alpha":1,"beta":0}\n');
    p.write('test.js', TESTS(true));
    const r = await p.verify(1, '--done-confirmed');
    expect(r.code).toBe(10);
    expect(r.json).toMatchObject({ verdict: 'retry', skipped_more: [{ command: 'node --test test.js', before: 0, now: 1 }] });
    expect(r.json.checks[0]).toMatchObject({ passed: false, exit_code: 0, held: 'passes only by skipping tests: it skips 1 test (0 where the loop started)' });
    expect(r.json.fingerprint).toBe('held: skips 1 test (0 where the loop started)');
    expect(r.json.message).toContain('`node --test test.js` skips 1 test (0 where the loop started). A skipped test verifies nothing');
    expect(p.state().tasks[Object.keys(p.state().tasks)[0]!].iterations[0].skipped_more).toEqual([{ command: 'node --test test.js', before: 0, now: 1 }]);

    p.write('test.js', TESTS(false));
    p.write('src/v.json', '{"alpha":1,"beta":2}\n');
    const fixed = await p.verify(1, '--done-confirmed');
    expect(fixed.json).toMatchObject({ verdict: 'pass', iteration: 2 });
    expect(fixed.json.skipped_more).toBeUndefined();
  });

  it('an agent that leaves the skip in place is stopped, and the handoff and the Loop Report name the skip', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Make the values right', files: ['src/v.json'], verify: 'node --test test.js' }),
      files: { 'src/v.json': '{"alpha":0,"beta":0}\n', 'test.js': TESTS(false) },
      config: { max_iterations: 5 },
    });
    expect((await p.run(['task', 'start', PLAN_REL, '1'])).exitCode).toBe(0);
    p.write('src/v.json', '{"alpha":1,"beta":0}\n');
    p.write('test.js', TESTS(true));
    expect((await p.verify(1, '--done-confirmed')).code).toBe(10);
    const stopped = await p.verify(1, '--done-confirmed');
    expect(stopped.json).toMatchObject({ verdict: 'stop', stop_reason: 'repeated_fingerprint', iteration: 2 });
    expect(stopped.json.handoff.markdown).toContain('**More tests skipped than where the loop started:** `node --test test.js` 0 → 1');
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
