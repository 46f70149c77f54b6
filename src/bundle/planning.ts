/**
 * Loads the planning module (config loading + plan parsing: cosmiconfig, zod, YAML) on demand.
 * The one place that knows how the built CLI packs it: a separate bundle (dist/lib/planning.js,
 * scripts/build.mjs) so a `task verify` with a warm plan cache never parses it. The engine
 * only asks for the module.
 */
import { isBundled, requireBundle } from './require-bundle.js';

export type PlanningModule = typeof import('../engine/shell/planning-deps.js');

export function loadPlanningModule(): Promise<PlanningModule> {
  if (isBundled) return Promise.resolve(requireBundle('lib', 'planning') as PlanningModule);
  // Computed: the bundler must not inline it into the command bundles.
  return import(['..', 'engine', 'shell', 'planning-deps.js'].join('/')) as Promise<PlanningModule>;
}
