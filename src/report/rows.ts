/**
 * Joins the plan's tasks with the recorded loop state into one row per task (plus the
 * plan-level loop). Pure: the plan says what should be looped, the state says what happened.
 */
import { failed } from '../engine/core/check-status.js';
import { alreadyFailingEntries } from '../engine/core/baseline.js';
import { autoFixed } from '../engine/core/handoff.js';
import { editedKind } from '../engine/core/test-files.js';
import type { LoopState, NotLoopedTask, Rule4Approval } from '../engine/core/types.js';
import type { TaskDecisionKind } from '../plan/model.js';
import { configValue } from './config-values.js';
import type { ReportInput, ReportPlanTask, ReportRow, ReportSegment, RowStopReason } from './types.js';

function stopReasonOf(loop: LoopState): RowStopReason {
  if (loop.stop_reason) return loop.stop_reason;
  if (loop.status === 'passed') return 'success';
  if (loop.status === 'running' || loop.iterations.length > 0 || (loop.segments?.length ?? 0) > 0) return 'running';
  return 'not run';
}

function verifyMs(loop: LoopState): number {
  const iterations = [...(loop.segments ?? []).flatMap((s) => s.iterations), ...loop.iterations];
  const sum = iterations.reduce((total, it) => total + (Number.isFinite(it.duration_ms) ? it.duration_ms : 0), 0);
  return iterations.length > 0 ? sum : Number.isFinite(loop.total_duration_ms) ? loop.total_duration_ms : 0;
}

function segmentsOf(loop: LoopState): ReportSegment[] {
  return (loop.segments ?? []).map((s) => ({
    iterations: s.iterations.length,
    stop_reason: s.stop_reason ?? (s.status === 'passed' ? 'success' : s.iterations.length > 0 ? 'running' : 'not run'),
    ended_by: s.ended_by,
    escalation: s.escalation?.reason ?? null,
    fingerprints: s.iterations.map((it) => ({ iteration: it.iteration, fingerprint: it.passed ? null : it.fingerprint })),
  }));
}

/** What a human approved for this loop: its approvals' findings, and findings its iterations recorded as approved. */
function approvedFor(loop: LoopState, approvals: Rule4Approval[], key: string | null): string[] {
  const own = approvals.filter((a) => a.scope === loop.scope && (loop.scope === 'plan' || a.task_key === key || (a.task_key === null && a.task_number === loop.task_number)));
  const seen = [...(loop.segments ?? []).flatMap((s) => s.iterations), ...loop.iterations].flatMap((it) => it.rule4_approved ?? []);
  return [...new Set([...own.flatMap((a) => (a.findings.length > 0 ? a.findings : [a.reason])), ...seen])];
}

function stillFailing(loop: LoopState): string[] {
  if (loop.handoff) return loop.handoff.still_failing.map((s) => s.command);
  const last = loop.iterations.at(-1);
  if (!last || last.passed) return [];
  return [...new Set(last.checks.filter(failed).map((c) => c.command))];
}

function loopRow(base: Pick<ReportRow, 'scope' | 'number' | 'name' | 'type'>, loop: LoopState, approvals: Rule4Approval[] = [], key: string | null = null): ReportRow {
  const handoff = loop.handoff;
  const segments = segmentsOf(loop);
  const approved = approvedFor(loop, approvals, key);
  const edited = [...new Set([...(loop.segments ?? []).flatMap((s) => s.iterations), ...loop.iterations].flatMap((it) => (it.plan_checks_edited ? (it.plan_checks_edited.length > 0 ? it.plan_checks_edited : ['(no checks)']) : [])))];
  const skipped = (loop.iterations.at(-1)?.skipped_more ?? []).map((m) => `${m.command.split('\n')[0]}: ${m.before} → ${m.now}`);
  const fewer = (loop.iterations.at(-1)?.fewer_tests ?? []).map((m) => `${m.command.split('\n')[0]}: ${m.before} → ${m.now}`);
  const testsEdited = loop.iterations.at(-1)?.tests_edited;
  const sameTreeFailed = loop.status === 'passed' ? loop.iterations.at(-1)?.same_tree_failed : undefined;
  return {
    ...(segments.length > 0 ? { segments, iterations_total: segments.reduce((n, s) => n + s.iterations, 0) + loop.iterations.length } : {}),
    ...(approved.length > 0 ? { approved } : {}),
    ...(edited.length > 0 ? { checks_edited: edited } : {}),
    ...(skipped.length > 0 ? { skipped_more: skipped } : {}),
    ...(fewer.length > 0 ? { fewer_tests: fewer } : {}),
    ...(testsEdited ? { tests_edited: { since: testsEdited.since, kind: editedKind(testsEdited.paths), paths: testsEdited.count > testsEdited.paths.length ? [...testsEdited.paths, `and ${testsEdited.count - testsEdited.paths.length} more`] : testsEdited.paths } } : {}),
    ...(sameTreeFailed !== undefined ? { same_tree_failed: sameTreeFailed } : {}),
    ...(loop.deferred ? { deferred: loop.deferred.reason } : {}),
    ...base,
    decision: 'loop',
    reason: '',
    iterations: loop.iterations.length,
    max_iterations: loop.max_iterations,
    stop_reason: stopReasonOf(loop),
    verify_ms: verifyMs(loop),
    fingerprints: handoff?.fingerprints ?? loop.iterations.map((it) => ({ iteration: it.iteration, fingerprint: it.passed ? null : it.fingerprint })),
    auto_fixed: handoff?.auto_fixed ?? autoFixed(loop.iterations, loop.baseline),
    still_failing: stillFailing(loop),
    ...(loop.baseline?.failing.length ? { already_failing: alreadyFailingEntries(loop.baseline, loop.iterations.at(-1)?.checks) } : {}),
    recommended_action: handoff?.recommended_action ?? null,
    recommendation: handoff?.recommendation ?? null,
    escalation: loop.escalation?.reason ?? handoff?.escalation?.reason ?? null,
    detail: loop.stop_detail ?? null,
    awaiting_confirmation: loop.awaiting_confirmation === true,
  };
}

