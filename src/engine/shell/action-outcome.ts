/** What the non-verify actions (escalate, reset, start, run events) return and print with --json. */
import type { PlanTarget } from './context.js';
import type { Decision } from '../core/events.js';
import type { Handoff, LoopState, StopReason, Verdict } from '../core/types.js';
import { exitCodeFor } from './verify-task.js';

export interface ActionOutcome {
  action: 'escalate' | 'reset' | 'start' | 'event' | 'approve' | 'defer';
  exit_code: number;
  scope: 'task' | 'plan';
  task: { number: number; name: string } | null;
  plan_id: string;
  plan_path: string;
  verdict: Verdict;
  stop_reason: StopReason | null;
  iteration: number;
  max_iterations: number;
  start_ref: string | null;
  message: string;
  next: string;
  handoff: Handoff | null;
  state_path: string;
  /** The history log could not be appended; the state file was written. */
  log_warning?: string;
}

export function actionOutcome(action: ActionOutcome['action'], target: PlanTarget, { loop, decision, logWarning }: { loop: LoopState; decision: Decision; logWarning?: string | null }, exitCode?: number): ActionOutcome {
  return {
    action,
    exit_code: exitCode ?? exitCodeFor(decision),
    scope: loop.scope,
    task: loop.task_number === null ? null : { number: loop.task_number, name: loop.task_name },
    plan_id: target.planId,
    plan_path: target.planRel,
    verdict: decision.verdict,
    stop_reason: decision.stop_reason,
    iteration: decision.iteration,
    max_iterations: loop.max_iterations,
    start_ref: loop.start_ref,
    message: decision.message,
    next: decision.next,
    handoff: decision.handoff,
    state_path: target.paths.state,
    ...(logWarning ? { log_warning: logWarning } : {}),
  };
}
