/**
 * Fix one of N failing tests at a time, in any order (issue #12): every repair is `retry`
 * with progress ("no longer failing: <the test>"), the last one is `pass`. The order matters
 * to a naive engine because the fingerprint names the failing test whose name sorts first.
 */
import { describe, it } from 'vitest';
import { reduce } from '../../src/engine/core/reducer.js';
import { check, ctx, freshLoop, verified } from '../engine/helpers.js';
import { NAMES, permutations, Scenario, wantFor } from './harness.js';
import { RUNNERS, type Runner } from './runners.js';

type Start = 'first' | 'middle' | 'last';

/** The repair order that starts with the first, the middle or the last unit by name. */
function orderFrom(n: number, start: Start): string[] {
  const names = NAMES.slice(0, n);
  if (start === 'first') return names;
  if (start === 'last') return [...names].reverse();
  const mid = Math.floor(n / 2);
  return [names[mid]!, ...names.slice(mid + 1), ...names.slice(0, mid).reverse()];
}

// Real runners: the first fix is the first, the middle or the last unit by name, N = 3..5,
// spread over the runners (each verify costs a real run: the suite stays small). Every order
// of N = 3..5 runs at the core, below, with the failing units the runners report. vitest fixes
// one of N with one file per test, run in parallel and shuffled (noise.test.ts).
const cases: Array<[Runner, number, Start]> = [
  [RUNNERS.nodeTest, 3, 'middle'],
  [RUNNERS.nodeTest, 5, 'last'],
  [RUNNERS.pytest, 3, 'middle'],
  [RUNNERS.unittest, 3, 'first'],
  [RUNNERS.goTest, 4, 'middle'],
];

describe.concurrent('fix one of N failing tests at a time (real runners)', () => {
  for (const [runner, n, start] of cases) {
    const order = orderFrom(n, start);
    it.skipIf(runner.missing)(`${runner.id}: N=${n}, ${start} by name first (${order.join(', ')})${runner.missing ? ` — skipped: ${runner.missing}` : ''}`, async ({ expect }) => {
      const s = new Scenario(runner, { want: wantFor(n), limits: { max_iterations: n + 2 } });
      const trail = await s.play([() => {}, ...order.map((u) => (sc: Scenario) => sc.fix(u))]);
      expect(trail, s.explain()).toEqual(['retry+', ...order.slice(1).map(() => 'retry+'), 'pass']);
      order.slice(0, -1).forEach((u, i) => {
        const reasons = s.results[i + 1]!.json.progress_reasons.join('; ');
        expect(reasons, s.explain()).toMatch(/no longer failing: /);
        expect(reasons, s.explain()).toContain(runner.unitName(u));
      });
    }, 90_000);
  }
});

describe('fix one of N failing tests at a time (core, every order of N = 3..5)', () => {
  it('every repair is retry with progress and the last is pass, with the tightest limits', ({ expect }) => {
    for (const n of [3, 4, 5]) {
      for (const order of permutations(NAMES.slice(0, n))) {
        const c = ctx({ max_iterations: n + 1, error_fingerprint_repeats: 2, no_progress_repeats: 1 });
        let state = freshLoop();
        const failing = new Set(NAMES.slice(0, n));
        const words: string[] = [];
        for (let i = 0; i <= n; i++) {
          if (i > 0) failing.delete(order[i - 1]!);
          const names = [...failing].sort();
          // As the runners report it: the fingerprint names the first failing test by name.
          const checks = names.length === 0 ? [check(0, { command: 'npm test' })] : [check(0, { command: 'npm test', fp: `${names[0]} | expected ${names[0]}`, tests: names })];
          const r = reduce(state, verified(checks, { t: i * 10, diff_hash: `tree-${i}`, tree: `tree-${i}` }), c);
          state = r.state;
          words.push(r.decision.verdict === 'retry' ? (r.decision.progress ? 'retry+' : 'retry-') : `${r.decision.verdict}${r.decision.stop_reason && r.decision.verdict === 'stop' ? `:${r.decision.stop_reason}` : ''}`);
        }
        expect(words, `N=${n} ${order.join(',')}`).toEqual([...Array(n).fill('retry+'), 'pass']);
      }
    }
  });
});
