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
});
