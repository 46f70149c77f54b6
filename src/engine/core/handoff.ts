/**
 * The handoff: what the loop gives the human when it stops without success (pure).
 * Same content as JSON (the `Handoff` contract) and as Markdown in GSD's
 * `## CHECKPOINT REACHED` shape (see handoff-markdown.ts).
 */
import { alreadyFailing, type Baseline } from './baseline.js';
import { failed } from './check-status.js';
import { resetCommand, verifyCommand } from './commands.js';
import { loopTaskNumber } from './loop-state.js';
import type { LoopContext } from './events.js';
import { renderHandoffMarkdown } from './handoff-markdown.js';
import { lastLines, oneLine } from './tail.js';
import type { Handoff, IterationRecord, LoopState, RecommendedAction, StopReason } from './types.js';
// A Rule 4 stop is answered with an approval.
import { approveCommand } from './commands.js';

/** Lines of output kept per still-failing check in the handoff (the verify output shows more). */
export const HANDOFF_TAIL_LINES = 20;

/**
 * Checks (and tests) that failed before the last iteration and pass in it: in an earlier
 * iteration, or on the untouched tree where the loop started (the baseline), so a test the
 * agent fixed at iteration 1 is listed too.
 */
export function autoFixed(iterations: IterationRecord[], baseline?: Baseline | null): string[] {
  const last = iterations.at(-1);
  if (!last) return [];
  const out: string[] = [];
  const failedBefore = new Set<string>();
  const testsBefore = new Set<string>();
  for (const f of baseline?.failing ?? []) {
    failedBefore.add(f.command);
    for (const t of f.failing_tests ?? []) testsBefore.add(t);
  }
  for (const it of iterations.slice(0, -1)) {
    for (const c of it.checks) {
      if (failed(c)) failedBefore.add(c.command);
      for (const t of c.failing_tests ?? []) testsBefore.add(t);
    }
  }
  for (const c of last.checks) if (c.passed && failedBefore.has(c.command) && !out.includes(c.command)) out.push(c.command);
  const stillFailingTests = new Set(last.checks.flatMap((c) => c.failing_tests ?? []));
  // A test that stopped failing only counts when its check still ran and reported tests.
  const reported = last.checks.some((c) => c.passed || (c.failing_tests ?? []).length > 0);
  if (reported) for (const t of testsBefore) if (!stillFailingTests.has(t)) out.push(`test: ${t}`);
  return out;
}

/**
 * The loop ran out while getting somewhere (needs at least two iterations to tell): every
 * iteration after the first made progress (a tree not seen before), and at least half of them
 * improved what the checks show (a check or test fixed, the same errors in fewer places, the
 * error further along). That is a task too big for one loop. A new tree with a new error each
 * time and nothing fixed (a guessed value after another, one syntax error after another) is not:
 * splitting the task would not help, a human has to look. An iteration recorded without a delta
 * (an older state file) counts as improved, as it did.
 */
export function steadyProgress(iterations: IterationRecord[]): boolean {
  const repeats = iterations.slice(1);
  if (repeats.length === 0 || !repeats.every((it) => it.progress)) return false;
  const improved = repeats.filter((it) => it.delta?.improved !== false).length;
  return improved * 2 >= repeats.length;
}

export function recommendedAction(loop: LoopState): RecommendedAction {
  switch (loop.stop_reason) {
    case 'rule4_architectural':
      return 'decision_needed';
    case 'max_iterations':
    case 'time_budget':
    case 'token_budget':
      return steadyProgress(loop.iterations) ? 'split_task' : 'manual_investigation';
    case 'repeated_fingerprint':
    case 'no_progress':
    case 'blocked':
      return 'manual_investigation';
    case 'unconfirmed':
      return 'decision_needed';
    default:
      return 'none';
  }
}

function subject(loop: LoopState): string {
  return loop.scope === 'plan' ? 'the plan-level verification' : `Task ${loop.task_number}`;
}

function resetHint(loop: LoopState, ctx: LoopContext): string {
  return `\`${resetCommand(ctx.plan_path, loopTaskNumber(loop), ctx.invocation)}\``;
}

function approveHint(loop: LoopState, ctx: LoopContext): string {
  return `\`${approveCommand(ctx.plan_path, loopTaskNumber(loop), ctx.invocation)}\``;
}

