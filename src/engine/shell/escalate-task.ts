/** `ralf task escalate <PLAN> <N> --rule 4 --reason ...`: stop the loop for a human decision. */
import { ExitCode } from '../../exit-codes.js';
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { applyEvent } from './apply-event.js';
import { taskKeyOf } from '../core/task-identity.js';
import { findTask, loadPlanTarget, loopContext, notLoopedOf, withoutDeferred, type ConfigOptions } from './context.js';
import { readPlanStateFile } from './store.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import type { Escalation } from '../core/types.js';

export interface EscalateOptions extends ConfigOptions {
  planPath: string;
  /** null: the plan-level loop. */
  taskNumber: number | null;
  rule: 4;
  reason: string;
  details?: Pick<Escalation, 'proposed_change' | 'why_needed' | 'impact' | 'alternatives'> | undefined;
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
}

/** Always stops the loop with `rule4_architectural` (Rule 4 is never bypassed); exit 20. */
export async function escalateTask(options: EscalateOptions): Promise<ActionOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const loaded = await loadPlanTarget(deps, options.planPath, options);
  const task = options.taskNumber === null ? null : findTask(loaded.plan, options.taskNumber, options.planPath);
  const now = (options.now ? options.now() : new Date()).toISOString();
  const escalation: Escalation = { rule: 4, reason: options.reason, source: 'agent' };
  for (const [k, v] of Object.entries(options.details ?? {})) if (typeof v === 'string' && v.trim() !== '') (escalation as unknown as Record<string, string>)[k] = v;
  const r = applyEvent({
    target: loaded,
    scope: task ? 'task' : 'plan',
    taskNumber: task?.number ?? null,
    taskKey: task ? taskKeyOf(loaded.plan.tasks, task.number) : undefined,
    taskName: task?.name ?? (loaded.plan.objective?.split('\n').find((l: string) => l.trim())?.trim() ?? `Plan ${loaded.planId}`),
    event: { type: 'escalated', now, escalation },
    ctx: withoutDeferred(loopContext(loaded, loaded.effective, loaded.plan, task?.number ?? null), readPlanStateFile(loaded.paths.state), task?.number ?? null),
    config: { config: loaded.effective.config, sources: loaded.effective.sources },
    notLooped: notLoopedOf(loaded.plan),
    taskCount: loaded.plan.tasks.length,
    action: 'escalate',
    detail: `rule 4: ${options.reason}`,
    lockWaitMs: options.lockWaitMs,
  });
  return actionOutcome('escalate', loaded, r, ExitCode.stop);
}
