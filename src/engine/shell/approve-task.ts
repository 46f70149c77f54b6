/**
 * `ralf task approve <PLAN> <N> | --plan [--note TEXT]`: the human's answer to a Rule 4 stop.
 * The approval goes into the plan state (approvals.ts: every later guard of the plan subtracts
 * the approved findings), the approved working tree is kept under `refs/ralf/approved/...`, and
 * the loop starts again with a fresh budget from the SAME start point, so the agent continues
 * with the change in place (a reset would move the start and hide the change from the guard of
 * this task only; the plan-level loop would still flag it).
 */
import { RalfError } from '../../errors.js';
import { keepTreeUnderRef, ralfRefName } from '../../git/keep-ref.js';
import { actionOutcome, type ActionOutcome } from './action-outcome.js';
import { applyEvent } from './apply-event.js';
import { findLoop } from '../core/find-loop.js';
import { resetCommand, statusCommand } from '../core/commands.js';
import { commandInvocationIn } from './invocation.js';
import { limitsOf, loadConfigTarget, type ConfigOptions } from './context.js';
import { defaultDeps, type EngineDeps } from './deps.js';
import { readPlanStateFile } from './store.js';
import { keepLoopTrees } from './keep-loop.js';
import type { Rule4Approval } from '../core/types.js';

export interface ApproveOptions extends ConfigOptions {
  planPath: string;
  /** A task number, or `plan` for the plan-level loop. */
  which: number | 'plan';
  /** The human's words, kept with the approval. */
  note?: string | undefined;
  now?: (() => Date) | undefined;
  lockWaitMs?: number | undefined;
  deps?: EngineDeps | undefined;
}

export interface ApproveOutcome extends ActionOutcome {
  approval: Rule4Approval;
}

export async function approveTask(options: ApproveOptions): Promise<ApproveOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const target = await loadConfigTarget(deps, options.planPath, options);
  const scope = options.which === 'plan' ? 'plan' : 'task';
  const n = options.which === 'plan' ? null : options.which;
  const what = scope === 'plan' ? 'the plan-level loop' : `task ${n}`;
  const found = findLoop(readPlanStateFile(target.paths.state), scope, n);
  if (!found) {
    throw new RalfError('nothing_to_approve', `${target.planRel}: ${what} has no loop state, so no Rule 4 stop to approve`, {
      problems: [{ file: target.planRel, message: `${what}: no recorded loop`, hint: `\`${statusCommand(target.planRel, commandInvocationIn(target.projectRoot))}\` lists the plan's loops; approve answers a loop stopped with rule4_architectural.` }],
    });
  }
  const loop = found.loop;
  if (loop.stop_reason !== 'rule4_architectural') {
    const status = loop.stop_reason ? `${loop.status} (${loop.stop_reason})` : loop.status;
    throw new RalfError('nothing_to_approve', `${target.planRel}: ${what} is ${status}, not stopped by Rule 4: nothing to approve`, {
      problems: [{ file: target.planRel, message: `${what}: ${status}`, hint: `approve answers a rule4_architectural stop. To loop again after another stop: \`${resetCommand(target.planRel, n, commandInvocationIn(target.projectRoot))}\`.` }],
    });
  }
  const now = (options.now ? options.now() : new Date());
  const at = now.toISOString();
  const escalation = loop.escalation;
  const findings = escalation?.findings ?? loop.iterations.at(-1)?.rule4_findings ?? [];
  // The approved tree, kept where `git gc` cannot prune it.
  let ref: string | null = null;
  if (deps.git.insideGit(target.projectRoot)) {
    const tree = await deps.git.snapshot(target.projectRoot);
    if (tree) ref = await keepTreeUnderRef(target.projectRoot, tree, ralfRefName('approved', target.planId, n, now), `ralf-lite: Rule 4 change approved for ${what} of plan ${target.planId}`);
  }
  const approval: Rule4Approval = {
    at,
    scope,
    task_number: n,
    task_key: scope === 'plan' ? null : found.key,
    task_name: loop.task_name,
    findings,
    reason: escalation?.reason ?? 'Rule 4 stop',
    source: escalation?.source ?? 'diff_guard',
    open: escalation?.source === 'agent' || findings.length === 0,
    note: options.note?.trim() || null,
    ref,
  };
  const ctx = { limits: limitsOf(target.effective), plan_id: target.planId, plan_path: target.planRel, plan_progress: null };
  const r = applyEvent({
    target,
    scope,
    taskNumber: n,
    taskName: loop.task_name,
    taskKey: scope === 'task' ? found.key : undefined,
    event: { type: 'approved', now: at, findings },
    ctx,
    action: 'approve',
    detail: `rule 4 approved: ${findings.length > 0 ? findings.join('; ') : approval.reason}`,
    lockWaitMs: options.lockWaitMs,
    planPatch: (state) => ({ ...state, approvals: [...(state.approvals ?? []), approval] }),
  });
  if (ref !== null) await keepLoopTrees(target.projectRoot, target.stateId, scope === 'task' ? found.key : null, r.loop);
  const o = actionOutcome('approve', target, r, 0);
  const covers = approval.open ? `${findings.length > 0 ? `${findings.join('; ')}, and ` : ''}what ${what}'s guard finds until it passes` : findings.join('; ');
  return { ...o, approval, message: `${o.message} Approved: ${covers}${ref ? ` (the approved tree is kept as ${ref})` : ''}.` };
}
