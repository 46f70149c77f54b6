/**
 * Errors moving downstream (issue #12): a syntax/compile error, then a failing test, then a
 * different failing test, then green, inside one check; and across the checks of one task
 * (check 1 fixed, check 2 now runs and fails). Each step is real progress: `retry` with
 * progress, never a repeated-fingerprint or no-progress stop.
 */
import { describe, it } from 'vitest';
import { LINT_TODO, Scenario } from './harness.js';
import { RUNNERS, type Runner } from './runners.js';

const WANT = { alpha: 1, bravo: 2 };

describe.concurrent('errors moving downstream inside one check', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: syntax error -> failing test -> a different failing test -> pass${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      // bravo starts right; the fix for alpha breaks it (a different failing test).
      const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 0, bravo: 2 }, syntaxError: true }, limits: { max_iterations: 6, no_progress_repeats: 1 } });
      const trail = await s.play([
        () => {},
        (sc) => sc.edit({ code: { syntaxError: false } }),
        (sc) => sc.edit({ code: { values: { alpha: 1, bravo: 5 } } }),
        (sc) => sc.fix('bravo'),
      ]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
      expect(s.results[2]!.json.progress_reasons.join('; '), s.explain()).toContain(runner.unitName('alpha'));
    }, 90_000);
  }
});

describe.concurrent('syntax errors the runner reports one at a time', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: S1 -> S2 -> S3 fixed in turn, then the tests pass: each a different error, never stopped${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      // The values are right: only the syntax errors stand between the agent and a pass.
      const s = new Scenario(runner, { want: WANT, start: { values: WANT, syntaxError: 1 }, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([() => {}, (sc) => sc.edit({ code: { syntaxError: 2 } }), (sc) => sc.edit({ code: { syntaxError: 3 } }), (sc) => sc.edit({ code: { syntaxError: false } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
      const prints = s.results.slice(0, 3).map((r) => r.json.fingerprint as string);
      expect(new Set(prints).size, s.explain()).toBe(3);
      expect(prints.every((p) => /(?:Syntax|Indentation)Error/.test(p)), prints.join('\n')).toBe(true);
    }, 90_000);
  }
});

describe.concurrent('errors moving upstream: a syntax error after a fix', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: the tests that no longer ran are not "fixed"${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2, charlie: 3 }, limits: { max_iterations: 6 } });
      const trail = await s.play([() => {}, (sc) => sc.fix('alpha'), (sc) => sc.edit({ code: { syntaxError: true } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+']);
      expect(s.results[2]!.json.progress_reasons, s.explain()).toEqual(['code changed, a different error']);
    }, 90_000);
  }
});

describe.concurrent('the same error in several places, fixed one place at a time', () => {
  // One undefined name used by three functions: three identical diagnostics, one failing unit.
  for (const runner of [RUNNERS.tsc, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: each repair is progress, the last passes${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2, charlie: 3 }, start: { values: { alpha: 'missing', bravo: 'missing', charlie: 'missing' } }, limits: { max_iterations: 6 } });
      const trail = await s.play([() => {}, (sc) => sc.fix('bravo'), (sc) => sc.fix('charlie'), (sc) => sc.fix('alpha')]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
      expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toMatch(/the same errors in fewer places: .* 3 → 2/);
    }, 90_000);
  }
});

describe.concurrent('errors moving downstream across the checks of one task', () => {
  const both = (runner: Runner) => [runner.compile, runner.verify];
  for (const [runner, stopFirst] of [[RUNNERS.nodeTest, false], [RUNNERS.unittest, true]] as const) {
    {
      it.skipIf(runner.missing)(`${runner.id}: check 1 (compile) fixed, check 2 (tests) now runs and fails${stopFirst ? ', stop_on_first_failure' : ''}${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
        const s = new Scenario(runner, { want: WANT, start: { syntaxError: true }, checks: both(runner), limits: { max_iterations: 6, no_progress_repeats: 1 } });
        if (stopFirst) s.write('.planning/config.json', s.read('.planning/config.json').replace('"check_timeout_seconds"', '"stop_on_first_failure": true, "check_timeout_seconds"')), s.git('commit', '-qam', 'config');
        const trail = await s.play([() => {}, (sc) => sc.edit({ code: { syntaxError: false } }), (sc) => sc.fix('alpha'), (sc) => sc.fix('bravo')]);
        expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
        expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toMatch(/check fixed: /);
      }, 90_000);
    }
  }
});

describe.concurrent('stop_on_first_failure hides check 2', () => {
  // Check 1 (lint) fails while a TODO is left; check 2 (the tests) is not run. An agent that
  // works on check 2 instead makes no change the loop can see: check 1 fails as before, so the
  // fingerprint rule stops it at iteration 2 (written before running). The loop cannot credit
  // what it did not run; the answer shows check 2 as not run.
  const runner = RUNNERS.nodeTest;
  it(`${runner.id}: check 1 fails the same way while the agent fixes the hidden check 2: stopped at 2`, async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1 }, start: { comment: 'TODO: tidy this up' }, checks: ['node lint.cjs src/units.js', runner.verify], files: { 'lint.cjs': LINT_TODO }, config: { stop_on_first_failure: true }, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
    const trail = await s.play([() => {}, (sc) => sc.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect(s.results[1]!.json.checks.map((c: { skipped?: boolean }) => c.skipped ?? false)).toEqual([false, true]);
  }, 90_000);
});
