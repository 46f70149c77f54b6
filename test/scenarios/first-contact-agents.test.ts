/**
 * First contact with agent behaviours the other scenario files do not play: a check killed by a
 * signal, a hang that moves from one test to the next, one fix of twenty per iteration up to
 * max_iterations, an agent that reverts its own fix, one that "fixes" by changing the expected
 * value in the test, one that makes the suite run or collect zero tests, and one that moves a
 * file it was not given. Each trail was written down before the scenario first ran.
 */
import { describe, it } from 'vitest';
import { PLAN, Scenario, type Limits } from './harness.js';
import { RUNNERS, type Runner } from './runners.js';

const skipped = (runner: Runner) => (runner.missing ? ` — skipped: ${runner.missing}` : '');
const limits: Limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const WANT = { alpha: 1, bravo: 2 };
// alpha kills its own process: the test run (and so the check) dies of SIGKILL.
const KILLED = "(process.kill(process.pid, 'SIGKILL'), 0)";
// A unit that never returns (it sleeps, so the hang costs no CPU).
const HANG = '(() => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 0; })()';

describe.concurrent('first contact: agent behaviours not played elsewhere', () => {
  it('a check killed by a signal (the test run dies of SIGKILL), comment edits only: the same failure, stopped at 2', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, start: { values: { alpha: KILLED, bravo: 0 } }, checks: ['node test/units.test.js'], limits });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { comment: 'tidy' } }), (x) => x.edit({ code: { comment: 'tidier' } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  it('a check killed by a signal, the kill fixed (a wrong value left), then the rest: progress, pass at 3', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, start: { values: { alpha: KILLED, bravo: 0 } }, checks: ['node test/units.test.js'], limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
  }, 90_000);

  // Written first with the tests in one file: then `node --test` prints nothing of that file until
  // it ends (its results are reported under it), so both timed-out runs print only `TAP version
  // 13`: the loop cannot see that alpha was fixed, and stopped it at 2 (repeated_fingerprint). No
  // rule can tell that fix from a comment edit under the same hang (timeouts.test.ts), so that is a
  // limit of the runner's output (docs/ENGINE.md). With one file per test the finished file is
  // reported, and the loop sees it.
  it('a hang that moves (one file per test): alpha and bravo both hang, alpha fixed (now bravo times out), then bravo: progress, pass at 3', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, suite: { filePerUnit: true }, start: { values: { alpha: HANG, bravo: HANG } }, config: { check_timeout_seconds: 2 }, limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
    expect(s.results[1]!.json.fingerprint, s.explain()).toMatch(/^timed out: /);
  }, 90_000);

  it('one fix of twenty per iteration: progress every time, max_iterations at 6 with split_task, warned before', async ({ expect }) => {
    const names = Array.from({ length: 20 }, (_, i) => `u${String(i + 1).padStart(2, '0')}`);
    const s = new Scenario(RUNNERS.nodeTest, { want: Object.fromEntries(names.map((u, i) => [u, i + 1])), limits });
    const order = [...names].reverse();
    const trail = await s.play([() => {}, ...order.slice(0, 6).map((u) => (x: Scenario) => x.fix(u))]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'retry+', 'stop:max_iterations']);
    expect(s.results.at(-1)!.json.handoff.recommended_action).toBe('split_task');
    expect(s.results[4]!.json.warning, s.explain()).toMatch(/the next iteration is the last one/);
  }, 90_000);

  it('an agent that reverts its own fix, then makes it again: back where it was, stopped at 4', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.edit({ code: { values: { alpha: 0 } } }), (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry-', 'stop:repeated_fingerprint']);
  }, 90_000);

  it('an agent that reverts its own fix, then fixes the other test instead, then the first again: the revert is no progress, the rest is, pass at 5', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.edit({ code: { values: { alpha: 0 } } }), (x) => x.fix('bravo'), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry-', 'retry+', 'pass']);
  }, 90_000);

  it.skipIf(RUNNERS.pytest.missing)(`pytest: "fixed" by changing the expected value in the test: passes (the output cannot tell), naming the test file${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.pytest, { want: { alpha: 1, bravo: 2, charlie: 3 }, start: { values: { alpha: 1, bravo: 2, charlie: 0 } }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ suite: { want: { alpha: 1, bravo: 2, charlie: 0 } } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    expect(s.results[1]!.json.tests_edited, s.explain()).toEqual({ since: 1, paths: ['test_units.py'], count: 1 });
  }, 90_000);

  it.skipIf(RUNNERS.unittest.missing)(`unittest: every test method deleted, the run is green with "Ran 0 tests": held as failing, never passes${skipped(RUNNERS.unittest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.unittest, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ suite: { drop: ['alpha', 'bravo'] } }), () => {}, () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  // Written first as a repeated_fingerprint stop at 3 (pytest exits 5, "no tests ran"); the Rule 4
  // guard stops it earlier and names what happened: the test file is not the task's to rename away.
  it.skipIf(RUNNERS.pytest.missing)(`pytest: the test file renamed so nothing is collected: a Rule 4 stop at 2 naming the rename, never a pass${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.pytest, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits });
    const trail = await s.play([
      () => {},
      (x) => {
        x.write('units_cases.py', x.read('test_units.py'));
        x.remove('test_units.py');
      },
      () => {},
      () => {},
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:rule4_architectural']);
    expect(s.results[1]!.json.handoff.escalation.findings).toEqual(["deleted file outside the task's <files>: test_units.py (renamed to units_cases.py)"]);
  }, 90_000);

  // Written first as progress and a pass at 3 (`<files>` is a hint, not a fence). The guard reads a
  // file renamed away outside the task's <files> as that file deleted (docs/ENGINE.md, Rule 4 (c)):
  // a decision for a human, who approves it; the loop then goes on from the same start and passes.
  it('an agent that moves a helper it was not given (src/format.js -> src/util/format.js) while fixing a test: a Rule 4 stop at 2 naming the move; approved, the loop goes on and passes', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT, files: { 'src/format.js': 'exports.twice = (x) => x * 2;\n' }, limits });
    const trail = await s.play([
      () => {},
      (x) => {
        x.write('src/util/format.js', x.read('src/format.js'));
        x.remove('src/format.js');
        x.edit({ code: { values: { bravo: "require('./util/format.js').twice(1)" } } });
      },
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:rule4_architectural']);
    expect(s.results[1]!.json.handoff.escalation.findings).toEqual(["deleted file outside the task's <files>: src/format.js (renamed to src/util/format.js)"]);
    expect((await s.ralf(['task', 'approve', PLAN, '1'])).exitCode).toBe(0);
    expect(await s.play([(x) => x.fix('alpha')]), s.explain()).toEqual(['retry+', 'stop:rule4_architectural', 'pass']);
  }, 90_000);
});

describe.concurrent('first contact: tests marked to-do or expected to fail', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.vitest]) {
    it.skipIf(runner.missing)(`${runner.id}: fixes two, then marks the last failing test to-do (a failing to-do test does not fail the run): held as failing, never passes${skipped(runner)}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2, charlie: 3 }, limits });
      const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo'), (x) => x.edit({ suite: { todo: ['charlie'] } }), () => {}, () => {}]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
    }, 90_000);
  }

  it.skipIf(RUNNERS.pytest.missing)(`pytest: a conftest.py that marks every test xfail (the run is green): held as failing, never passes${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.pytest, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits });
    const conftest = 'import pytest\n\n\ndef pytest_collection_modifyitems(items):\n    for item in items:\n        item.add_marker(pytest.mark.xfail(reason="later"))\n';
    const trail = await s.play([() => {}, (x) => x.write('conftest.py', conftest), () => {}, () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 90_000);
});
