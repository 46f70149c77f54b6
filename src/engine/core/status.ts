/**
 * Summaries of recorded loop state for `ralf status` (pure over PlanState). Reads only
 * the JSON state: no config, no plan parsing, so the command starts fast.
 */
import { newestFirst } from '../../compare-text.js';
import { totalIterations } from './segments.js';
import type { Handoff, LoopState, PlanState, RecommendedAction, StopReason } from './types.js';

export interface LoopSummary {
  scope: 'task' | 'plan';
  task: number | null;
  name: string;
  status: LoopState['status'];
  stop_reason: StopReason | null;
  /** Interrupted loops resume on the next verify. */
  resumable: boolean;
  iterations: number;
  /** Iterations over every segment of the loop (resets and approvals start a new segment). */
  iterations_total: number;
  segments: number;
  /** Set when the task was deferred (`ralf task defer`). */
  deferred_reason: string | null;
  max_iterations: number;
  last_fingerprint: string | null;
  last_progress: boolean | null;
  awaiting_confirmation: boolean;
  warning: string | null;
  recommended_action: RecommendedAction | null;
  updated_at: string | null;
}

export interface PlanSummary {
  plan_id: string;
  plan_path: string;
  state_path: string;
  updated_at: string;
  loops: LoopSummary[];
  not_looped: PlanState['not_looped'];
  plan_not_looped: PlanState['plan_not_looped'] | null;
}

export function summarizeLoop(loop: LoopState): LoopSummary {
  const last = loop.iterations.at(-1);
  return {
    scope: loop.scope,
    task: loop.task_number,
    name: loop.task_name,
    status: loop.status,
    stop_reason: loop.stop_reason,
    resumable: loop.status === 'stopped' && loop.stop_reason === 'interrupted',
    iterations: loop.iterations.length,
    iterations_total: totalIterations(loop),
    segments: (loop.segments?.length ?? 0) + 1,
    deferred_reason: loop.deferred?.reason ?? null,
    max_iterations: loop.max_iterations,
    last_fingerprint: last?.fingerprint ?? null,
    last_progress: last ? last.progress : null,
    awaiting_confirmation: loop.awaiting_confirmation === true,
    warning: loop.warning ?? null,
    recommended_action: loop.handoff?.recommended_action ?? null,
    updated_at: loop.updated_at,
  };
}

export function summarizePlan(state: PlanState, statePath: string): PlanSummary {
  const tasks = Object.values(state.tasks).sort((a, b) => (a.task_number ?? 0) - (b.task_number ?? 0));
  return {
    plan_id: state.plan_id,
    plan_path: state.plan_path,
    state_path: statePath,
    updated_at: state.updated_at,
    loops: [...tasks, ...(state.plan ? [state.plan] : [])].map(summarizeLoop),
    not_looped: state.not_looped,
    plan_not_looped: state.plan_not_looped ?? null,
  };
}
/** The most recent handoff of a loop that is stopped now (not deferred), for `ralf status`. */
export function lastHandoff(state: PlanState | null): { scope: 'task' | 'plan'; task: number | null; stop_reason: StopReason | null; at: string | null; handoff: Handoff } | null {
  if (!state) return null;
  const loops = [...Object.values(state.tasks), ...(state.plan ? [state.plan] : [])].filter((l) => l.status === 'stopped' && !l.deferred && l.handoff);
  loops.sort(newestFirst);
  const l = loops[0];
  return l ? { scope: l.scope, task: l.task_number, stop_reason: l.stop_reason, at: l.updated_at, handoff: l.handoff! } : null;
}
