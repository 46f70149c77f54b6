/**
 * `ralf status [PLAN.md] [--cwd DIR] [--json]`: the recorded loops of one plan, or of
 * every plan with state under the project's .planning/ralf/. Reads JSON state only
 * (no config, plan parsing, zod or execa): it must start about as fast as node itself.
 */
import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style, table, writeStderr } from '../cli/output.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { findProjectRoot, planIdFromPath, projectRelative, projectRootForPlan, statePaths } from '../engine/shell/paths.js';
import { summarizePlan, type PlanSummary } from '../engine/core/status.js';
import { loopRow } from '../engine/cli/status-row.js';
import { listPlanIds, readPlanStateFile, stateIdOfPlan, stopFlagPresent } from '../engine/shell/store.js';

export const USAGE = 'ralf status [PLAN.md] [--cwd DIR] [--json]';

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

  if (values.json) {
    printJson({ project_root: projectRoot, stop_flag: stopFlag, plans, ...(planPath ? { state: states[0] ?? null } : { problems }) });
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
    if (p.loops.length > 0) out.push(table(['task', 'name', 'status', 'iter', 'stop reason', 'last fingerprint'], p.loops.map(loopRow)));
    else out.push('  no loops run yet');
    for (const t of p.not_looped) out.push(s.dim(`  task ${t.number} not looped (${t.decision}): ${t.reason}`));
    if (p.plan_not_looped) out.push(s.dim(`  plan-level loop not run (${p.plan_not_looped.decision}): ${p.plan_not_looped.reason}`));
    for (const l of p.loops) if (l.warning && l.status === 'running') out.push(s.yellow(`  warning (${l.scope === 'plan' ? 'plan' : `task ${l.task}`}): ${l.warning}`));
  }
  if (stopFlag) out.push('', s.yellow('STOP flag present (.planning/ralf/STOP): every loop pauses (exit 130) until you delete it.'));
  printText(out.join('\n'));
  for (const p of problems) writeStderr(`ralf: ${p.message}\n`);
  return exitCode;
}
