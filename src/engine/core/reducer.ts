/**
 * The loop as a reducer: `(loop, event, context) -> { state, decision }`. Pure: no process,
 * file or clock inside (every event carries `now`); the I/O shell (verify-task.ts) gathers
 * the facts, this decides. See docs/ENGINE.md for the state machine and the precedence.
 */
import type { Decision, LoopContext, LoopEvent } from './events.js';
import { buildHandoff } from './handoff.js';
import { isFinal, loopTaskNumber, newLoopState } from './loop-state.js';
import { failed } from './check-status.js';
import { approveCommand as approveCommandOf, resetCommand as resetCommandOf, verifyCommand as verifyCommandOf } from './commands.js';
import { computeDelta, judgeDelta } from './delta.js';
import { withSegment } from './segments.js';
import { FILES_LISTED, type IterationRecord, type LoopState, type StopReason, type TreeFacts, type Verdict } from './types.js';
export { FILES_LISTED };

/** Paths the checks wrote that a loop remembers (a build may write thousands: the rest count as changes). */
export const CHECK_WRITTEN_MAX = 1000;

function mergeWritten(before: Record<string, string> | undefined, now: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!now || Object.keys(now).length === 0) return before;
  const merged = { ...before };
  for (const [path, blob] of Object.entries(now)) {
    if (merged[path] === undefined && Object.keys(merged).length >= CHECK_WRITTEN_MAX) continue;
    merged[path] = blob;
  }
  return merged;
}

export interface ReduceResult {
  state: LoopState;
  decision: Decision;
}

/** Unconfirmed green verifies (`confirm`, exit 11) in a row before the loop stops with `unconfirmed`. */
export const CONFIRM_MAX = 3;

/** The fraction of max_iterations at which the next iteration triggers a warning. */
export const WARN_AT = 0.8;

function label(loop: LoopState): string {
  return loop.scope === 'plan' ? 'Plan-level verification' : `Task ${loop.task_number}`;
}

function verifyCommand(loop: LoopState, ctx: LoopContext): string {
  return verifyCommandOf(ctx.plan_path, loopTaskNumber(loop), ctx.invocation);
}

function resetCommand(loop: LoopState, ctx: LoopContext): string {
  return resetCommandOf(ctx.plan_path, loopTaskNumber(loop), ctx.invocation);
}

function approveCommand(loop: LoopState, ctx: LoopContext): string {
  return approveCommandOf(ctx.plan_path, loopTaskNumber(loop), ctx.invocation);
}

/** How a human reopens a stopped loop: a Rule 4 stop is approved (or reset), anything else reset. */
function reopenHint(loop: LoopState, ctx: LoopContext): string {
  if (loop.stop_reason === 'rule4_architectural') return `To proceed with the change once the human approved it: \`${approveCommand(loop, ctx)}\` (a different approach: \`${resetCommand(loop, ctx)}\`).`;
  return `To loop again after the human decided: \`${resetCommand(loop, ctx)}\`.`;
}

const STOP_NEXT = 'Stop working on this task: show the handoff (## CHECKPOINT REACHED) to the human and wait for their decision.';

function passNext(loop: LoopState): string {
  return loop.scope === 'plan' ? 'The plan-level checks pass: finish the plan (SUMMARY.md).' : 'Commit the task and continue with the next one.';
}

function decisionOf(loop: LoopState, fields: Partial<Decision> & Pick<Decision, 'message' | 'next'>): Decision {
  const last = loop.iterations.at(-1);
  const verdict: Verdict = loop.status === 'passed' ? 'pass' : loop.status === 'stopped' ? 'stop' : loop.awaiting_confirmation ? 'confirm' : 'retry';
  return {
    verdict,
    stop_reason: loop.stop_reason,
    iteration: loop.iterations.length,
    counted: false,
    already_ended: false,
    progress: last?.progress ?? null,
    progress_reasons: last?.progress_reasons ?? [],
    fingerprint: last?.fingerprint ?? null,
    warning: null,
    handoff: loop.status === 'stopped' ? loop.handoff : null,
    ...fields,
  };
}

