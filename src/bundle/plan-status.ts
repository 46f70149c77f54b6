/**
 * Loads `ralf status <PLAN>`'s per-task view (plan parsing, commits, ralf run's memory) on
 * demand: a separate bundle (dist/lib/plan-status.js, scripts/build.mjs), so `ralf status`
 * without a plan keeps the small bundle that starts about as fast as node itself.
 */
import { isBundled, requireBundle } from './require-bundle.js';

export type PlanStatusModule = typeof import('../engine/shell/read-plan-status.js');

export function loadPlanStatusModule(): Promise<PlanStatusModule> {
  if (isBundled) return Promise.resolve(requireBundle('lib', 'plan-status') as PlanStatusModule);
  // Computed: the bundler must not inline it into the status bundle.
  return import(['..', 'engine', 'shell', 'read-plan-status.js'].join('/')) as Promise<PlanStatusModule>;
}
