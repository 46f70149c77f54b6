/**
 * The engine as `ralf run` uses it: the same in-process API `ralf task verify` is built on
 * (verify, start, record events), with the engine's collaborators adjusted for the run
 * target: a seed format's plans (PRD, ralph.json, ...) are served from memory instead of
 * parsed from a PLAN.md, its limits (ralph.json `max_iterations`) override the config, and
 * its project root stands in when there is no `.planning/` directory.
 */
import { resolve } from 'node:path';
import { defaultDeps, type EffectiveConfigLike, type EngineDeps, type PlanningDeps } from '../engine/deps.js';
import { recordLoopEvent } from '../engine/record-event.js';
import { startTask } from '../engine/start-task.js';
import { verifyPlan, verifyTask } from '../engine/verify-task.js';
import type { Plan } from '../plan/model.js';
import type { EngineApi } from './driver.js';

export interface EngineOverrides {
  /** Plans to serve from memory (seed formats); GSD plans are read from disk as usual. */
  plans?: Plan[];
  projectRoot?: string;
  maxIterations?: number;
}

export async function engineApi(overrides: EngineOverrides = {}): Promise<EngineApi & { effective(cwd: string, env?: NodeJS.ProcessEnv): Promise<EffectiveConfigLike> }> {
  const base = await defaultDeps();
  const byPath = new Map((overrides.plans ?? []).map((p) => [resolve(p.path), p]));
  const adjust = (e: EffectiveConfigLike): EffectiveConfigLike => {
    let out = e;
    if (overrides.maxIterations !== undefined) out = { ...out, config: { ...out.config, max_iterations: overrides.maxIterations }, sources: { ...out.sources, max_iterations: 'run target' } };
    if (out.project_root === null && overrides.projectRoot) out = { ...out, project_root: overrides.projectRoot };
    return out;
  };
  let planning: Promise<PlanningDeps> | null = null;
  const deps: EngineDeps = {
    ...base,
    // A plan served from memory must not come from (or go into) the engine's plan cache.
    planCache: byPath.size === 0 && overrides.maxIterations === undefined ? base.planCache : false,
    planning: () =>
      (planning ??= base.planning().then((real) => ({
        ...real,
        loadConfig: (o) => adjust(real.loadConfig(o)),
        readPlan: (path, effective) => byPath.get(resolve(path)) ?? real.readPlan(path, effective),
      }))),
  };
  return {
    deps,
    startTask: (o) => startTask(o),
    verifyTask: (o) => verifyTask(o),
    verifyPlan: (o) => verifyPlan(o),
    recordLoopEvent: (o) => recordLoopEvent(o),
    effective: async (cwd, env) => adjust((await deps.planning()).loadConfig({ cwd, env })),
  };
}