/** The answer for a loop that already ended: nothing is recorded. */
function ended(loop: LoopState, ctx: LoopContext): ReduceResult {
  if (loop.status === 'passed') {
    return {
      state: loop,
      decision: decisionOf(loop, {
        already_ended: true,
        message: `${label(loop)} already passed on iteration ${loop.iterations.length}/${loop.max_iterations}.`,
        next: passNext(loop),
      }),
    };
  }
  if (loop.deferred) {
    return {
      state: loop,
      decision: decisionOf(loop, {
        already_ended: true,
        message: `${label(loop)} was deferred (${loop.deferred.reason}); nothing was recorded.`,
        next: `Go on with the next task; this one is listed under Deferred Issues. To take it up again: \`${resetCommand(loop, ctx)}\`.`,
      }),
    };
  }
  return {
    state: loop,
    decision: decisionOf(loop, {
      already_ended: true,
      message: `${label(loop)}'s loop already stopped with ${loop.stop_reason} after ${loop.iterations.length}/${loop.max_iterations} iterations; nothing was recorded.`,
      next: `${STOP_NEXT} ${reopenHint(loop, ctx)}`,
    }),
  };
}

/** An interrupted loop resumes where it was: interrupted verifies never count. */
function resumed(loop: LoopState, doneConfirmed = false): LoopState {
  // A loop stopped for want of a confirmation resumes when someone finally confirms.
  if (loop.status === 'stopped' && loop.stop_reason === 'unconfirmed' && doneConfirmed) {
    return { ...loop, status: loop.iterations.length > 0 ? 'running' : 'idle', stop_reason: null, handoff: null, confirmations: 0 };
  }
  if (loop.status !== 'stopped' || loop.stop_reason !== 'interrupted') return loop;
  return { ...loop, status: loop.iterations.length > 0 ? 'running' : 'idle', stop_reason: null, interrupted: null, handoff: null };
}

/** Stops a loop that has not ended, with a handoff. */
function stopWith(loop: LoopState, ctx: LoopContext, now: string, stop: StopReason, patch: Partial<LoopState>, message: string): ReduceResult {
  const stopped: LoopState = { ...loop, ...patch, status: 'stopped', stop_reason: stop, started_at: loop.started_at ?? now, updated_at: now, awaiting_confirmation: false };
  stopped.handoff = buildHandoff(stopped, ctx);
  const next = stop === 'interrupted' ? `State is saved. Remove .planning/ralf/STOP if present, then run \`${verifyCommand(loop, ctx)}\` to resume.` : STOP_NEXT;
  return { state: stopped, decision: decisionOf(stopped, { message, next }) };
}

function warningFor(n: number, max: number): string | null {
  const left = max - n;
  if (left <= 0 || (n + 1) / max < WARN_AT) return null;
  return `iteration ${n}/${max}: ${left === 1 ? 'the next iteration is the last one' : `only ${left} iterations left`} before the loop stops with max_iterations`;
}

function elapsedSeconds(from: string | null, to: string): number {
  if (!from) return 0;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms / 1000 : 0;
}

