/**
 * Tests that pass or fail at random. The test here fails on odd-numbered runs and passes on
 * even ones (a counter outside the project): the same code, different results. Written before
 * running:
 *
 * - an idle agent after a failure: the second run passes by luck on the very tree that failed.
 *   The plan's checks passed as written, and something outside the tree may have changed
 *   (dependencies installed into an ignored directory, a service started), so the pass stands;
 *   the answer says the same tree failed at iteration 1 (`same_tree_failed`), and the Loop Report
 *   too, so a human knows the pass may be luck;
 * - a real fix on a new tree that happens to run green: no such note (it cannot be told from
 *   luck, and the code did change).
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { PLAN } from './harness.js';
import { RUNNERS } from './runners.js';

const runner = RUNNERS.nodeTest;
// Fails on the 1st, 3rd, … run in this HOME, passes on the 2nd, 4th, …
const FLAKY = `const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const file = require('node:path').join(require('node:os').homedir(), 'flaky-runs');
let runs = 0;
try { runs = Number(fs.readFileSync(file, 'utf8')); } catch {}
fs.writeFileSync(file, String(runs + 1));
test('flaky', () => { assert.ok(runs % 2 === 1, 'lost the race'); });
`;

describe.concurrent('flaky tests', () => {
  it('node:test: an idle agent passes by luck on the tree that failed: the pass stands, named as the same code that failed', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1 }, start: { values: { alpha: 1 } }, files: { 'test/flaky.test.js': FLAKY }, limits: { max_iterations: 4 } });
    const trail = await s.play([() => {}, () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    expect(s.results[1]!.json.same_tree_failed, s.explain()).toBe(1);
    expect(s.results[1]!.json.message).toContain('Note: the same code failed at iteration 1');
    const report = await s.ralf(['report', PLAN, '--create', '--dry-run']);
    expect(String(report.stdout), String(report.stderr)).toContain('Passed on the code that failed at iteration 1');
  }, 90_000);

  it('node:test: a change that runs green: no note', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1 }, start: { values: { alpha: 1 } }, files: { 'test/flaky.test.js': FLAKY }, limits: { max_iterations: 4 } });
    const trail = await s.play([() => {}, (sc) => sc.edit({ code: { comment: 'retry' } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    expect(s.results[1]!.json.same_tree_failed, s.explain()).toBeUndefined();
  }, 90_000);
});
