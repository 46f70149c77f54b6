/**
 * Loads `ralf task approve` / `ralf task defer` on demand: a separate bundle
 * (dist/lib/human-decisions.js, scripts/build.mjs), so the `task` bundle every verify parses
 * does not carry their git restore and ref code.
 */
import { isBundled, requireBundle } from './require-bundle.js';

export type HumanDecisionsModule = typeof import('../engine/shell/human-decisions.js');

export function loadHumanDecisions(): Promise<HumanDecisionsModule> {
  if (isBundled) return Promise.resolve(requireBundle('lib', 'human-decisions') as HumanDecisionsModule);
  // Computed: the bundler must not inline it into the task bundle.
  return import(['..', 'engine', 'shell', 'human-decisions.js'].join('/')) as Promise<HumanDecisionsModule>;
}