function reduceIteration(loop0: LoopState, event: Extract<LoopEvent, { type: 'iteration_verified' }>, ctx: LoopContext): ReduceResult {
  const { limits } = ctx;
  const loop = resumed(loop0, event.done_confirmed);
  if (isFinal(loop)) return ended(loop, ctx);

  const checks = event.checks;
  const allPass = checks.every((c) => c.passed);
  const findings = event.rule4_findings;
  const startRef = loop.start_ref ?? event.start_ref;
  const startedAt = loop.started_at ?? event.started_at;
  const filesCount = event.files_changed_count ?? event.files_changed.length;
  const filesListed = event.files_changed.slice(0, FILES_LISTED);
  const treeFacts: TreeFacts = { start_ref: startRef, tree: event.tree, ...(event.ignore_key !== undefined ? { ignore_key: event.ignore_key } : {}), diff_hash: event.diff_hash, files_changed: filesListed, files_changed_count: filesCount, rule4_findings: findings };
  const checkWritten = mergeWritten(loop.check_written, event.check_written);
  const checksAtStart = loop.checks_at_start ?? event.checks_at_start;
  const settingsAtStart = loop.settings_at_start ?? event.settings_at_start;
  const pinned = { ...(checksAtStart ? { checks_at_start: checksAtStart } : {}), ...(settingsAtStart ? { settings_at_start: settingsAtStart } : {}) };

  if (findings.length === 0 && allPass) {
    if (loop.status === 'passed') return ended(loop, ctx);
    if (event.requires_confirmation && !event.done_confirmed) {
      // Not an iteration: the code is green, only the human-judged criteria are open. Counted
      // against its own small bound, so an agent that never confirms cannot loop forever.
      const confirmations = (loop.confirmations ?? 0) + 1;
      const pending = event.tree !== null ? { tree: event.tree, commands: checks.map((c) => c.command), checks, at: event.now } : null;
      const base: LoopState = { ...loop, ...pinned, start_ref: startRef, started_at: startedAt, updated_at: event.now, tree_facts: treeFacts, confirmations, pending_confirmation: pending };
      if (confirmations >= CONFIRM_MAX) {
        return stopWith(base, ctx, event.now, 'unconfirmed', {}, `${label(loop)}: the checks pass, but the manual done criteria were not confirmed after ${confirmations} requests.`);
      }
      const state: LoopState = { ...base, status: 'running', awaiting_confirmation: true };
      return {
        state,
        decision: decisionOf(state, {
          verdict: 'confirm',
          stop_reason: null,
          message: `checks pass; confirm manual criteria with --done-confirmed (request ${confirmations} of ${CONFIRM_MAX})`,
          next: `Check the ${loop.scope === 'plan' ? "plan's" : "task's"} manual done criteria yourself. If they hold, run \`${verifyCommand(loop, ctx)} --done-confirmed\` (the green result is reused when nothing changed); otherwise keep working and verify again. This did not use an iteration.`,
          progress: null,
          progress_reasons: [],
          fingerprint: null,
        }),
      };
    }
  }

  const n = loop.iterations.length + 1;
  const prev = loop.iterations.at(-1) ?? null;
  const firstFailing = checks.find(failed) ?? checks.find((c) => !c.passed);
  const fingerprint = allPass ? null : (firstFailing?.fingerprint ?? null);
  // One delta, read by every rule below (delta.ts).
  const delta = computeDelta({ iterations: loop.iterations, tree_known: event.tree !== null || event.diff_hash !== null }, { checks, fingerprint, diff_hash: event.diff_hash, ...(event.declared_hash != null ? { declared_hash: event.declared_hash } : {}) });
  const judged = judgeDelta(delta, prev?.iteration ?? null);
  // N occurrences of one fingerprint in a row, each repeat without an improvement (a check or
  // test fixed, the error further along) on a tree not seen before.
  // Every failing check must fail as before: check 2's error moving while check 1 fails the
  // same way is not a repeat (delta.failures_changed).
  const repeated = !allPass && fingerprint !== null && prev !== null && !prev.passed && prev.fingerprint === fingerprint && delta.failures_changed !== true && !judged.improved;
  // A green run on code that failed before in this loop: the checks are flaky, or something
  // outside the tree changed (a dependency installed into an ignored directory, a service
  // started). The pass stands (the plan's checks passed as written); the answer says so.
  const sameTreeFailed = allPass && delta.novel_tree === false ? failedOnTree(loop.iterations, event.diff_hash, event.declared_hash ?? null) : null;
  const fingerprintStreak = allPass || fingerprint === null ? 0 : repeated ? loop.fingerprint_streak + 1 : (countAfterReturn(loop.iterations, delta.returned_result) ?? 0) + 1;
  const noProgressStreak = judged.progress ? 0 : loop.no_progress_streak + 1;

  // Precedence when several hold on the same iteration (docs/ENGINE.md):
  // rule4 > success > repeated_fingerprint > no_progress > max_iterations > time_budget.
  let stop: StopReason | null = null;
  let escalation = loop.escalation;
  if (findings.length > 0) {
    stop = 'rule4_architectural';
    escalation = { rule: 4, source: 'diff_guard', reason: `diff guard: ${findings.join('; ')}`, findings };
  } else if (allPass) stop = 'success';
  else if (fingerprintStreak >= limits.error_fingerprint_repeats) stop = 'repeated_fingerprint';
  else if (noProgressStreak >= limits.no_progress_repeats) stop = 'no_progress';
  else if (n >= limits.max_iterations) stop = 'max_iterations';
  else if (limits.time_budget_seconds !== undefined && elapsedSeconds(startedAt, event.now) >= limits.time_budget_seconds) stop = 'time_budget';

  const verdict: Verdict = stop === null ? 'retry' : stop === 'success' ? 'pass' : 'stop';
  const failingTests = [...new Set(checks.flatMap((c) => c.failing_tests ?? []))];
  const record: IterationRecord = {
    iteration: n,
    started_at: event.started_at,
    finished_at: event.now,
    duration_ms: event.duration_ms,
    passed: allPass,
    checks,
    fingerprint,
    ...(fingerprintStreak > 0 ? { fingerprint_streak: fingerprintStreak } : {}),
    progress: judged.progress,
    progress_reasons: judged.reasons,
    delta: { checks_fixed: delta.checks_fixed, tests_fixed: delta.tests_fixed, ...(delta.errors_fewer?.length ? { errors_fewer: delta.errors_fewer } : {}), ...(delta.failed_fewer?.length ? { failed_fewer: delta.failed_fewer } : {}), fingerprint_changed: delta.fingerprint_changed, ...(delta.failures_changed && !delta.fingerprint_changed ? { failures_changed: true } : {}), stage_advanced: delta.stage_advanced, novel_tree: delta.novel_tree, returned_to: delta.returned_to, returned_result: delta.returned_result ?? null, improved: judged.improved },
    diff_hash: event.diff_hash,
    files_changed: filesListed,
    files_changed_count: filesCount,
    ...(event.after_hash !== undefined && event.after_hash !== event.diff_hash ? { after_hash: event.after_hash } : {}),
    ...(event.declared_hash != null ? { declared_hash: event.declared_hash } : {}),
    ...(event.declared_after_hash != null && event.declared_after_hash !== event.declared_hash ? { declared_after_hash: event.declared_after_hash } : {}),
    ...(event.check_written && Object.keys(event.check_written).length > 0 ? { check_writes: Object.keys(event.check_written).slice(0, FILES_LISTED) } : {}),
    done_confirmed: event.done_confirmed,
    verdict,
    stop_reason: stop,
    tree: event.tree,
    ...(failingTests.length > 0 ? { failing_tests: failingTests } : {}),
    ...(findings.length > 0 ? { rule4_findings: findings } : {}),
    ...(event.rule4_approved?.length ? { rule4_approved: event.rule4_approved } : {}),
    ...(event.plan_checks_edited ? { plan_checks_edited: event.plan_checks_edited } : {}),
    ...(event.skipped_more?.length ? { skipped_more: event.skipped_more } : {}),
    ...(event.fewer_tests?.length ? { fewer_tests: event.fewer_tests } : {}),
    ...(event.tests_edited && allPass ? { tests_edited: event.tests_edited } : {}),
    ...(sameTreeFailed !== null ? { same_tree_failed: sameTreeFailed } : {}),
  };
  const warning = verdict === 'retry' ? warningFor(n, limits.max_iterations) : null;
  const state: LoopState = {
    ...loop,
    ...pinned,
    status: verdict === 'pass' ? 'passed' : verdict === 'stop' ? 'stopped' : 'running',
    stop_reason: stop,
    max_iterations: limits.max_iterations,
    iterations: [...loop.iterations, record],
    fingerprint_streak: fingerprintStreak,
    no_progress_streak: noProgressStreak,
    start_ref: startRef,
    ...(loop.start_ref === null && event.start_source ? { start_source: event.start_source } : {}),
    started_at: startedAt,
    updated_at: event.now,
    done_confirmed: verdict === 'pass' ? event.done_confirmed : loop.done_confirmed,
    escalation,
    handoff: null,
    total_duration_ms: loop.total_duration_ms + event.duration_ms,
    awaiting_confirmation: false,
    confirmations: 0,
    pending_confirmation: null,
    warning,
    tree_facts: treeFacts,
    ...(checkWritten ? { check_written: checkWritten } : {}),
    ...(!loop.baseline && event.baseline ? { baseline: event.baseline } : {}),
  };
  if (verdict === 'stop') state.handoff = buildHandoff(state, ctx);

  const failingCount = checks.filter(failed).length;
  const message =
    verdict === 'pass'
      ? `${label(state)} passed on iteration ${n}/${limits.max_iterations}${event.done_confirmed ? ' (manual done criteria confirmed)' : ''}.${sameTreeFailed !== null ? ` Note: ${sameTreeFailedText(sameTreeFailed)}.` : ''}`
      : verdict === 'retry'
        ? `${label(state)} failed iteration ${n}/${limits.max_iterations}: ${failingCount} of ${checks.length} check${checks.length === 1 ? '' : 's'} failing.`
        : `${label(state)} stopped with ${stop} after ${n}/${limits.max_iterations} iterations.`;
  const next =
    verdict === 'pass'
      ? passNext(state)
      : verdict === 'retry'
        ? `Repair the failure above (only what this task needs), then run \`${verifyCommand(state, ctx)}\` again.`
        : STOP_NEXT;
  return {
    state,
    decision: decisionOf(state, { counted: true, progress: judged.progress, progress_reasons: judged.reasons, fingerprint, warning, message, next }),
  };
}

