/**
 * Where a plan stands, task by task, for `ralf status <PLAN>` and for resuming a plan in a new
 * session (pure: the plan's tasks, the loop state, the commits found and `ralf run`'s memory in;
 * rows out). A passed task is never re-opened; the plan resumes at the first unfinished task.
 */
import { findLoop } from './find-loop.js';
import { totalIterations } from './segments.js';
import type { Handoff, LoopState, PlanState, Rule4Approval, StopReason } from './types.js';

/** The five states a task can be in for resuming. */
export type TaskProgress = 'passed' | 'stopped' | 'deferred' | 'running' | 'not_started';

export interface StatusTask {
  number: number;
  name: string;
  /** The task's identity key (task-identity.ts). */
  key: string;
  type: string | null;
  decision: 'loop' | 'skip' | 'refuse';
  /** `ralf run`'s memory key for the task (`id:<id>` or its number). */
  memory_key: string;
}

export interface RunMemoryLike {
  tasks: Record<string, { outcome: string; commit: string | null }>;
  checkpoints: Record<string, { reply: string }>;
}

export interface TaskStatusRow {
  number: number;
  name: string;
  key: string;
  type: string | null;
  decision: StatusTask['decision'];
  status: TaskProgress;
  /** How a finished task is known to be finished (`loop`, `commit`, `ralf run`, `checkpoint answer`). */
  done_by: 'loop' | 'commit' | 'ralf run' | 'checkpoint answer' | null;
  stop_reason: StopReason | null;
  /** Iterations of the current loop segment / of every segment (resets and approvals start a new one). */
  iterations: number;
  iterations_total: number;
  segments: number;
  max_iterations: number | null;
  /** The task's commit (short hash) when one was found: `ralf run`'s record, or a `(<plan-id>): <name>` commit. */
  commit: string | null;
  deferred: LoopState['deferred'] | null;
  approvals: Rule4Approval[];
  /** The handoff of a stopped task (null otherwise). */
  handoff: Handoff | null;
  note: string | null;
}

/** The plan-level loop (`autonomous: true` plans with checks of their own): whether it applies, and where it stands. */
export interface PlanLoopRow {
  decision: StatusTask['decision'];
  /** Why it does not loop (decision skip/refuse), else null. */
  reason: string | null;
  status: 'passed' | 'stopped' | 'running' | 'not_started';
  stop_reason: StopReason | null;
}

export interface PlanStatus {
  tasks: TaskStatusRow[];
  /** The task to continue with (the first unfinished one), null when every task is finished. */
  resume_at: number | null;
  /** Every task passed or was deferred: the plan-level loop (plan_loop) and the SUMMARY come next. */
  tasks_complete: boolean;
  plan_loop: PlanLoopRow;
}

function loopRowStatus(loop: LoopState): TaskProgress {
  if (loop.deferred) return 'deferred';
  if (loop.status === 'passed') return 'passed';
  if (loop.status === 'stopped' && loop.stop_reason !== 'interrupted') return 'stopped';
  if (loop.status === 'running' || loop.status === 'stopped' || loop.start_ref !== null || loop.iterations.length > 0) return 'running';
  return 'not_started';
}

export function planStatus(input: {
  tasks: StatusTask[];
  state: PlanState | null;
  commits: ReadonlyMap<number, string>;
  memory: RunMemoryLike | null;
  planDecision: { decision: StatusTask['decision']; reason: string };
}): PlanStatus {
  const rows = input.tasks.map((t): TaskStatusRow => {
    const loop = findLoop(input.state, 'task', t.number, t.key)?.loop ?? null;
    const remembered = input.memory?.tasks[t.memory_key] ?? null;
    const answered = input.memory?.checkpoints[t.memory_key] ?? null;
    let status: TaskProgress = loop ? loopRowStatus(loop) : 'not_started';
    let doneBy: TaskStatusRow['done_by'] = status === 'passed' ? 'loop' : null;
    const commit = remembered?.commit ?? input.commits.get(t.number) ?? null;
    if (status === 'not_started' && t.decision !== 'loop') {
      // Not wrapped by the loop: done when ralf run ran it, a checkpoint was answered, or its commit exists.
      if (remembered && (remembered.outcome === 'ran_once' || remembered.outcome === 'passed')) [status, doneBy] = ['passed', 'ralf run'];
      else if (answered) [status, doneBy] = ['passed', 'checkpoint answer'];
      else if (commit) [status, doneBy] = ['passed', 'commit'];
    }
    return {
      number: t.number,
      name: t.name,
      key: t.key,
      type: t.type,
      decision: t.decision,
      status,
      done_by: doneBy,
      stop_reason: loop?.stop_reason ?? null,
      iterations: loop?.iterations.length ?? 0,
      iterations_total: loop ? totalIterations(loop) : 0,
      segments: loop ? (loop.segments?.length ?? 0) + 1 : 0,
      max_iterations: loop?.max_iterations ?? null,
      commit: status === 'passed' ? commit : null,
      deferred: loop?.deferred ?? null,
      approvals: (input.state?.approvals ?? []).filter((a) => a.scope === 'task' && a.task_key === t.key),
      handoff: status === 'stopped' ? (loop?.handoff ?? null) : null,
      note: null,
    };
  });
  // A task the loop does not wrap leaves no record unless committed; when a later task has
  // started, the earlier session went past it (GSD runs tasks in order).
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.status === 'not_started' && r.decision !== 'loop' && rows.slice(i + 1).some((later) => later.status !== 'not_started')) {
      r.note = 'not wrapped by the loop and no record of it; a later task has started, so it is taken as done';
    }
  }
  const next = rows.find((r) => r.status === 'stopped' || r.status === 'running' || (r.status === 'not_started' && r.note === null));
  return { tasks: rows, resume_at: next?.number ?? null, tasks_complete: next === undefined, plan_loop: planLoopRow(input.state, input.planDecision) };
}

function planLoopRow(state: PlanState | null, planDecision: { decision: StatusTask['decision']; reason: string }): PlanLoopRow {
  const loop = findLoop(state, 'plan', null)?.loop ?? null;
  const progress = loop === null ? 'not_started' : loopRowStatus(loop);
  return {
    decision: planDecision.decision,
    reason: planDecision.decision === 'loop' ? null : planDecision.reason,
    // (the plan-level loop is never deferred)
    status: progress === 'deferred' ? 'stopped' : progress,
    stop_reason: loop?.stop_reason ?? null,
  };
}
