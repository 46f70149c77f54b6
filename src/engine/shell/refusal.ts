import { RalfError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import type { PlanTask } from '../../plan/model.js';
import { recordNotLooped } from './apply-event.js';
import { notLoopedOf, type LoadedPlan } from './context.js';
import { taskTitle } from '../core/label.js';

/** Why a task the plan model would loop is refused anyway. */
export const LOOP_DISABLED = 'the loop is disabled (ralf_lite.enabled is false)';

/** The error for a task (or plan) the loop must not wrap: exit 2 with the plan model's reason. */
export function refusal(decision: 'skip' | 'refuse', what: string, reason: string, type: string | null, logWarning: string | null = null): RalfError {
  const checkpoint = type?.startsWith('checkpoint') ?? false;
  const hint =
    decision === 'skip'
      ? 'Execute it normally without the loop (run its verify step yourself, then continue).'
      : checkpoint
        ? 'Stop and return a GSD checkpoint (## CHECKPOINT REACHED) so the human can act; never verify or auto-approve it through the loop.'
        : 'Stop and ask the human how to proceed.';
  return new RalfError(decision === 'skip' ? 'task_skipped' : 'task_refused', `${what} is ${decision === 'skip' ? 'not looped (execute it normally)' : 'refused by the loop'}`, {
    exitCode: ExitCode.badInput,
    problems: [{ message: reason, hint }, ...(logWarning ? [{ message: `warning: ${logWarning}` }] : [])],
  });
}

/**
 * For `task start` and `task verify`: a task the loop must not wrap (checkpoint, not
 * verifiable, TDD by default), or any task while the loop is disabled, is recorded under
 * `not_looped` (while disabled: every task, as skipped) and refused with exit 2.
 */
export function refuseUnlessLooped(loaded: LoadedPlan, task: PlanTask, now: string, lockWaitMs: number | undefined): void {
  const enabled = loaded.effective.config.enabled;
  if (task.decision === 'loop' && enabled) return;
  const reason = task.decision === 'loop' ? LOOP_DISABLED : task.reason;
  const notLooped = enabled
    ? notLoopedOf(loaded.plan)
    : loaded.plan.tasks.map((t) => ({ number: t.number, name: t.name, type: t.type, decision: t.decision === 'refuse' ? ('refuse' as const) : ('skip' as const), reason: t.decision === 'loop' ? LOOP_DISABLED : t.reason }));
  const logWarning = recordNotLooped({ target: loaded, now, notLooped, taskNumber: task.number, reason, lockWaitMs });
  throw refusal(task.decision === 'refuse' ? 'refuse' : 'skip', taskTitle(task.number, task.name), reason, task.type, logWarning);
}
