/**
 * The I/O for `ralf status <PLAN>`'s per-task view: the parsed plan (through the plan cache),
 * the commits of its tasks and `ralf run`'s memory, joined by the pure `planStatus`.
 */
import { itemKey } from '../../formats/item-identity.js';
import { findTaskCommits } from '../../git/task-commits.js';
import { readRunMemory } from '../../run/run-state.js';
import { loadPlanTarget, type ConfigOptions } from './context.js';
import { defaultDeps } from './deps.js';
import { planStatus, type PlanStatus } from '../core/task-status.js';
import { taskKeys } from '../core/task-identity.js';
import type { PlanState } from '../core/types.js';

export async function readPlanStatus(planPath: string, state: PlanState | null, options: ConfigOptions): Promise<PlanStatus> {
  const deps = await defaultDeps();
  const loaded = await loadPlanTarget(deps, planPath, options);
  const keys = taskKeys(loaded.plan.tasks);
  const tasks = loaded.plan.tasks.map((t) => ({ number: t.number, name: t.name, key: keys.get(t.number)!, type: t.type, decision: t.decision, memory_key: itemKey(t) }));
  const commits = deps.git.insideGit(loaded.projectRoot) ? await findTaskCommits(loaded.projectRoot, loaded.planId, loaded.plan.tasks) : new Map<number, string>();
  return planStatus({ tasks, state, commits, memory: readRunMemory(loaded.projectRoot, loaded.planId), planDecision: loaded.plan.plan_decision });
}
