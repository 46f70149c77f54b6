/**
 * `ralf status [PLAN.md] [--cwd DIR] [--json]`: the recorded loops of one plan, or of
 * every plan with state under the project's .planning/ralf/. Reads JSON state only
 * (no config, plan parsing, zod or execa): it must start about as fast as node itself.
 */
import { relative, resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style, table, writeStderr } from '../cli/output.js';
import { oneLine } from '../engine/core/tail.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { findProjectRoot, planIdFromPath, projectRelative, projectRootForPlan, statePaths } from '../engine/shell/paths.js';
import { lastHandoff, summarizePlan, type PlanSummary } from '../engine/core/status.js';
import type { PlanLoopRow, PlanStatus } from '../engine/core/task-status.js';
import { reportCommand, verifyCommand } from '../engine/core/commands.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { loopRow } from '../engine/cli/status-row.js';
import { listPlanIds, readPlanStateFile, stateIdOfPlan, stopFlagPresent } from '../engine/shell/store.js';

export const USAGE = 'ralf status [PLAN.md] [--cwd DIR] [--json]   (with a PLAN: every task as passed, stopped, deferred, running or not_started, where to resume, the last handoff)';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {}, USAGE);
  const [planArg, ...extra] = positionals;
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`, `usage: ${USAGE}`);
  const cwd = resolve(values.cwd ?? process.cwd());

  let projectRoot: string | null;
  let planIds: string[];
  let planPath: string | null = null;
  if (planArg !== undefined) {
    planPath = resolve(cwd, planArg);
    projectRoot = projectRootForPlan(planPath) ?? findProjectRoot(cwd);
    planIds = projectRoot ? [stateIdOfPlan(projectRoot, planPath)] : [planIdFromPath(planPath)];
  } else {
    projectRoot = findProjectRoot(cwd);
    planIds = projectRoot ? listPlanIds(projectRoot) : [];
  }
  if (!projectRoot) {
    throw new RalfError('no_project', `no .planning/ directory found from ${planPath ?? cwd}`, {
      problems: [{ message: 'no GSD project here', hint: 'Run inside a GSD project (a directory with .planning/) or pass --cwd DIR.' }],
    });
  }

  const plans: PlanSummary[] = [];
  const states = [];
  // Listing every plan: one unreadable state file must not hide the others.
  const problems: Array<{ plan_id: string; kind: string; message: string }> = [];
  for (const id of planIds) {
    const path = statePaths(projectRoot, id).state;
    let state;
    try {
      state = readPlanStateFile(path);
    } catch (err) {
      if (planPath || !(err instanceof RalfError)) throw err;
      problems.push({ plan_id: id, kind: err.kind, message: err.message });
      continue;
    }
    if (!state) continue;
    states.push(state);
    plans.push(summarizePlan(state, projectRelative(projectRoot, path)));
  }
  const exitCode = problems.length > 0 ? ExitCode.badInput : ExitCode.ok;
  const stopFlag = stopFlagPresent(projectRoot);

  // One plan: every task of it, where to resume, and the last handoff. Reading the plan needs
  // the config and parser (the plan cache makes a repeat cheap); without a readable plan the
  // recorded loops still show.
  let perTask: PlanStatus | null = null;
  let planWarning: string | null = null;
  if (planPath) {
    try {
      const { loadPlanStatusModule } = await import('../bundle/plan-status.js');
      const { readPlanStatus } = await loadPlanStatusModule();
      perTask = await readPlanStatus(planPath, states[0] ?? null, { cwd: values.cwd });
    } catch (err) {
      // A plan that cannot be read and has no loop recorded (a typo, a moved file) is an error,
      // not "nothing verified yet": there is nothing to show.
      if (!(err instanceof RalfError) || states.length === 0) throw err;
      planWarning = `the plan could not be read (${err.message}); showing the recorded loops only`;
    }
  }
  const handoff = planPath ? lastHandoff(states[0] ?? null) : null;

  if (values.json) {
    const onePlan = planPath
      ? {
          // Not the whole state file (plans[].state_path names it): with a few iterations' output
          // tails it outgrew what a host hands its model of one tool result (Claude Code keeps
          // 30,000 characters and shows a 2 KB preview), so an agent resuming a plan never saw
          // `resume_at` and redid a passed task.
          tasks: perTask?.tasks ?? null,
          resume_at: perTask?.resume_at ?? null,
          tasks_complete: perTask?.tasks_complete ?? null,
          plan_loop: perTask?.plan_loop ?? null,
          approvals: states[0]?.approvals ?? [],
          last_handoff: handoff,
          ...(planWarning ? { warning: planWarning } : {}),
        }
      : { problems };
    printJson({ project_root: projectRoot, stop_flag: stopFlag, plans, ...onePlan });
    return exitCode;
  }

  const s = style();
  const out: string[] = [];
  if (plans.length === 0 && problems.length === 0) {
    out.push(planPath ? `${projectRelative(projectRoot, planPath)}: no loop state yet (nothing verified).` : `No loop state under ${projectRelative(cwd, resolve(projectRoot, '.planning/ralf')) || '.planning/ralf'}.`);
  }
  for (const p of plans) {
    if (out.length > 0) out.push('');
    out.push(`${s.bold(`Plan ${p.plan_id}`)} ${s.dim(`${p.plan_path} — updated ${p.updated_at}`)}`);
    // With the plan at hand the task table below lists every task; here only the loops it cannot show.
    const loops = perTask ? p.loops.filter((l) => l.scope === 'plan') : p.loops;
    if (loops.length > 0) out.push(table(['task', 'name', 'status', 'iter', 'stop reason', 'last fingerprint'], loops.map(loopRow)));
    else if (!perTask) out.push('  no loops run yet');
    if (!perTask) for (const t of p.not_looped) out.push(s.dim(`  task ${t.number} not looped (${t.decision}): ${t.reason}`));
    if (p.plan_not_looped) out.push(s.dim(`  plan-level loop not run (${p.plan_not_looped.decision}): ${p.plan_not_looped.reason}`));
    for (const l of p.loops) if (l.warning && l.status === 'running') out.push(s.yellow(`  warning (${l.scope === 'plan' ? 'plan' : `task ${l.task}`}): ${l.warning}`));
  }
  if (perTask) {
    out.push('');
    out.push(
      table(
        ['task', 'name', 'status', 'iterations', 'commit / note'],
        perTask.tasks.map((t) => [
          String(t.number),
          oneLine(t.name, 40),
          t.status === 'stopped' && t.stop_reason ? `stopped (${t.stop_reason})` : t.status === 'passed' && t.done_by && t.done_by !== 'loop' ? `passed (${t.done_by})` : t.status,
          t.decision === 'loop' ? `${t.iterations_total}${t.segments > 1 ? ` in ${t.segments} segments` : ''}` : `— (${t.decision})`,
          t.commit ?? (t.deferred ? `deferred: ${oneLine(t.deferred.reason, 50)}` : t.note ? 'taken as done' : ''),
        ]),
      ),
    );
    const next = perTask.tasks.find((t) => t.number === perTask!.resume_at);
    out.push(next ? `Resume at task ${next.number}: ${oneLine(next.name, 60)} (${next.status === 'stopped' ? `stopped with ${next.stop_reason}: the human decides first, see the handoff below` : next.status.replace('_', ' ')}).` : afterEveryTask(perTask.plan_loop, relative(process.cwd(), planPath!) || '.', commandInvocation()));
  }
  if (planWarning) out.push(s.yellow(`warning: ${planWarning}`));
  const approvals = planPath ? (states[0]?.approvals ?? []) : [];
  for (const a of approvals) out.push(`Approved (Rule 4, ${a.scope === 'plan' ? 'plan-level loop' : `task ${a.task_number}`}, ${a.at}): ${a.findings.length > 0 ? a.findings.join('; ') : a.reason}${a.open ? ' (and what the task finds until it passes)' : ''}${a.note ? ` — "${a.note}"` : ''}`);
  if (handoff) out.push('', s.bold(`Last handoff (${handoff.scope === 'plan' ? 'plan-level loop' : `task ${handoff.task}`}, ${handoff.stop_reason}, ${handoff.at}):`), '', handoff.handoff.markdown);
  if (stopFlag) out.push('', s.yellow('STOP flag present (.planning/ralf/STOP): every loop pauses (exit 130) until you delete it.'));
  printText(out.join('\n'));
  for (const p of problems) writeStderr(`ralf: ${p.message}\n`);
  return exitCode;
}

/** What comes once every task passed or was deferred: the plan-level loop where it applies, then the SUMMARY. */
function afterEveryTask(planLoop: PlanLoopRow, plan: string, invocation: string): string {
  const done = 'Every task passed or was deferred';
  const report = `\`${reportCommand(plan, invocation)}\``;
  if (planLoop.decision !== 'loop') return `${done}; no plan-level loop (${planLoop.reason}). Next: the SUMMARY, and its Loop Report: ${report}.`;
  if (planLoop.status === 'passed') return `${done}, and the plan-level loop passed. Next: the SUMMARY, and its Loop Report: ${report}.`;
  if (planLoop.status === 'stopped') return `${done}; the plan-level loop stopped with ${planLoop.stop_reason}: the human decides first, see the handoff below.`;
  return `${done}. Next: the plan-level loop (\`${verifyCommand(plan, null, invocation)}\`), then the SUMMARY.`;
}

