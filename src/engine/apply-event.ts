/**
 * The one write path: under the plan's lock, re-read the state, reduce the event against
 * the LATEST loop (so concurrent verifies become consecutive iterations), write the JSON
 * atomically, then append one log line. JSON first: it is the source of truth, so a crash
 * between the two loses at most a history line.
 */
import type { Decision, LoopContext, LoopEvent } from './events.js';
import { newLoopState, newPlanState, taskKey } from './loop-state.js';
import type { PlanTarget } from './context.js';
import { reduce } from './reducer.js';
import { appendLogAfterState, readPlanStateFile, withPlanLock, writePlanState, type LogEntry } from './store.js';
import type { LoopState, NotLoopedTask, PlanState } from './types.js';

export interface ApplyEventArgs {
  target: PlanTarget;
  scope: 'task' | 'plan';
  taskNumber: number | null;
  taskName: string;
  event: LoopEvent;
  ctx: LoopContext;
  /** Refresh these plan-level records while we hold the lock. */
  config?: { config: unknown; sources: Record<string, string> } | undefined;
  notLooped?: NotLoopedTask[] | undefined;
  taskCount?: number | undefined;
  action: LogEntry['action'];
  detail?: string | undefined;
  lockWaitMs?: number | undefined;
  /** The host session the command ran in; recorded on the loop when the event changes it. */
  session?: LoopState['session'] | undefined;
}

export interface ApplyEventResult {
  state: PlanState;
  loop: LoopState;
  decision: Decision;
}

export function getLoop(state: PlanState | null, scope: 'task' | 'plan', taskNumber: number | null): LoopState | null {
  if (!state) return null;
  return scope === 'plan' ? state.plan : (state.tasks[taskKey(taskNumber ?? 0)] ?? null);
}

export function applyEvent(args: ApplyEventArgs): ApplyEventResult {
  const { target, scope, taskNumber, event, ctx } = args;
  return withPlanLock(
    target.projectRoot,
    target.planId,
    () => {
      const current = readPlanStateFile(target.paths.state);
      const state = current ?? newPlanState({ plan_path: target.planRel, plan_id: target.planId, now: event.now });
      const loop = getLoop(state, scope, taskNumber) ?? newLoopState({ scope, task_number: taskNumber, task_name: args.taskName, max_iterations: ctx.limits.max_iterations });
      const r = reduce(loop, event, ctx);
      const changed = r.state !== loop || current === null || args.notLooped !== undefined;
      const next: PlanState = { ...state };
      if (changed) {
        const loopNext = { ...r.state, task_name: args.taskName || r.state.task_name, ...(args.session ? { session: args.session } : {}) };
        if (scope === 'plan') next.plan = loopNext;
        else next.tasks = { ...state.tasks, [taskKey(taskNumber ?? 0)]: loopNext };
        next.plan_path = target.planRel;
        next.updated_at = event.now;
        if (args.config) {
          next.config = args.config.config as Record<string, unknown>;
          next.config_sources = args.config.sources;
        }
        if (args.notLooped) next.not_looped = args.notLooped;
        if (args.taskCount !== undefined) next.task_count = args.taskCount;
        writePlanState(target.projectRoot, next);
      }
      const loopAfter = getLoop(next, scope, taskNumber) ?? r.state;
      appendLogAfterState(target.projectRoot, target.planId, {
        ts: event.now,
        scope,
        task: taskNumber,
        iteration: r.decision.iteration,
        action: args.action,
        ...(args.action === 'event' ? { event: event.type } : {}),
        verdict: r.decision.verdict,
        stop_reason: r.decision.stop_reason,
        counted: r.decision.counted,
        fingerprint: r.decision.fingerprint,
        progress: r.decision.counted ? r.decision.progress : null,
        duration_ms: event.type === 'iteration_verified' ? event.duration_ms : null,
        status: loopAfter.status,
        ...(args.detail ? { detail: args.detail } : r.decision.already_ended ? { detail: 'loop had already ended; nothing recorded' } : {}),
        pid: process.pid,
      });
      return { state: next, loop: loopAfter, decision: r.decision };
    },
    args.lockWaitMs,
  );
}

/** Records a refused/skipped task (or plan) in the state without touching any loop. */
export function recordNotLooped(args: { target: PlanTarget; now: string; notLooped: NotLoopedTask[]; planNotLooped?: PlanState['plan_not_looped']; taskNumber: number | null; reason: string; lockWaitMs?: number | undefined }): void {
  const { target } = args;
  withPlanLock(
    target.projectRoot,
    target.planId,
    () => {
      const state = readPlanStateFile(target.paths.state) ?? newPlanState({ plan_path: target.planRel, plan_id: target.planId, now: args.now });
      const next: PlanState = { ...state, plan_path: target.planRel, not_looped: args.notLooped, updated_at: args.now };
      if (args.planNotLooped !== undefined) next.plan_not_looped = args.planNotLooped;
      writePlanState(target.projectRoot, next);
      appendLogAfterState(target.projectRoot, target.planId, {
        ts: args.now,
        scope: args.taskNumber === null ? 'plan' : 'task',
        task: args.taskNumber,
        iteration: 0,
        action: 'refuse',
        verdict: null,
        stop_reason: null,
        counted: false,
        fingerprint: null,
        progress: null,
        duration_ms: null,
        status: null,
        detail: args.reason,
        pid: process.pid,
      });
    },
    args.lockWaitMs,
  );
}
