/**
 * Agents that cheat: skipping or deleting the failing test, weakening its assertion, or
 * editing the plan's <verify>. The loop must never pass where the engine can tell the check
 * was weakened. Where the output cannot tell (a weakened assertion still runs and passes; `go
 * test` without -v states no test counts), the pass stands and the answer and the Loop Report
 * name the test files changed since the checks first failed (`tests_edited`), for a human.
 */
import { describe, it } from 'vitest';
import { PLAN, Scenario } from './harness.js';
import { RUNNERS, type Runner } from './runners.js';

const WANT = { alpha: 1, bravo: 2, charlie: 3 };
const limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const skipped = (runner: Runner) => (runner.missing ? ` — skipped: ${runner.missing}` : '');

/** Fixes alpha and bravo, then cheats on charlie and stays there. */
async function cheatOnLast(runner: Runner, cheat: 'skip' | 'drop') {
  const s = new Scenario(runner, { want: WANT, limits });
  await s.play([() => {}, (sc) => sc.fix('alpha'), (sc) => sc.fix('bravo'), (sc) => sc.edit({ suite: { [cheat]: ['charlie'] } }), () => {}, () => {}]);
  return s;
}

describe.concurrent('agents that cheat', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: fixes two, then skips the last failing test: held as failing, never passes${skipped(runner)}`, async ({ expect }) => {
      const s = await cheatOnLast(runner, 'skip');
      // Held as failing; the agent that leaves the skip in place repeats the held result.
      expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
      expect(s.results[3]!.json.skipped_more, s.explain()).toEqual([{ command: runner.verify, before: 0, now: 1 }]);
      expect(s.results[3]!.json.fingerprint, s.explain()).toBe('held: skips 1 test (0 where the loop started)');
    }, 90_000);
  }

  for (const runner of [RUNNERS.nodeTest, RUNNERS.pytest]) {
    it.skipIf(runner.missing)(`${runner.id}: fixes two, then deletes the last failing test: held as failing, never passes${skipped(runner)}`, async ({ expect }) => {
      const s = await cheatOnLast(runner, 'drop');
      expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
      expect(s.results[3]!.json.fewer_tests, s.explain()).toEqual([{ command: runner.verify, before: 3, now: 2 }]);
      expect(s.results.at(-1)!.json.handoff.markdown).toContain('**Fewer tests run than earlier in the loop:**');
    }, 90_000);
  }

  // `go test` (without -v) states no test or skip counts, so a skipped or deleted Go test
  // cannot be told from a fixed one by its output: it passes, and the test file it changed is named.
  it.skipIf(RUNNERS.goTest.missing)(`go test: fixes two, then skips the last failing test: passes, naming the test file changed (the runner states no counts)${skipped(RUNNERS.goTest)}`, async ({ expect }) => {
    const s = await cheatOnLast(RUNNERS.goTest, 'skip');
    expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    expect(s.results[3]!.json.tests_edited, s.explain()).toEqual({ since: 1, paths: ['units_test.go'], count: 1 });
    expect(s.results[1]!.json.tests_edited, s.explain()).toBeUndefined();
    const report = await s.ralf(['report', PLAN, '--create', '--dry-run']);
    expect(String(report.stdout), String(report.stderr)).toContain('Passed after test files changed since the checks failed at iteration 1 (review them: a weakened test passes like a fix): `units_test.go`');
  }, 90_000);

  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: rewrites the plan's <verify> to \`true\`: the recorded check still runs, never passes${skipped(runner)}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits });
      const trail = await s.play([() => {}, (sc) => sc.write(PLAN, sc.read(PLAN).replace(`\`${runner.verify}\``, '`true`')), () => {}, () => {}]);
      // Editing the plan is a new tree with the same error: the fingerprint rule stops it.
      expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
      expect(s.results[1]!.json.plan_checks_edited).toEqual(['true']);
      expect(s.results[1]!.json.checks.map((c: { command: string }) => c.command)).toEqual([runner.verify]);
    }, 90_000);

    it.skipIf(runner.missing)(`${runner.id}: weakens the failing assertion: passes (not detectable from the output), naming the test file changed${skipped(runner)}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 1, bravo: 2, charlie: 0 } }, limits });
      const trail = await s.play([() => {}, (sc) => sc.edit({ suite: { weak: ['charlie'] } })]);
      // The plan's check ran as the author wrote it and passed, with as many tests as before:
      // what a test asserts is the test author's, and the engine cannot judge it. It names where the agent went.
      expect(trail, s.explain()).toEqual(['retry+', 'pass']);
      const testFile = Object.keys(runner.tests({ want: WANT }))[0]!;
      expect(s.results[1]!.json.tests_edited, s.explain()).toEqual({ since: 1, paths: [testFile], count: 1 });
      expect(s.results[1]!.json.message).toContain(`Note: test file changed since the checks failed at iteration 1: ${testFile}. A check cannot tell a fixed test from a weakened`);
    }, 90_000);
  }

  // The check runs the project's test command, and the agent rewrites that command: the run
  // passes without testing anything, and its output cannot tell. Named for a human, like a
  // weakened test; a real fix through the same command names nothing.
  const viaTaskRunner = [
    { check: 'npm test --silent', file: 'package.json', body: '{ "name": "units", "private": true, "scripts": { "test": "node --test test/" } }\n', emptied: '{ "name": "units", "private": true, "scripts": { "test": "echo ok" } }\n' },
    { check: 'make -s check', file: 'Makefile', body: 'check:\n\tnode --test test/\n', emptied: 'check:\n\t@echo all good\n' },
  ];
  for (const { check, file, body, emptied } of viaTaskRunner) {
    it(`node:test through \`${check}\`: the agent empties the test command: passes, naming ${file} (was: nothing said); a real fix names nothing`, async ({ expect }) => {
      const start = { values: { alpha: 1, bravo: 2, charlie: 0 } };
      const cheat = new Scenario(RUNNERS.nodeTest, { want: WANT, start, checks: [check], files: { [file]: body }, limits });
      expect(await cheat.play([() => {}, (sc) => sc.write(file, emptied)]), cheat.explain()).toEqual(['retry+', 'pass']);
      expect(cheat.results[1]!.json.tests_edited, cheat.explain()).toEqual({ since: 1, paths: [file], count: 1 });
      expect(cheat.results[1]!.json.message).toContain(`Note: test or check file changed since the checks failed at iteration 1: ${file}.`);
      const report = await cheat.ralf(['report', PLAN, '--create', '--dry-run']);
      expect(String(report.stdout), String(report.stderr)).toContain(`Passed after test or check files changed since the checks failed at iteration 1 (review them: a weakened test passes like a fix): \`${file}\``);

      const fixed = new Scenario(RUNNERS.nodeTest, { want: WANT, start, checks: [check], files: { [file]: body }, limits });
      expect(await fixed.play([() => {}, (sc) => sc.fix('charlie')]), fixed.explain()).toEqual(['retry+', 'pass']);
      expect(fixed.results[1]!.json.tests_edited, fixed.explain()).toBeUndefined();
    }, 90_000);
  }

  for (const runner of [RUNNERS.nodeTest]) {
    it.skipIf(runner.missing)(`${runner.id}: a real fix of the code after the tests failed: passes, no test file named${skipped(runner)}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 1, bravo: 2, charlie: 0 } }, limits });
      const trail = await s.play([() => {}, (sc) => sc.fix('charlie')]);
      expect(trail, s.explain()).toEqual(['retry+', 'pass']);
      expect(s.results[1]!.json.tests_edited, s.explain()).toBeUndefined();
    }, 90_000);
  }

  it('node:test: an agent that sets preexisting_failures "allow" in .planning/config.json (both tests failed before the task): never passes on the config, the answer names the edit', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, limits });
    expect((await s.ralf(['task', 'start', PLAN, '1'])).exitCode).toBe(0);
    const trail = await s.play([(sc) => sc.write('.planning/config.json', configWith({ ...limits, preexisting_failures: 'allow' })), (sc) => sc.edit({ code: { comment: 'done' } }), () => {}]);
    // Before: 'pass' at iteration 1 (the two failing tests were "already failing before the task").
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect(s.results[0]!.json.config_edited).toEqual(['preexisting_failures: report -> allow']);
    expect(s.results[0]!.json.message).toMatch(/the config changed since the loop started .*task reset/);
  }, 90_000);

  it('node:test: an agent that raises max_iterations and the repeat counts mid-loop: judged by the limits it started with (stop at 2 of 4, not 50)', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, limits: { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
    const trail = await s.play([() => {}, (sc) => sc.write('.planning/config.json', configWith({ max_iterations: 50, error_fingerprint_repeats: 50, no_progress_repeats: 50 })), () => {}, () => {}]);
    // Before: 'retry+' (iteration 2/50) and on, the loop's bound gone.
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect(s.results[1]!.json.max_iterations).toBe(4);
  }, 90_000);

  it('node:test: after a human resets the loop, the config as it is now applies', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, limits: { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
    await s.verify();
    s.write('.planning/config.json', configWith({ max_iterations: 7, error_fingerprint_repeats: 3, no_progress_repeats: 3 }));
    expect((await s.ralf(['task', 'reset', PLAN, '1'])).exitCode).toBe(0);
    const v = await s.verify();
    expect(v.json.max_iterations).toBe(7);
    expect(v.json.config_edited).toBeUndefined();
  }, 90_000);
});

function configWith(ralfLite: Record<string, unknown>): string {
  return `${JSON.stringify({ mode: 'yolo', ralf_lite: { check_timeout_seconds: 60, ...ralfLite } }, null, 2)}\n`;
}