/**
 * The repeated-fingerprint count of the earlier iteration whose result came back (delta.ts,
 * `returned_result`), when nothing improved since: A, S1, A, S2, A (the same failing test,
 * with a fresh syntax error between each try) is the same failure again and again, and a
 * detour that ends where it started neither resets the count nor adds to it. An improvement in
 * between (a test fixed, the error further along: a swap of which test fails) does reset it;
 * going round in circles through improvements is the no-progress rule's. Null: no such return.
 */
function countAfterReturn(iterations: IterationRecord[], returnedTo: number | null | undefined): number | null {
  if (returnedTo == null) return null;
  const k = iterations.findIndex((it) => it.iteration === returnedTo);
  if (k === -1 || iterations[k]!.passed) return null;
  if (iterations.slice(k + 1).some((it) => it.delta?.improved === true)) return null;
  return iterations[k]!.fingerprint_streak ?? 1;
}

/** The latest earlier iteration that failed on this very tree (the same progress key), or null. */
function failedOnTree(iterations: IterationRecord[], diffHash: string | null, declared: string | null): number | null {
  // The same code: the same key, and the task's named files as they were (when both were read).
  const same = (it: IterationRecord) => it.diff_hash === diffHash && (declared === null || it.declared_hash === undefined || it.declared_hash === declared);
  for (let i = iterations.length - 1; i >= 0; i--) if (!iterations[i]!.passed && same(iterations[i]!)) return iterations[i]!.iteration;
  return null;
}

