/**
 * The one write path: under the plan's lock, re-read the state, reduce the event against
 * the LATEST loop (so concurrent verifies become consecutive iterations), write the JSON
 * atomically, then append one log line. JSON first: it is the source of truth, so a crash
 * between the two loses at most a history line.
 */
import type { Decision, LoopContext, LoopEvent } from '../core/events.js';
import { findLoop } from '../core/find-loop.js';
import { newLoopState, newPlanState } from '../core/loop-state.js';
import type { PlanTarget } from './context.js';
import { reduce } from '../core/reducer.js';
import { appendLogAfterState, readPlanStateFile, withPlanLock, writePlanState, type LogEntry } from './store.js';
import type { LoopState, NotLoopedTask, PlanState } from '../core/types.js';

export interface ApplyEventArgs {
  target: PlanTarget;
  scope: 'task' | 'plan';
  taskNumber: number | null;
  taskName: string;
  /** The task's identity key (task-identity.ts) when the caller parsed the plan. */
  taskKey?: string | undefined;
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
  /** Plan-level records to update under the same lock (Rule 4 approvals), given the loop after the event. */
  planPatch?: ((state: PlanState, loop: LoopState) => PlanState) | undefined;
}

export interface ApplyEventResult {
  state: PlanState;
  loop: LoopState;
  decision: Decision;
  /** The history line could not be appended (the state was written): for the CLI to show. */
  logWarning: string | null;
}

export function applyEvent(args: ApplyEventArgs): ApplyEventResult {
  const { target, scope, taskNumber, event, ctx } = args;
  return withPlanLock(
    target.projectRoot,
    target.stateId,
    () => {
      const current = readPlanStateFile(target.paths.state);
      const state = current ?? newPlanState({ plan_path: target.planRel, plan_id: target.planId, now: event.now });
      const found = findLoop(state, scope, taskNumber, args.taskKey);
      // Written under the identity key when known; a migrated `#n` loop moves there.
      const writeKey = scope === 'plan' ? 'plan' : (args.taskKey ?? found?.key ?? `#${taskNumber ?? 0}`);
      const base = found?.loop ?? newLoopState({ scope, task_number: taskNumber, task_name: args.taskName, max_iterations: ctx.limits.max_iterations });
      // The task may have moved (a task inserted before it): its loop follows it.
      const loop = scope === 'task' && base.task_number !== taskNumber ? { ...base, task_number: taskNumber } : base;
      const r = reduce(loop, event, ctx);
      const changed = r.state !== loop || current === null || args.notLooped !== undefined || args.planPatch !== undefined;
      let next: PlanState = { ...state };
      if (changed) {
        const loopNext = { ...r.state, task_name: args.taskName || r.state.task_name, ...(args.session ? { session: args.session } : {}) };
        if (scope === 'plan') next.plan = loopNext;
        else {
          const tasks = { ...state.tasks };
          if (found && found.key !== writeKey) delete tasks[found.key];
          tasks[writeKey] = loopNext;
          next.tasks = tasks;
        }
        next.plan_path = target.planRel;
        next.updated_at = event.now;
        if (args.config) {
          next.config = args.config.config as Record<string, unknown>;
          next.config_sources = args.config.sources;
        }
        if (args.notLooped) next.not_looped = args.notLooped;
        if (args.taskCount !== undefined) next.task_count = args.taskCount;
        if (args.planPatch) next = args.planPatch(next, (scope === 'plan' ? next.plan : next.tasks[writeKey]) ?? r.state);
        writePlanState(target.projectRoot, next, target.stateId);
      }
      const loopAfter = (scope === 'plan' ? next.plan : next.tasks[writeKey]) ?? r.state;
      const logWarning = appendLogAfterState(target.projectRoot, target.stateId, {
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
      return { state: next, loop: loopAfter, decision: r.decision, logWarning };
    },
    args.lockWaitMs,
  );
}

/** Records a refused/skipped task (or plan) in the state without touching any loop; returns a log warning, if any. */
export function recordNotLooped(args: { target: PlanTarget; now: string; notLooped: NotLoopedTask[]; planNotLooped?: PlanState['plan_not_looped']; taskNumber: number | null; reason: string; lockWaitMs?: number | undefined }): string | null {
  const { target } = args;
  return withPlanLock(
    target.projectRoot,
    target.stateId,
    () => {
      const state = readPlanStateFile(target.paths.state) ?? newPlanState({ plan_path: target.planRel, plan_id: target.planId, now: args.now });
      const next: PlanState = { ...state, plan_path: target.planRel, not_looped: args.notLooped, updated_at: args.now };
      if (args.planNotLooped !== undefined) next.plan_not_looped = args.planNotLooped;
      writePlanState(target.projectRoot, next, target.stateId);
      return appendLogAfterState(target.projectRoot, target.stateId, {
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
