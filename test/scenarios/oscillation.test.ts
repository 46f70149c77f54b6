/**
 * Oscillation (issue #12): an agent alternating between two states is stuck. Stopped by
 * `no_progress` at iteration no_progress_repeats + 2 at the latest (or earlier by the
 * fingerprint rule), never recommended `split_task`, never run out to max_iterations.
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { RUNNERS } from './runners.js';

const WANT = { alpha: 1, bravo: 2 };

describe.concurrent('oscillation', () => {
  for (const [runner, repeats] of [[RUNNERS.nodeTest, 2], [RUNNERS.goTest, 3]] as const) {
    {
      it.skipIf(runner.missing)(`${runner.id}: A,B,A,B,… between two wrong values, no_progress_repeats ${repeats}${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
        const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits: { max_iterations: 10, error_fingerprint_repeats: 3, no_progress_repeats: repeats } });
        const trail = await s.play(Array.from({ length: 8 }, (_, i) => (sc: Scenario) => sc.edit({ code: { values: { alpha: i % 2 === 0 ? 5 : 7 } } })));
        expect(trail.length, s.explain()).toBeLessThanOrEqual(repeats + 2);
        expect(trail.at(-1), s.explain()).toMatch(/^stop:(no_progress|repeated_fingerprint)$/);
        expect(s.results.at(-1)!.json.handoff.recommended_action).not.toBe('split_task');
      }, 90_000);
    }
  }

  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    if (runner === RUNNERS.nodeTest) it.skipIf(runner.missing)(`${runner.id}: fixing alpha breaks bravo and back (each "fixes" a test)${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits: { max_iterations: 10, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
      const trail = await s.play(Array.from({ length: 8 }, (_, i) => (sc: Scenario) => sc.edit({ code: { values: i % 2 === 0 ? { alpha: 1, bravo: 0 } : { alpha: 0, bravo: 2 } } })));
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry-', 'stop:no_progress']);
      expect(s.results.at(-1)!.json.handoff.recommended_action).toBe('manual_investigation');
    }, 90_000);

    it.skipIf(runner.missing)(`${runner.id}: A,B,A,B with a cosmetic change each time (every tree is new)${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits: { max_iterations: 10, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
      const trail = await s.play(Array.from({ length: 9 }, (_, i) => (sc: Scenario) => sc.edit({ code: { values: i % 2 === 0 ? { alpha: 1, bravo: 0 } : { alpha: 0, bravo: 2 }, comment: `attempt ${i + 1}` } })));
      expect(trail.length, s.explain()).toBeLessThanOrEqual(4);
      expect(trail.at(-1), s.explain()).toMatch(/^stop:(no_progress|repeated_fingerprint)$/);
      expect(s.results.at(-1)!.json.handoff.recommended_action).not.toBe('split_task');
    }, 90_000);
  }

  // Whack-a-mole over three tests: fixing alpha breaks bravo, fixing bravo breaks charlie,
  // fixing charlie breaks alpha, …, a new comment each time (every tree is new). Expected before
  // running: iterations 2 and 3 fix a test each (progress); 4 reports what 1 did and 5 what 2
  // did (no progress, improvements since, so no fingerprint count carried) → stop:no_progress at 5.
  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: whack-a-mole over three tests, a new tree each time: stopped by no_progress at 5${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const want = { alpha: 1, bravo: 2, charlie: 3 };
      const wrong = (u: string) => ({ ...want, [u]: 0 });
      const s = new Scenario(runner, { want, start: { values: wrong('alpha') }, limits: { max_iterations: 10, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const cycle = ['bravo', 'charlie', 'alpha'];
      const trail = await s.play([() => {}, ...Array.from({ length: 7 }, (_, i) => (sc: Scenario) => sc.edit({ code: { values: wrong(cycle[i % 3]!), comment: `attempt ${i + 1}` } }))]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry-', 'stop:no_progress']);
      expect(s.results.at(-1)!.json.handoff.recommended_action).toBe('manual_investigation');
    }, 90_000);
  }
});
