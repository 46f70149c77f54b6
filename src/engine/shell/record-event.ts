/**
 * For `ralf run` (the headless driver): record an outside event (`blocked`, a time or
 * token budget running out, an abort) through the same reducer and persistence as verify.
 */
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { loopOf } from '../core/find-loop.js';
import { applyEvent } from './apply-event.js';
import { findTask, loadConfigTarget, loopContext, type ConfigOptions } from './context.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import type { LoopEvent } from '../core/events.js';
import { readPlanStateFile } from './store.js';

/** Events `ralf run` may record (verify and reset have their own entry points). */
export type RunEvent =
  | { type: 'blocked'; reason: string }
  | { type: 'budget_exhausted'; budget: 'time' | 'token'; detail: string }
  | { type: 'interrupted'; cause?: 'signal' | 'external'; signal?: string | null };

export interface RecordEventOptions extends ConfigOptions {
  planPath: string;
  /** null: the plan-level loop. */
  taskNumber: number | null;
  event: RunEvent;
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
}

export async function recordLoopEvent(options: RecordEventOptions): Promise<ActionOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const now = (options.now ? options.now() : new Date()).toISOString();
  const scope = options.taskNumber === null ? 'plan' : 'task';
  // Parse the plan only when the loop has no state yet (its name comes from the plan).
  const target = await loadConfigTarget(deps, options.planPath, options);
  const existing = loopOf(readPlanStateFile(target.paths.state), options.taskNumber);
  const plan = existing ? null : (await deps.planning()).readPlan(target.planPath, target.effective);
  const name = existing?.task_name ?? (options.taskNumber === null ? (plan?.objective?.split('\n').find((l: string) => l.trim())?.trim() ?? `Plan ${target.planId}`) : findTask(plan!, options.taskNumber, options.planPath).name);
  const e = options.event;
  const event: LoopEvent =
    e.type === 'blocked'
      ? { type: 'blocked', now, reason: e.reason }
      : e.type === 'budget_exhausted'
        ? { type: 'budget_exhausted', now, budget: e.budget, detail: e.detail }
        : { type: 'interrupted', now, cause: e.cause ?? 'external', signal: e.signal ?? null };
  const r = applyEvent({
    target,
    scope,
    taskNumber: options.taskNumber,
    taskName: name,
    event,
    ctx: loopContext(target, target.effective, plan, options.taskNumber),
    action: 'event',
    lockWaitMs: options.lockWaitMs,
  });
  return actionOutcome('event', target, r);
}
