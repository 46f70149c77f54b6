/**
 * `ralf task start <PLAN> <N>`: record where the task starts (the working tree before the
 * agent edits), so the diff guard and progress see exactly this task's changes. Optional:
 * without it the first verify starts from HEAD. Unless `preexisting_failures: "off"`, it also
 * runs the task's checks once on the untouched tree: the baseline of what already fails.
 */
import { settingsOf } from '../core/settings-at-start.js';
import { dirname } from 'node:path';
import { untrackedFileCapBytes } from '../../git/snapshot.js';
import { baselineOf, type Baseline } from '../core/baseline.js';
import { withFingerprint } from './verify-task.js';
import { openCheckLedger, reapOrphanChecks } from '../../verify/orphan-checks.js';
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { applyEvent } from './apply-event.js';
import { taskKeyOf } from '../core/task-identity.js';
import { keepLoopTrees } from './keep-loop.js';
import { findTask, loadPlanTarget, loopContext, notLoopedOf, type ConfigOptions } from './context.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import { refuseUnlessLooped } from './refusal.js';
import type { LoopState } from '../core/types.js';
import { userWorkAtStart } from './user-work-at-start.js';

export interface StartOptions extends ConfigOptions {
  planPath: string;
  taskNumber: number;
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
  /** The host session the command runs in (recorded for the Stop hook). */
  session?: LoopState['session'] | undefined;
}

export async function startTask(options: StartOptions): Promise<ActionOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const loaded = await loadPlanTarget(deps, options.planPath, options);
  const task = findTask(loaded.plan, options.taskNumber, options.planPath);
  const now = (options.now ? options.now() : new Date()).toISOString();
  refuseUnlessLooped(loaded, task, now, options.lockWaitMs);
  // The same untracked-file cap as every verify's snapshot (they share git's stat cache).
  const cap = { maxUntrackedFileBytes: untrackedFileCapBytes(loaded.effective.config.snapshot?.max_untracked_file_mb) };
  const startRef = deps.git.insideGit(loaded.projectRoot) ? await deps.git.snapshot(loaded.projectRoot, cap) : null;
  const taskKey = taskKeyOf(loaded.plan.tasks, task.number);
  const baseline = await runBaseline(deps, loaded, task.checks, now);
  // The user's uncommitted work the task starts on: a verify then tells when a git command took it.
  const uncommitted = startRef !== null ? await userWorkAtStart(loaded.projectRoot, startRef) : null;
  const r = applyEvent({
    target: loaded,
    scope: 'task',
    taskNumber: task.number,
    taskName: task.name,
    taskKey,
    event: { type: 'started', now, start_ref: startRef, checks_at_start: task.checks, settings_at_start: settingsOf(loaded.effective.config), ...(baseline ? { baseline } : {}), ...(uncommitted ? { uncommitted_at_start: uncommitted } : {}) },
    ctx: loopContext(loaded, loaded.effective, loaded.plan, task.number),
    config: { config: loaded.effective.config, sources: loaded.effective.sources },
    notLooped: notLoopedOf(loaded.plan),
    taskCount: loaded.plan.tasks.length,
    action: 'start',
    lockWaitMs: options.lockWaitMs,
    session: options.session,
  });
  if (startRef !== null) await keepLoopTrees(loaded.projectRoot, loaded.stateId, taskKeyOf(loaded.plan.tasks, task.number), r.loop);
  return actionOutcome('start', loaded, r, 0);
}

/** The task's checks on the untouched tree (failures only are kept), or null when off or nothing to run. */
async function runBaseline(deps: EngineDeps, loaded: Awaited<ReturnType<typeof loadPlanTarget>>, checks: Parameters<EngineDeps['runChecks']>[0], now: string): Promise<Baseline | null> {
  const cfg = loaded.effective.config;
  if (cfg.preexisting_failures === 'off' || checks.length === 0) return null;
  const stateDir = dirname(loaded.paths.state);
  reapOrphanChecks(stateDir);
  const ledger = openCheckLedger(stateDir);
  try {
    const raw = await deps.runChecks(checks, { cwd: loaded.projectRoot, timeoutMs: (cfg.check_timeout_seconds ?? loaded.checkTimeoutSeconds) * 1000, stopOnFirstFailure: false, onSpawn: (pgid) => ledger.add(pgid) });
    if (raw.some((c) => c.interrupted)) return null;
    return baselineOf(raw.map((c) => withFingerprint(deps, c)), now, 'task_start');
  } finally {
    ledger.close();
  }
}
