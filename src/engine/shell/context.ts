/**
 * Resolving a PLAN.md into everything the loop needs: project root, plan id, config,
 * the parsed plan and the loop's limits. Shared by verify, escalate, reset and start.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { RalfError } from '../../errors.js';
import { shellWord } from '../core/commands.js';
import { commandInvocation, commandInvocationIn } from './invocation.js';
import type { Plan, PlanTask } from '../../plan/model.js';
import type { EffectiveConfigLike, EngineDeps } from './deps.js';
import type { LoopContext, LoopLimits } from '../core/events.js';
import { planIdFromPath, projectRelative, projectRootForPlan, statePaths, type StatePaths } from './paths.js';
import { readPlanCache, writePlanCache } from './plan-cache.js';
import { stateIdFor } from './store.js';
import { recoverDeletedStates } from './state-copy.js';
import type { NotLoopedTask, PlanState } from '../core/types.js';

export interface ConfigOptions {
  /** Where to look for the project when the PLAN.md is outside one (default: process.cwd()). */
  cwd?: string | undefined;
  host?: string | undefined;
  configDir?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export interface PlanTarget {
  planPath: string;
  /** The plan path relative to the project root (how state and hints show it). */
  planRel: string;
  planId: string;
  /** What the state files are named by (`stateIdFor`): the plan id, or it plus a hash of the plan path. */
  stateId: string;
  projectRoot: string;
  paths: StatePaths;
  /** State files that were gone and were put back from ralf's copy in the git dir (state-copy.ts). */
  recovered_state?: string[];
}

/** Project root and plan id from the path alone (no config, no parsing). */
export function resolveTarget(planPathArg: string, fallbackRoot?: string | null): PlanTarget {
  const planPath = resolve(planPathArg);
  if (!existsSync(planPath)) {
    throw new RalfError('plan_not_found', `${planPathArg}: no such file`, { problems: [{ file: planPathArg, message: 'no such file', hint: 'Pass the path of a PLAN.md, e.g. .planning/phases/01-setup/01-01-PLAN.md' }] });
  }
  const projectRoot = projectRootForPlan(planPath) ?? fallbackRoot ?? null;
  if (!projectRoot) {
    throw new RalfError('no_project', `${planPathArg}: no .planning/ directory above the plan`, {
      problems: [{ file: planPathArg, message: 'the loop keeps its state in <project>/.planning/ralf/, but no .planning/ directory was found above the plan', hint: 'Run inside a GSD project (a directory with .planning/), or create .planning/ at the project root.' }],
    });
  }
  const planId = planIdFromPath(planPath);
  const planRel = projectRelative(projectRoot, planPath);
  // State files an agent deleted (git clean -fdx, rm -rf .planning/ralf) come back from ralf's copy first.
  const recovered = recoverDeletedStates(projectRoot);
  const stateId = stateIdFor(projectRoot, planRel, planId);
  return { planPath, planRel, planId, stateId, projectRoot, paths: statePaths(projectRoot, stateId), ...(recovered.length > 0 ? { recovered_state: recovered } : {}) };
}

export interface LoadedTarget extends PlanTarget {
  effective: EffectiveConfigLike;
  /** Seconds before a check is killed when `check_timeout_seconds` is unset. */
  checkTimeoutSeconds: number;
}

export interface LoadedPlan extends LoadedTarget {
  plan: Plan;
}

/** Config only (reset, run events): no plan parsing. */
export async function loadConfigTarget(deps: EngineDeps, planPathArg: string, options: ConfigOptions): Promise<LoadedTarget> {
  const planning = await deps.planning();
  const abs = resolve(planPathArg);
  // The plan's own project decides the config (its .planning/config.json), not the caller's cwd.
  const nearRoot = existsSync(abs) ? projectRootForPlan(abs) : null;
  const effective = planning.loadConfig({ cwd: nearRoot ?? options.cwd ?? dirname(abs), host: options.host, configDir: options.configDir, env: options.env });
  return { ...resolveTarget(planPathArg, effective.project_root), effective, checkTimeoutSeconds: planning.checkTimeoutSeconds };
}

/** Config + parsed plan, from the plan cache when nothing it depends on changed. */
export async function loadPlanTarget(deps: EngineDeps, planPathArg: string, options: ConfigOptions): Promise<LoadedPlan> {
  const abs = resolve(planPathArg);
  const nearRoot = existsSync(abs) ? projectRootForPlan(abs) : null;
  const useCache = nearRoot !== null && deps.planCache !== false;
  const inputs = { host: options.host, configDir: options.configDir, env: options.env };
  if (useCache) {
    const hit = readPlanCache(nearRoot, planIdFromPath(abs), abs, inputs);
    if (hit) return { ...resolveTarget(planPathArg, nearRoot), ...hit };
  }
  const started = Date.now();
  const target = await loadConfigTarget(deps, planPathArg, options);
  const plan = (await deps.planning()).readPlan(target.planPath, target.effective);
  if (useCache && target.projectRoot === nearRoot) {
    writePlanCache(nearRoot, target.planId, { effective: target.effective, plan, checkTimeoutSeconds: target.checkTimeoutSeconds }, target.effective.files?.map((f) => f.path), inputs, started);
  }
  return { ...target, plan };
}

export function limitsOf(effective: EffectiveConfigLike): LoopLimits {
  const c = effective.config;
  return {
    max_iterations: c.max_iterations,
    error_fingerprint_repeats: c.error_fingerprint_repeats,
    no_progress_repeats: c.no_progress_repeats,
    time_budget_seconds: c.time_budget_seconds,
  };
}

/** GSD executes tasks in order, so tasks before N count as complete for `**Progress:**`. */
export function loopContext(target: PlanTarget, effective: EffectiveConfigLike, plan: Plan | null, taskNumber: number | null): LoopContext {
  const total = plan?.tasks.length ?? null;
  return {
    limits: limitsOf(effective),
    invocation: commandInvocationIn(target.projectRoot),
    plan_id: target.planId,
    plan_path: target.planRel,
    plan_progress: total === null ? null : { completed: taskNumber === null ? total : Math.max(0, taskNumber - 1), total },
  };
}

/** `**Progress:**` does not count deferred tasks as complete (their loops are in the state). */
export function withoutDeferred(ctx: LoopContext, state: PlanState | null, taskNumber: number | null): LoopContext {
  const p = ctx.plan_progress;
  if (!p || !state) return ctx;
  const deferred = Object.values(state.tasks).filter((l) => l.deferred && l.task_number !== null && (taskNumber === null || l.task_number < taskNumber)).length;
  return deferred === 0 ? ctx : { ...ctx, plan_progress: { completed: Math.max(0, p.completed - deferred), total: p.total } };
}

export function findTask(plan: Plan, n: number, planPathArg: string): PlanTask {
  const task = plan.tasks.find((t) => t.number === n);
  if (task) return task;
  const range = plan.tasks.length === 0 ? 'the plan has no tasks' : `the plan has tasks 1..${plan.tasks.length}`;
  throw new RalfError('task_not_found', `${planPathArg}: no task ${n} (${range})`, { problems: [{ file: planPathArg, message: `no task ${n}`, hint: `${range}; run \`${commandInvocation()} plan ${shellWord(planPathArg)}\` to list them.` }] });
}

export function notLoopedOf(plan: Plan): NotLoopedTask[] {
  return plan.tasks
    .filter((t) => t.decision !== 'loop')
    .map((t) => ({ number: t.number, name: t.name, type: t.type, decision: t.decision as 'skip' | 'refuse', reason: t.reason }));
}
