/**
 * The plan's checks where a loop started (core/checks-at-start.ts says why they are the ones
 * that run). Needed once per loop, at its first verify, when no `ralf task start` recorded
 * them: the start point is then HEAD (or an older state's start tree), and the plan there may
 * differ from the working copy an agent has been editing.
 */
import { readFileSync } from 'node:fs';
import type { Check } from '../../plan/model.js';
import { taskKeyOf } from '../core/task-identity.js';
import type { EngineDeps } from './deps.js';
import type { LoadedPlan } from './context.js';

export interface ChecksScope {
  scope: 'task' | 'plan';
  taskNumber: number | null;
  key?: string;
  checks: Check[];
}

/**
 * The scope's checks as the plan at tree-ish `ref` states them. The plan's current checks when
 * `ref` does not hold the plan file (it is newer than the start), holds the same bytes, or
 * its version there cannot be read or parsed, or has no task of that identity (a new task).
 */
export async function checksInPlanAt(deps: EngineDeps, loaded: LoadedPlan, scope: ChecksScope, ref: string): Promise<Check[]> {
  const then = deps.git.fileAt ? await deps.git.fileAt(loaded.projectRoot, ref, loaded.planPath) : null;
  if (then === null) return scope.checks;
  let now: Buffer;
  try {
    now = readFileSync(loaded.planPath);
  } catch {
    return scope.checks;
  }
  if (then.equals(now)) return scope.checks;
  try {
    const plan = (await deps.planning()).planFromText(then.toString('utf8'), loaded.planPath, loaded.effective);
    if (scope.scope === 'plan') return plan.plan_checks;
    // The same task by identity (task-identity.ts), never by position: a task inserted above
    // takes the number of one that was there, and is new (its checks are the plan's).
    const task = plan.tasks.find((t) => taskKeyOf(plan.tasks, t.number) === scope.key);
    return task ? task.checks : scope.checks;
  } catch {
    return scope.checks;
  }
}
