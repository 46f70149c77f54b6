/**
 * `ralf task reset <PLAN> <N> | --plan | --all`: clear loops so they run again from a
 * fresh budget. The new start point is the working tree now: what the human has seen
 * and accepted (e.g. after a Rule 4 decision) is not flagged again. History stays in the log.
 */
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { findLoop } from '../core/find-loop.js';
import { applyEvent } from './apply-event.js';
import { limitsOf, loadConfigTarget, type ConfigOptions } from './context.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import { untrackedFileCapBytes } from '../../git/snapshot.js';
import { commandInvocationIn } from './invocation.js';
import { readPlanStateFile, stopFlagPresent } from './store.js';
import { keepLoopTrees } from './keep-loop.js';
import { userWorkAtStart } from './user-work-at-start.js';

export interface ResetOptions extends ConfigOptions {
  planPath: string;
  /** A task number, `plan` (the plan-level loop) or `all` (every loop of the plan). */
  which: number | 'plan' | 'all';
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
  /** Say what would be reset; change nothing. */
  dryRun?: boolean | undefined;
}

export interface ResetResult {
  dry_run: boolean;
  /** Loops that would be reset (with --dry-run) or were. */
  loops: Array<{ scope: 'task' | 'plan'; task: number | null; iterations: number; status: string }>;
  reset: ActionOutcome[];
  /** Loops asked for that had no state (nothing to reset). */
  missing: Array<{ scope: 'task' | 'plan'; task: number | null }>;
  message: string;
  /** `.planning/ralf/STOP` exists: loops stay paused until it is deleted. */
  stop_flag: boolean;
}

export async function resetTask(options: ResetOptions): Promise<ResetResult> {
  const deps = options.deps ?? (await defaultDeps());
  // No plan parsing: the loops to reset are in the state.
  const target = await loadConfigTarget(deps, options.planPath, options);
  const state = readPlanStateFile(target.paths.state);
  const wanted: Array<{ scope: 'task' | 'plan'; task: number | null }> = [];
  if (options.which === 'all') {
    for (const loop of Object.values(state?.tasks ?? {})) wanted.push({ scope: 'task', task: loop.task_number });
    if (state?.plan) wanted.push({ scope: 'plan', task: null });
  } else if (options.which === 'plan') wanted.push({ scope: 'plan', task: null });
  else wanted.push({ scope: 'task', task: options.which });

  const present = wanted.filter((w) => findLoop(state, w.scope, w.task));
  const missing = wanted.filter((w) => !present.includes(w));
  const loops = present.map((w) => {
    const l = findLoop(state, w.scope, w.task)!.loop;
    return { scope: w.scope, task: w.task, iterations: l.iterations.length, status: l.stop_reason ? `${l.status} (${l.stop_reason})` : l.status };
  });
  const label = (w: { scope: string; task: number | null }) => (w.scope === 'plan' ? 'the plan-level loop' : `task ${w.task}`);
  if (options.dryRun) {
    const message = present.length === 0 ? `nothing to reset in ${target.planRel}` : `would reset ${loops.map((l) => `${label(l)} (${l.iterations} iteration${l.iterations === 1 ? '' : 's'}, ${l.status})`).join(', ')} of ${target.planRel}`;
    return { dry_run: true, loops, reset: [], missing, message, stop_flag: stopFlagPresent(target.projectRoot) };
  }
  const cap = { maxUntrackedFileBytes: untrackedFileCapBytes(target.effective.config.snapshot?.max_untracked_file_mb) };
  const startRef = present.length > 0 && deps.git.insideGit(target.projectRoot) ? await deps.git.snapshot(target.projectRoot, cap) : null;
  const now = (options.now ? options.now() : new Date()).toISOString();
  const ctx = { limits: limitsOf(target.effective), invocation: commandInvocationIn(target.projectRoot), plan_id: target.planId, plan_path: target.planRel, plan_progress: null };

  const reset: ActionOutcome[] = [];
  for (const w of present) {
    const found = findLoop(state, w.scope, w.task)!;
    const loop = found.loop;
    // The user's work in the tree the loop restarts on, less the loop's own earlier attempts.
    const uncommitted = startRef !== null ? await userWorkAtStart(target.projectRoot, startRef, { startRef: loop.start_ref, before: loop.uncommitted_at_start }) : null;
    const event = { type: 'reset' as const, now, start_ref: startRef, ...(uncommitted ? { uncommitted_at_start: uncommitted } : {}) };
    const r = applyEvent({ target, scope: w.scope, taskNumber: w.task, taskName: loop.task_name, taskKey: w.scope === 'task' ? found.key : undefined, event, ctx, action: 'reset', lockWaitMs: options.lockWaitMs });
    reset.push(actionOutcome('reset', target, r, 0));
    if (startRef !== null) await keepLoopTrees(target.projectRoot, target.stateId, w.scope === 'task' ? found.key : null, r.loop);
  }
  const message =
    reset.length === 0
      ? `nothing to reset: ${missing.length > 0 ? missing.map(label).join(', ') : 'no loops'} ${missing.length === 1 ? 'has' : 'have'} no recorded state in ${target.planRel}`
      : `reset ${reset.map((o) => (o.scope === 'plan' ? 'the plan-level loop' : `task ${o.task?.number}`)).join(', ')} of ${target.planRel}; the next verify starts at iteration 1 from the current working tree`;
  return { dry_run: false, loops, reset, missing, message, stop_flag: stopFlagPresent(target.projectRoot) };
}