function recommendation(loop: LoopState, ctx: LoopContext, action: RecommendedAction): string {
  const n = loop.iterations.length;
  const last = loop.iterations.at(-1);
  const fp = last?.fingerprint ? `\`${oneLine(last.fingerprint, 120)}\`` : 'the same error';
  const reset = resetHint(loop, ctx);
  const progressed = loop.iterations.slice(1).filter((it) => it.progress).length;
  switch (loop.stop_reason) {
    case 'rule4_architectural': {
      const e = loop.escalation;
      if (e?.source === 'diff_guard') {
        return `The changes since ${subject(loop)} started include ${e.findings?.length ? e.findings.join('; ') : 'architectural changes'}, which deviation Rule 4 reserves for a human decision. Review the change and choose: proceed with it, take a different approach, or defer it. To proceed, run ${approveHint(loop, ctx)}: the approval is recorded, the guard of this task, every later task and the plan-level loop no longer flags these findings, and the agent continues with the change in place. For a different approach, revert the change and run ${reset}.`;
      }
      return `The agent reports that finishing ${subject(loop)} needs an architectural change (Rule 4): ${oneLine(e?.reason ?? 'no reason given', 400)}. GSD never applies Rule 4 changes on its own: decide whether to proceed with the proposed change, take a different approach, or defer it. To proceed, run ${approveHint(loop, ctx)} (what this task's guard then finds until it passes is approved with it) and let the agent make the change; for a different approach, run ${reset} and tell the agent.`;
    }
    case 'max_iterations':
    case 'time_budget':
    case 'token_budget': {
      const why = loop.stop_reason === 'max_iterations' ? `all ${n} iterations (max_iterations)` : `its ${loop.stop_reason === 'time_budget' ? 'time' : 'token'} budget${loop.stop_detail ? ` (${loop.stop_detail})` : ''} after ${n} iteration${n === 1 ? '' : 's'}`;
      if (action === 'split_task') {
        return `Every iteration made progress and most fixed something, but ${subject(loop)} did not converge: the loop used ${why}. The task is probably too large for one loop. Split it into smaller tasks with their own \`<verify>\` steps, or raise max_iterations and run ${reset} to give it another round.`;
      }
      return `The loop used ${why}; ${progressed} of ${Math.max(n - 1, 0)} repeat iteration${n - 1 === 1 ? '' : 's'} made progress and ${fp} is still failing. Investigate the still-failing checks below by hand, fix the cause or clarify the task, then run ${reset} to loop again.`;
    }
    case 'repeated_fingerprint':
      return `The same error ${fp} came back ${loop.fingerprint_streak} times in a row: the agent's fixes are not reaching its cause. Investigate the still-failing check by hand (output below), fix the cause or sharpen the task's instructions, then run ${reset} to loop again.`;
    case 'no_progress':
      return `${loop.no_progress_streak} iteration${loop.no_progress_streak === 1 ? '' : 's'} in a row brought no tree the loop had not seen before (nothing changed, a change was undone, or the agent went back and forth between the same states). The agent is stuck: investigate the still-failing checks by hand, then run ${reset} to loop again.`;
    case 'unconfirmed':
      return `Every check of ${subject(loop)} passes, but the agent was asked ${loop.confirmations ?? 0} times to confirm the manual done criteria and never did. Check the criteria yourself: if they hold, run \`${verifyCommand(ctx.plan_path, loopTaskNumber(loop), ctx.invocation)} --done-confirmed\`; otherwise tell the agent what is missing and run ${reset}.`;
    case 'blocked':
      return `The agent is blocked${loop.stop_detail ? `: ${oneLine(loop.stop_detail, 400)}` : ''}. A human has to act (for example log in or provide a secret); then run ${reset} to loop again.`;
    case 'interrupted':
      return `The loop was interrupted (${loop.interrupted?.cause === 'stop_flag' ? 'the .planning/ralf/STOP flag file' : loop.interrupted?.signal ?? 'signal'}); nothing was lost. Remove .planning/ralf/STOP if present and run \`${verifyCommand(ctx.plan_path, loopTaskNumber(loop), ctx.invocation)}\` to continue with iteration ${n + 1}.`;
    default:
      return '';
  }
}

export function buildHandoff(loop: LoopState, ctx: LoopContext): Handoff {
  const stopReason: StopReason = loop.stop_reason ?? 'max_iterations';
  const last = loop.iterations.at(-1);
  const action = recommendedAction(loop);
  const handoff: Omit<Handoff, 'markdown'> = {
    scope: loop.scope,
    task_number: loop.task_number,
    task_name: loop.task_name,
    stop_reason: stopReason,
    iterations: loop.iterations.length,
    max_iterations: loop.max_iterations,
    fingerprints: loop.iterations.map((it) => ({ iteration: it.iteration, fingerprint: it.passed ? null : it.fingerprint })),
    auto_fixed: autoFixed(loop.iterations, loop.baseline),
    files_changed: last?.files_changed ?? [],
    still_failing:
      last && !last.passed
        ? last.checks.filter(failed).map((c) => ({ command: c.command, fingerprint: c.fingerprint, output_tail: lastLines(c.output_tail, HANDOFF_TAIL_LINES, 2000) }))
        : [],
    ...(loop.baseline?.failing.length ? { already_failing: alreadyFailing(loop.baseline, last?.checks) } : {}),
    recommended_action: action,
    recommendation: recommendation(loop, ctx, action),
    escalation: loop.escalation ?? null,
  };
  return { ...handoff, markdown: renderHandoffMarkdown(handoff, loop, ctx) };
}
