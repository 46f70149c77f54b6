/**
 * Idle and lying agents: an agent that changes nothing, or claims it is done while changing
 * nothing that matters (an unrelated file), is stopped and never passes.
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { RUNNERS } from './runners.js';

const WANT = { alpha: 1, bravo: 2 };

describe.concurrent('idle and lying agents', () => {
  for (const runner of [RUNNERS.nodeTest, RUNNERS.goTest]) {
    it.skipIf(runner.missing)(`${runner.id}: idle (no edits), default limits: stopped at iteration 2${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits: { max_iterations: 3, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
      const trail = await s.play(Array.from({ length: 5 }, () => () => {}));
      expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    }, 90_000);
  }

  for (const runner of [RUNNERS.nodeTest, RUNNERS.unittest]) {
    it.skipIf(runner.missing)(`${runner.id}: idle with a lenient fingerprint rule: no_progress stops it${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits: { max_iterations: 8, error_fingerprint_repeats: 6, no_progress_repeats: 2 } });
      const trail = await s.play(Array.from({ length: 8 }, () => () => {}));
      expect(trail, s.explain()).toEqual(['retry+', 'retry-', 'stop:no_progress']);
    }, 90_000);

    it.skipIf(runner.missing)(`${runner.id}: liar editing an unrelated file each time: stopped by the fingerprint rule${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: WANT, limits: { max_iterations: 8, error_fingerprint_repeats: 3, no_progress_repeats: 2 } });
      const trail = await s.play(Array.from({ length: 8 }, (_, i) => (sc: Scenario) => sc.write('NOTES.md', `Done! All tests pass now (take ${i + 1}).\n`)));
      expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'stop:repeated_fingerprint']);
    }, 90_000);
  }
});
