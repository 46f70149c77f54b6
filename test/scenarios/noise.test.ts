/**
 * What changed and what is noise. A fix that moves the value closer changes the error: never
 * read as "the same error". Output that differs only by timestamps, pids, durations, the order
 * tests ran in or the worker that ran them is the same error: never read as progress.
 */
import { describe, it } from 'vitest';
import { LINT_TODO, Scenario } from './harness.js';
import { RUNNERS } from './runners.js';

describe.concurrent('a new, different error in the same test', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: the value moves closer (3, 7, 9, 10) with error_fingerprint_repeats 2${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 10 }, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([3, 7, 9, 10].map((v) => (sc: Scenario) => sc.edit({ code: { values: { alpha: v } } })));
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    }, 90_000);
  }
});

describe.concurrent('a new, different error in the second check while the first fails the same way', () => {
  // Check 1 is a lint script that fails while a TODO is left in the source; check 2 the tests.
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: the value moves closer in check 2 (3, 7, 9, 10), then check 1 is fixed${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const source = Object.keys(runner.source({ values: {} }))[0]!;
      const s = new Scenario(runner, { want: { alpha: 10 }, start: { comment: 'TODO: tidy this up' }, checks: [`node lint.cjs ${source}`, runner.verify], files: { 'lint.cjs': LINT_TODO }, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([...[3, 7, 9, 10].map((v) => (sc: Scenario) => sc.edit({ code: { values: { alpha: v } } })), (sc) => sc.edit({ code: { comment: 'tidied' } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'pass']);
    }, 90_000);
  }
});

describe.concurrent('noise in the output', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: timestamps, pids and durations in the failure message, cosmetic edits: the same error${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, suite: { noisy: true }, limits: { max_iterations: 8, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([() => {}, (sc) => sc.edit({ code: { comment: 'tidy' } }), (sc) => sc.edit({ code: { local: 'value' } }), (sc) => sc.edit({ code: { spacing: 2 } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    }, 90_000);
  }

  for (const runner of [RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: timestamps in the output, one unit fixed at a time: progress${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2, charlie: 3 }, suite: { noisy: true }, limits: { max_iterations: 6 } });
      const trail = await s.play([() => {}, (sc) => sc.fix('charlie'), (sc) => sc.fix('alpha'), (sc) => sc.fix('bravo')]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    }, 90_000);
  }
});

describe.concurrent('the clock as epoch seconds in the failure message', () => {
  // `time.time()` / `Date.now() / 1000` print seconds with a fraction (1764000000.5299013): the
  // fingerprint normalises the whole number, fraction included; when it kept the fraction, every
  // run read as a new error and an agent making cosmetic edits was stopped only by max_iterations.
  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    (runner.missing ? it.skip : it)(`${runner.id}: cosmetic edits with the same failure are the same error${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1 }, suite: { noisy: 'epoch' }, limits: { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([() => {}, (sc) => sc.edit({ code: { comment: 'tidy' } }), (sc) => sc.edit({ code: { local: 'value' } }), (sc) => sc.edit({ code: { spacing: 2 } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    }, 90_000);
  }
});

describe.concurrent('tests in random order and parallel workers', () => {
  // One file per test, run in parallel workers and shuffled: the failures print in another order
  // each run. Each fix is progress (charlie, then alpha); then cosmetic edits repeat the same
  // error (error_fingerprint_repeats 3: two repeats in shuffled output) and stop.
  for (const runner of [RUNNERS.vitest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: one file per test, shuffled/parallel: each fix is progress, cosmetic edits are the same error${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: { alpha: 1, bravo: 2, charlie: 3, delta: 4 }, suite: { filePerUnit: true, shuffle: true }, limits: { max_iterations: 8, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
      const trail = await s.play([() => {}, (sc) => sc.fix('charlie'), (sc) => sc.fix('alpha'), (sc) => sc.edit({ code: { comment: 'tidy' } }), (sc) => sc.edit({ code: { local: 'value' } })]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
      expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toContain(runner.unitName('charlie'));
      expect(s.results[2]!.json.progress_reasons.join('; '), s.explain()).toContain(runner.unitName('alpha'));
    }, 90_000);
  }
});
