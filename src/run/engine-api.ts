/**
 * The engine as `ralf run` uses it: the same in-process API `ralf task verify` is built on
 * (verify, start, reset, record events), with the engine's collaborators adjusted for the run
 * target: a seed format's plans (PRD, ralph.json, ...) are served from memory instead of
 * parsed from a PLAN.md, the target's own limits (ralph.json `max_iterations`, persistence.yaml)
 * apply where the project config is silent, the run's overrides (RALPH_MAX_ITERATIONS) win,
 * and its project root stands in when there is no `.planning/` directory.
 */
import { resolve, sep } from 'node:path';
import type { RalfLiteConfig } from '../config/schema.js';
import { defaultDeps, type EffectiveConfigLike, type EngineDeps, type PlanningDeps } from '../engine/shell/deps.js';
import { recordLoopEvent } from '../engine/shell/record-event.js';
import { resetTask } from '../engine/shell/reset-task.js';
import { startTask } from '../engine/shell/start-task.js';
import { verifyPlan, verifyTask } from '../engine/shell/verify-task.js';
import type { Plan } from '../plan/model.js';
import type { EngineApi } from './driver.js';

/** The loop limits a run target or the run's own flags may set. */
export type LoopLimits = Partial<Pick<RalfLiteConfig, 'max_iterations' | 'error_fingerprint_repeats' | 'no_progress_repeats' | 'time_budget_seconds'>>;

export interface EngineOverrides {
  /** Plans to serve from memory (seed formats); GSD plans are read from disk as usual. */
  plans?: Plan[];
  projectRoot?: string;
  /** The target's own limits: they hold unless the project's config sets the key. */
  targetLimits?: LoopLimits;
  /** Where targetLimits come from, for `ralf status` / the report (`ralph.json`, `persistence.yaml`). */
  targetLabel?: string;
  /** This run's limits (environment such as RALPH_MAX_ITERATIONS): they win over every config layer. */
  runLimits?: LoopLimits;
  runLabel?: string;
}

/** Applies target and run limits to the effective config (pure). */
export function applyLoopLimits(e: EffectiveConfigLike, o: EngineOverrides): EffectiveConfigLike {
  const root = o.projectRoot ?? e.project_root;
  const fromProject = (key: string) => {
    const source = e.sources[key];
    return source !== undefined && source !== 'default' && root !== null && root !== undefined && resolve(source).startsWith(resolve(root) + sep);
  };
  let config = e.config;
  let sources = e.sources;
  for (const [key, value] of Object.entries(o.targetLimits ?? {})) {
    if (value === undefined || fromProject(key)) continue;
    config = { ...config, [key]: value };
    sources = { ...sources, [key]: o.targetLabel ?? 'run target' };
  }
  for (const [key, value] of Object.entries(o.runLimits ?? {})) {
    if (value === undefined) continue;
    config = { ...config, [key]: value };
    sources = { ...sources, [key]: o.runLabel ?? 'run' };
  }
  return config === e.config ? e : { ...e, config, sources };
}

export async function engineApi(overrides: EngineOverrides = {}): Promise<EngineApi & { effective(cwd: string, env?: NodeJS.ProcessEnv): Promise<EffectiveConfigLike> }> {
  const base = await defaultDeps();
  const byPath = new Map((overrides.plans ?? []).map((p) => [resolve(p.path), p]));
  const adjusted = Object.keys(overrides.targetLimits ?? {}).length > 0 || Object.keys(overrides.runLimits ?? {}).length > 0;
  const adjust = (e: EffectiveConfigLike): EffectiveConfigLike => {
    let out = applyLoopLimits(e, overrides);
    if (out.project_root === null && overrides.projectRoot) out = { ...out, project_root: overrides.projectRoot };
    return out;
  };
  let planning: Promise<PlanningDeps> | null = null;
  const deps: EngineDeps = {
    ...base,
    // A plan served from memory (or limits the plan file does not hold) must not come from (or go into) the plan cache.
    planCache: byPath.size === 0 && !adjusted ? base.planCache : false,
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
    resetTask: (o) => resetTask({ planPath: o.planPath, which: o.taskNumber, deps: o.deps, cwd: o.cwd, env: o.env }).then(() => undefined),
    recordLoopEvent: (o) => recordLoopEvent(o),
    effective: async (cwd, env) => adjust((await deps.planning()).loadConfig({ cwd, env })),
  };
}
