/**
 * A check that times out. A test that hangs is ended at `check_timeout_seconds` and its
 * fingerprint starts with `timed out:`. Written before running:
 *
 * - the same hang every iteration (cosmetic edits): the same timed-out fingerprint →
 *   stop:repeated_fingerprint at iteration 2, never max_iterations;
 * - the hang fixed, a wrong value left, then fixed: progress at each step → pass at 3.
 */
import { describe, it } from 'vitest';
import { Scenario } from './harness.js';
import { RUNNERS } from './runners.js';

const runner = RUNNERS.nodeTest;
// alpha never returns (it sleeps, so the hang costs no CPU): the run hangs until the check's timeout ends it.
const HANG = '(() => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 0; })()';
// Long enough for node --test to print the hanging file's header even on a loaded 2-core machine: with 1 s,
// a slow start sometimes ended the run at `TAP version 13`, a different (shorter) output than the last one.
const config = { check_timeout_seconds: 3 };

describe.concurrent('a check that times out', () => {
  it('node:test: the same hang every iteration, cosmetic edits: stopped at iteration 2', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1 }, start: { values: { alpha: HANG } }, config, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 } });
    const trail = await s.play([() => {}, (sc) => sc.edit({ code: { comment: 'tidy' } }), (sc) => sc.edit({ code: { spacing: 2 } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect(s.results[0]!.json.fingerprint, s.explain()).toMatch(/^timed out: /);
    expect(s.results[0]!.json.checks[0].timed_out).toBe(true);
  }, 90_000);

  it('node:test: the hang fixed, then a wrong value, then right: progress, pass at 3', async ({ expect }) => {
    const s = new Scenario(runner, { want: { alpha: 1 }, start: { values: { alpha: HANG } }, config, limits: { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 1 } });
    const trail = await s.play([() => {}, (sc) => sc.edit({ code: { values: { alpha: 5 } } }), (sc) => sc.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
  }, 90_000);
});
