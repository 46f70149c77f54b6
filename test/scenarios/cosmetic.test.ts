/**
 * Cosmetic edits only (whitespace, a comment, renaming a local) with the same failure: every
 * tree is new, so only the fingerprint rule can see that nothing changed. Stopped with
 * `repeated_fingerprint` on the error_fingerprint_repeats-th identical failure, never passed,
 * never run out to max_iterations.
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { RUNNERS } from './runners.js';
import type { Code } from './runners.js';

const COSMETIC: Array<Partial<Code>> = [{ comment: 'tidy up' }, { spacing: 2 }, { local: 'value' }, { comment: 'reworded the comment' }, { spacing: 1, local: 'out' }];

describe.concurrent('cosmetic edits with the same failure', () => {
  for (const [runner, repeats] of [[RUNNERS.nodeTest, 2], [RUNNERS.nodeTest, 3], [RUNNERS.goTest, 3]] as const) {
    {
      it.skipIf(runner.missing)(`${runner.id}: error_fingerprint_repeats ${repeats}${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
        const s = new Scenario(runner, { want: { alpha: 1, bravo: 2 }, start: { values: { alpha: 0, bravo: 2 } }, limits: { max_iterations: 8, error_fingerprint_repeats: repeats, no_progress_repeats: 2 } });
        const trail = await s.play([() => {}, ...COSMETIC.map((c) => (sc: Scenario) => sc.edit({ code: c }))]);
        expect(trail, s.explain()).toEqual([...Array(repeats - 1).fill('retry+'), 'stop:repeated_fingerprint']);
      }, 90_000);
    }
  }
});