/** How a pass on code that failed before is named in the answer and the Loop Report. */
export function sameTreeFailedText(iteration: number): string {
  return `the same code failed at iteration ${iteration} (the working tree is unchanged since): unless something outside it changed (dependencies installed, a service started), the checks are flaky and this pass may be luck`;
}

/** Applies one event to one loop. */
export function reduce(loop: LoopState, event: LoopEvent, ctx: LoopContext): ReduceResult {
  switch (event.type) {
    case 'iteration_verified':
      return reduceIteration(loop, event, ctx);

    case 'started': {
      if (isFinal(loop) || loop.status === 'passed') return ended(loop, ctx);
      // Before the first verify the agent may restart; once iterations exist the start stays put.
      if (loop.iterations.length > 0 && loop.start_ref !== null && !event.force) {
        return { state: loop, decision: decisionOf(loop, { message: `${label(loop)} already started at ${loop.started_at}; start point kept.`, next: `Implement the task, then run \`${verifyCommand(loop, ctx)}\`.` }) };
      }
      const baseline = event.baseline ?? loop.baseline ?? null;
      // A (re)start takes the plan's checks as they are now: the start tree is this working tree.
      const checksAtStart = event.checks_at_start ?? loop.checks_at_start;
      const settingsAtStart = event.settings_at_start ?? loop.settings_at_start;
      const state: LoopState = { ...resumed(loop), start_ref: event.start_ref, start_source: 'task_start', started_at: loop.started_at ?? event.now, updated_at: event.now, ...(baseline ? { baseline } : {}), ...(checksAtStart ? { checks_at_start: checksAtStart } : {}), ...(settingsAtStart ? { settings_at_start: settingsAtStart } : {}), ...(event.uncommitted_at_start || loop.uncommitted_at_start ? { uncommitted_at_start: event.uncommitted_at_start ?? null } : {}) };
      return { state, decision: decisionOf(state, { message: `${label(loop)} started.`, next: `Implement the task, then run \`${verifyCommand(loop, ctx)}\`.` }) };
    }

    case 'escalated': {
      // Rule 4 is never bypassed: it stops the loop whatever state it was in.
      const base = resumed(loop);
      return stopWith(base, ctx, event.now, 'rule4_architectural', { escalation: event.escalation }, `${label(loop)} escalated under Rule 4: an architectural decision is needed.`);
    }

    case 'interrupted': {
      if (isFinal(loop) || loop.status === 'passed') return ended(loop, ctx);
      const base = resumed(loop);
      return stopWith(
        base,
        ctx,
        event.now,
        'interrupted',
        { interrupted: { at: event.now, cause: event.cause, signal: event.signal ?? null } },
        `${label(loop)} interrupted (${event.cause === 'stop_flag' ? 'STOP flag file' : event.signal ?? event.cause}); state saved at ${loop.iterations.length}/${loop.max_iterations} iterations.`,
      );
    }

    case 'reset': {
      const fresh = newLoopState({ scope: loop.scope, task_number: loop.task_number, task_name: loop.task_name, max_iterations: ctx.limits.max_iterations });
      // The user's work in the tree it restarts on (reset-task.ts): a git command taking it is still seen.
      const state: LoopState = { ...fresh, ...withSegment(loop, event.now, 'reset'), start_ref: event.start_ref, start_source: 'reset', updated_at: event.now, ...(event.uncommitted_at_start ? { uncommitted_at_start: event.uncommitted_at_start } : {}), ...(loop.session ? { session: loop.session } : {}) };
      return { state, decision: decisionOf(state, { message: `${label(loop)}'s loop was reset (${loop.iterations.length} iteration${loop.iterations.length === 1 ? '' : 's'} kept in its history; the budget starts again).`, next: `Run \`${verifyCommand(loop, ctx)}\` after the next change.` }) };
    }

    case 'approved': {
      // The same start point: the approved change stays in the diff and the approval (plan
      // state) subtracts it, so a different architectural change is still caught.
      const fresh = newLoopState({ scope: loop.scope, task_number: loop.task_number, task_name: loop.task_name, max_iterations: ctx.limits.max_iterations });
      const state: LoopState = {
        ...fresh,
        ...withSegment(loop, event.now, 'approve'),
        start_ref: loop.start_ref,
        start_source: loop.start_source ?? null,
        started_at: loop.started_at,
        updated_at: event.now,
        ...(loop.baseline ? { baseline: loop.baseline } : {}),
        ...(loop.check_written ? { check_written: loop.check_written } : {}),
        ...(loop.checks_at_start ? { checks_at_start: loop.checks_at_start } : {}),
        ...(loop.settings_at_start ? { settings_at_start: loop.settings_at_start } : {}),
        ...(loop.uncommitted_at_start ? { uncommitted_at_start: loop.uncommitted_at_start } : {}),
        ...(loop.session ? { session: loop.session } : {}),
      };
      const what = event.findings.length > 0 ? event.findings.join('; ') : 'the architectural change the agent proposed';
      return {
        state,
        decision: decisionOf(state, {
          message: `${label(loop)}: Rule 4 change approved (${what}); the loop starts again with a fresh budget from the same start point.`,
          next: `Continue the ${loop.scope === 'plan' ? 'plan' : 'task'} with the approved change, then run \`${verifyCommand(loop, ctx)}\`.`,
        }),
      };
    }

    case 'deferred': {
      if (loop.status === 'passed') return ended(loop, ctx);
      // A loop that had stopped keeps why it stopped (the report shows it); a running one stops as `deferred`.
      const stopReason = loop.status === 'stopped' && loop.stop_reason !== null && loop.stop_reason !== 'interrupted' ? loop.stop_reason : 'deferred';
      const state: LoopState = { ...loop, status: 'stopped', stop_reason: stopReason, deferred: event.deferral, interrupted: null, awaiting_confirmation: false, updated_at: event.now, handoff: loop.handoff };
      return { state, decision: decisionOf(state, { message: `${label(loop)} deferred: ${event.deferral.reason}`, next: 'Note the task under "Deferred Issues" in the SUMMARY and go on with the next task.' }) };
    }

    case 'budget_exhausted': {
      if (isFinal(loop) || loop.status === 'passed') return ended(loop, ctx);
      const stop: StopReason = event.budget === 'time' ? 'time_budget' : 'token_budget';
      return stopWith(resumed(loop), ctx, event.now, stop, { stop_detail: event.detail }, `${label(loop)} stopped: the ${event.budget} budget ran out (${event.detail}).`);
    }

    case 'query': {
      if (isFinal(loop) || loop.status === 'passed') return ended(loop, ctx);
      return { state: loop, decision: decisionOf(loop, { message: `${label(loop)}: ${loop.iterations.length}/${loop.max_iterations} iterations, ${loop.status}.`, next: `Run \`${verifyCommand(loop, ctx)}\` after the next change.` }) };
    }

    case 'blocked': {
      if (isFinal(loop) || loop.status === 'passed') return ended(loop, ctx);
      return stopWith(resumed(loop), ctx, event.now, 'blocked', { stop_detail: event.reason }, `${label(loop)} is blocked: ${event.reason}`);
    }
  }
}
