/**
 * `ralf task defer <PLAN> <N> --reason TEXT`: set a task aside so the plan can go on. The loop
 * stops for good (`deferred`, recorded with the reason), and the loop's edits are taken out of
 * the working tree (deferral.ts decides which paths: only the loop's) after the whole working
 * tree was kept as a commit under `refs/ralf/deferred/<plan-id>/task-<N>/<time>`, so nothing is
 * lost and `restore_command` brings them back.
 */
import { RalfError } from '../../errors.js';
import { keepTreeUnderRef, ralfRefName } from '../../git/keep-ref.js';
import { restoreTree } from '../../git/restore.js';
import { restoreCommand } from '../../run/git-ops.js';
import { pathChanges } from '../../git/diff.js';
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { applyEvent } from './apply-event.js';
import { findLoop } from '../core/find-loop.js';
import { statusCommand } from '../core/commands.js';
import { commandInvocationIn } from './invocation.js';
import { findTask, loadPlanTarget, loopContext, notLoopedOf, type ConfigOptions } from './context.js';
import { planDeferral } from '../core/deferral.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import { readPlanStateFile } from './store.js';
import { taskKeyOf } from '../core/task-identity.js';
import type { Deferral } from '../core/types.js';

export interface DeferOptions extends ConfigOptions {
  planPath: string;
  taskNumber: number;
  reason: string;
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
}

export interface DeferOutcome extends ActionOutcome {
  deferral: Deferral;
}

export async function deferTask(options: DeferOptions): Promise<DeferOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const loaded = await loadPlanTarget(deps, options.planPath, options);
  const task = findTask(loaded.plan, options.taskNumber, options.planPath);
  const key = taskKeyOf(loaded.plan.tasks, task.number);
  const found = findLoop(readPlanStateFile(loaded.paths.state), 'task', task.number, key);
  const loop = found?.loop ?? null;
  if (loop?.status === 'passed') {
    throw new RalfError('cannot_defer', `${loaded.planRel}: task ${task.number} already passed; nothing to defer`, {
      problems: [{ file: loaded.planRel, message: `task ${task.number}: passed`, hint: `A passed task stays done. \`${statusCommand(loaded.planRel, commandInvocationIn(loaded.projectRoot))}\` shows where the plan resumes.` }],
    });
  }
  const nowDate = options.now ? options.now() : new Date();
  const now = nowDate.toISOString();
  const root = loaded.projectRoot;

  let deferral: Deferral = { at: now, reason: options.reason, ref: null, removed: [], left: [], restore_command: null };
  if (loop?.deferred) deferral = loop.deferred; // already deferred: the first record stands
  else if (loop && loop.start_ref && deps.git.insideGit(root)) {
    const current = await deps.git.snapshot(root);
    const verified = loop.iterations.at(-1)?.tree ?? current;
    if (current && verified) {
      const loopPaths = (await pathChanges(root, loop.start_ref, verified)).map((c) => c.path);
      const since = loopPaths.length > 0 && verified !== current ? await pathChanges(root, verified, current, loopPaths) : [];
      const plan = planDeferral({ startSource: loop.start_source ?? null, loopPaths, changedSinceVerify: new Set(since.map((c) => c.path)) });
      if (loopPaths.length > 0) {
        const ref = await keepTreeUnderRef(root, current, ralfRefName('deferred', loaded.planId, task.number, nowDate), `ralf-lite: task ${task.number} of plan ${loaded.planId} deferred (${options.reason}); the working tree before its edits were removed`);
        deferral = { ...deferral, ref, left: plan.left };
        if (plan.remove.length > 0) {
          const r = await restoreTree(root, loop.start_ref, plan.remove);
          const removed = [...r.restored, ...r.removed].sort();
          // Only files the kept tree holds can be restored from it (a deleted file is gone there too).
          const inRef = (await pathChanges(root, loop.start_ref, current, removed)).filter((c) => !/^0+$/.test(c.new_mode)).map((c) => c.path);
          deferral = { ...deferral, removed, left: [...plan.left, ...r.skipped], restore_command: restoreCommand(root, ref, inRef) };
        }
      }
    }
  }
  const r = applyEvent({
    target: loaded,
    scope: 'task',
    taskNumber: task.number,
    taskName: task.name,
    taskKey: key,
    event: { type: 'deferred', now, deferral },
    ctx: loopContext(loaded, loaded.effective, loaded.plan, task.number),
    notLooped: notLoopedOf(loaded.plan),
    taskCount: loaded.plan.tasks.length,
    action: 'defer',
    detail: `deferred: ${options.reason}`,
    lockWaitMs: options.lockWaitMs,
  });
  const o = actionOutcome('defer', loaded, r, 0);
  const parts = [o.message];
  if (deferral.removed.length > 0) parts.push(`Removed the loop's edits from the working tree: ${deferral.removed.join(', ')} (kept as ${deferral.ref}).`);
  for (const l of deferral.left) parts.push(`Left ${l.path}: ${l.reason}.`);
  return { ...o, deferral, message: parts.join(' ') };
}
