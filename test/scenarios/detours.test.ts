/**
 * Detours that end where they started. An agent that keeps coming back to the same failing
 * test with a fresh syntax error between each try (A, S1, A, S2, A, …), or that throws its
 * work away and returns to the start tree, is not getting past the failure: each return is the
 * same failure again, and the detour between neither resets the repeated-fingerprint count nor
 * adds to it. Written before running:
 *
 * - A, S1, A′, S2, A″ (A′, A″: the same failure on a new tree, a comment changed), max 8:
 *   error_fingerprint_repeats 2 → stop:repeated_fingerprint at iteration 3 (was max_iterations
 *   at 8); with 3 → at iteration 5.
 * - two wrong attempts, then `git checkout` back to the start tree, then idle: the revert is
 *   no progress (the start tree), the idle verify the same failure again → stopped at 4.
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { RUNNERS } from './runners.js';

const WANT = { alpha: 1, bravo: 2 };
const missing = (id: string, why: string | null) => (why ? `${id} — skipped: ${why}` : id);

describe.concurrent('the same failure with a fresh syntax error between each try', () => {
  for (const [runner, repeats, expected] of [
    [RUNNERS.nodeTest, 2, ['retry+', 'retry+', 'stop:repeated_fingerprint']],
    [RUNNERS.unittest, 3, ['retry+', 'retry+', 'retry-', 'retry+', 'stop:repeated_fingerprint']],
  ] as const) {
    it.skipIf(runner.missing)(missing(`${runner.id}: A, S1, A′, S2, A″, … with error_fingerprint_repeats ${repeats}`, runner.missing), async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits: { max_iterations: 8, error_fingerprint_repeats: repeats, no_progress_repeats: 2 } });
      // Odd steps break the syntax (a different error each time), even steps are back at A with a new comment.
      const trail = await s.play(Array.from({ length: 8 }, (_, i) => (sc: Scenario) => sc.edit({ code: i % 2 === 1 ? { syntaxError: (i + 1) / 2 } : { syntaxError: false, comment: `try ${i / 2 + 1}` } })));
      expect(trail, s.explain()).toEqual(expected);
      expect(s.results.at(-1)!.json.handoff.recommended_action, s.explain()).toBe('manual_investigation');
    }, 90_000);
  }
});

describe.concurrent('an agent that reverts to the start tree', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(missing(`${runner.id}: two wrong values, git checkout, idle: stopped at iteration 4`, runner.missing), async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, start: { values: { alpha: 0, bravo: 2 } }, limits: { max_iterations: 8, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play([
        (sc) => sc.edit({ code: { values: { alpha: 5 } } }),
        (sc) => sc.edit({ code: { values: { alpha: 7 } } }),
        (sc) => {
          sc.git('checkout', '--', '.');
          sc.edit({ code: { values: { alpha: 0 } } });
        },
        () => {},
      ]);
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry-', 'stop:repeated_fingerprint']);
      expect(s.results[2]!.json.progress_reasons, s.explain()).toEqual(['no progress: back to the tree the loop started from']);
    }, 90_000);
  }
});
