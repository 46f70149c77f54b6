/**
 * Config loading and plan parsing (cosmiconfig, zod, YAML): the part of a verify that a
 * plan-cache hit skips. The built CLI bundles it separately (dist/lib/planning.js) so the
 * common case never loads or deserializes it.
 */
import { loadConfig } from '../../config/load.js';
import { RUNTIME_DEFAULTS } from '../../config/schema.js';
import { planFromText, projectCommands, readPlan } from '../../plan/index.js';
import type { PlanningDeps } from './deps.js';

export function createPlanningDeps(): PlanningDeps {
  return {
    loadConfig: (o) => loadConfig(o),
    readPlan: (path, effective) => readPlan(path, { config: effective.config, projectCommands: projectCommands(effective.config, effective.project_config ?? null) }),
    planFromText: (text, path, effective) => planFromText(text, path, { config: effective.config, projectCommands: projectCommands(effective.config, effective.project_config ?? null) }),
    checkTimeoutSeconds: RUNTIME_DEFAULTS.check_timeout_seconds,
  };
}
