/** Constructors for empty loop and plan state (pure; `now` is passed in). */
import { STATE_SCHEMA_VERSION, type LoopState, type PlanState } from './types.js';

export function newLoopState(args: { scope: 'task' | 'plan'; task_number: number | null; task_name: string; max_iterations: number }): LoopState {
  return {
    scope: args.scope,
    task_number: args.task_number,
    task_name: args.task_name,
    status: 'idle',
    stop_reason: null,
    max_iterations: args.max_iterations,
    iterations: [],
    fingerprint_streak: 0,
    no_progress_streak: 0,
    start_ref: null,
    started_at: null,
    updated_at: null,
    done_confirmed: false,
    escalation: null,
    handoff: null,
    total_duration_ms: 0,
  };
}

export function newPlanState(args: { plan_path: string; plan_id: string; now: string }): PlanState {
  return {
    schema_version: STATE_SCHEMA_VERSION,
    plan_path: args.plan_path,
    plan_id: args.plan_id,
    config: {},
    config_sources: {},
    tasks: {},
    plan: null,
    not_looped: [],
    created_at: args.now,
    updated_at: args.now,
  };
}


/** The task number a loop's commands name; null for the plan-level loop. */
export function loopTaskNumber(loop: Pick<LoopState, 'scope' | 'task_number'>): number | null {
  return loop.scope === 'plan' ? null : loop.task_number;
}

/** A loop that ended and will not run again without `ralf task reset` (interrupted loops resume). */
export function isFinal(loop: LoopState): boolean {
  return loop.status === 'stopped' && loop.stop_reason !== 'interrupted';
}