function idleRow(
  base: Pick<ReportRow, 'scope' | 'number' | 'name' | 'type'>,
  decision: TaskDecisionKind,
  reason: string,
  maxIterations: number | null,
): ReportRow {
  return {
    ...base,
    decision,
    reason,
    iterations: 0,
    max_iterations: decision === 'loop' ? maxIterations : null,
    stop_reason: decision === 'loop' ? 'not run' : null,
    verify_ms: 0,
    fingerprints: [],
    auto_fixed: [],
    still_failing: [],
    recommended_action: null,
    recommendation: null,
    escalation: null,
    detail: null,
    awaiting_confirmation: false,
  };
}

function findLoop(loops: Record<string, LoopState>, n: number): { key: string | null; loop: LoopState } | null {
  if (loops[String(n)]) return { key: String(n), loop: loops[String(n)]! };
  const hit = Object.entries(loops).find(([, l]) => l.task_number === n);
  return hit ? { key: hit[0], loop: hit[1] } : null;
}

/** A recorded loop counts once it has run; an idle loop record defers to the plan's decision. */
const hasRun = (loop: LoopState | null): boolean => loop !== null && (loop.iterations.length > 0 || loop.status !== 'idle' || (loop.segments?.length ?? 0) > 0);

export function reportRows(input: ReportInput): ReportRow[] {
  const { state, plan, config } = input;
  const maxIterations = typeof configValue(config.values, 'max_iterations') === 'number' ? (configValue(config.values, 'max_iterations') as number) : null;
  const loops = state?.tasks ?? {};
  const approvals = state?.approvals ?? [];
  const notLooped: NotLoopedTask[] = state?.not_looped ?? [];
  const rows: ReportRow[] = [];
  const seen = new Set<number>();

  const taskRow = (task: ReportPlanTask) => {
    const base = { scope: 'task' as const, number: task.number, name: task.name, type: task.type };
    const found = findLoop(loops, task.number);
    const loop = found?.loop ?? null;
    if (loop && hasRun(loop)) return loopRow(base, loop, approvals, found!.key);
    // What the loop recorded when it ran beats a decision made from the plan afterwards.
    const recorded = notLooped.find((t) => t.number === task.number);
    const decided = recorded ?? task;
    return idleRow(base, decided.decision, decided.reason, loop?.max_iterations ?? maxIterations);
  };

  for (const task of plan.tasks) {
    rows.push(taskRow(task));
    seen.add(task.number);
  }
  // Tasks known only from the state (the plan changed since, or could not be read).
  for (const [key, loop] of Object.entries(loops)) {
    if (loop.task_number === null || seen.has(loop.task_number)) continue;
    seen.add(loop.task_number);
    rows.push(loopRow({ scope: 'task', number: loop.task_number, name: loop.task_name, type: null }, loop, approvals, key));
  }
  for (const t of notLooped) {
    if (seen.has(t.number)) continue;
    seen.add(t.number);
    rows.push(idleRow({ scope: 'task', number: t.number, name: t.name, type: t.type }, t.decision, t.reason, null));
  }
  rows.sort((a, b) => (a.number ?? 0) - (b.number ?? 0));

  const planLoop = state?.plan ?? null;
  if (planLoop && hasRun(planLoop)) {
    rows.push(loopRow({ scope: 'plan', number: null, name: planLoop.task_name || 'Plan-level loop', type: null }, planLoop, approvals, null));
  } else if (plan.autonomous === true || planLoop || state?.plan_not_looped) {
    const decided = plan.plan_decision ?? state?.plan_not_looped ?? derivedPlanDecision(config.values);
    rows.push(idleRow({ scope: 'plan', number: null, name: 'Plan-level loop', type: null }, decided.decision, decided.reason, planLoop?.max_iterations ?? maxIterations));
  }
  return rows;
}

function derivedPlanDecision(values: Record<string, unknown>): { decision: TaskDecisionKind; reason: string } {
  if (configValue(values, 'enabled') === false) return { decision: 'skip', reason: 'the loop is disabled (enabled: false)' };
  if (configValue(values, 'apply_to.autonomous_plans') === false) return { decision: 'skip', reason: 'apply_to.autonomous_plans is false' };
  return { decision: 'loop', reason: '' };
}
