/**
 * The headless driver behind `ralf run`: a fresh agent process per iteration, the loop
 * decided by the engine (verify in-process, same state and log as `ralf task verify`).
 *
 * Per plan, tasks in order:
 *   loop task    start (engine snapshot) → [agent → verify]* until pass / stop; commit on
 *                pass; on stop restore the task's files and end the run with the handoff
 *   skip task    not objectively verifiable: the agent runs once, unverified
 *   refuse task  a checkpoint: stop the run and show what the human must do, unless the
 *                human already answered it (`--resume-signal`)
 * Then the plan-level loop (autonomous plans), and the Loop Report.
 * A BLOCKED promise records `blocked`, restores the task's files and moves on.
 * Budgets, Ctrl-C and hard agent failures end the run; state is saved, so `ralf run` again
 * resumes where it stopped (with the iteration counts the engine kept).
 */
import type { RalfLiteConfig } from '../config/schema.js';
import type { EngineDeps } from '../engine/shell/deps.js';
import { isFinal } from '../engine/core/loop-state.js';
import { approveCommand, deferCommand, resetCommand, shellWord, verifyCommand } from '../engine/core/commands.js';
import { loopOf } from '../engine/core/find-loop.js';
import { commandInvocation, commandInvocationIn } from '../engine/shell/invocation.js';
import { isBundled } from '../bundle/require-bundle.js';
import { readPlanState, stateIdOfPlan, stopFlagPresent } from '../engine/shell/store.js';
import { statePaths } from '../engine/shell/paths.js';
import type { LoopState, PlanState, StopReason } from '../engine/core/types.js';
import type { Plan, PlanTask } from '../plan/model.js';
import { copilotLabel } from '../formats/copilot-ralf.js';
import { itemKey } from '../formats/item-identity.js';
import type { TaskResult } from '../formats/target.js';
import { ExitCode } from '../exit-codes.js';
import type { AgentAdapter } from './agents/types.js';
import { runAgentAttempts } from './agent-attempts.js';
import { sleep as realSleep } from './backoff.js';
import { exhaustedBudget, iterationTimeoutMs, type Budgets } from './budget.js';
import type { CheckpointInfo, RunEvent, RunEventBody, RunEventSink, RunOutcome, RunSummaryRow, TaskOutcome } from './events.js';
import { attemptRefName, commitMessage, insideGit, pushMirrorRemotes, type RevertResult } from './git-ops.js';
import { markGitState, putBackGitState } from './git-state-guard.js';
import { IterationSnapshots, touchLedgerPath } from './iteration-snapshots.js';
import { captureLoopFiles, restoreLoopFiles } from './loop-files-guard.js';
import { ensureStateDir } from '../fs/inside-project.js';
import { openAgentLedger, reapOrphanAgents } from './agent-ledger.js';
import { buildPrompt, type PromptInput } from './prompt.js';
import { displayTaskName } from '../report/format.js';
import { writeLoopReport } from './report.js';
import { agentLogPath, readRunMemory, runMemoryPath, writeRunMemory, type RunMemory } from './run-state.js';
import { untrackedFileCapBytes } from '../git/snapshot.js';

export interface RunTargetInput {
  /** `gsd-plan`, `gsd-phase`, or a seed format from src/formats. */
  kind: string;
  /** What the user named. */
  source: string;
  projectRoot: string;
  plans: Plan[];
  /** Plans skipped before the run (phase dir: already have a SUMMARY). */
  skipped?: Array<{ plan: Plan; reason: string }>;
  /** Writes a task's outcome back into a seed format's file; returns the files it wrote (committed with the item). */
  onTaskResult?: ((plan: Plan, taskNumber: number, result: TaskResult) => string[] | void) | undefined;
  /** Write the Loop Report into SUMMARY.md (GSD plans). */
  writeReports: boolean;
  /**
   * Seed formats whose items carry their own state (`[ ]`, `"status": "pending"`, `Approved/`):
   * a stopped item is recorded in its file and the run goes on with the next item (ralph1,
   * the Persistence Loop, copilot_ralf), and the file decides whether an item runs: one the file
   * says is open runs again even if an earlier run stopped it. GSD plans: a stop ends the run.
   */
  itemsCarryState?: boolean;
  /** Fraction of max_iterations at which `ralf run` warns (persistence.yaml `warn_threshold`; default 0.8). */
  warnThreshold?: number;
  /** ralph1: with --duration, stopped items are tried again in later rounds until the time is up. */
  retryStoppedWhileTimeLeft?: boolean;
  /** Context read fresh for every iteration's prompt (copilot_ralf: AGENTS.md, progress.md learnings). */
  iterationContext?: ((plan: Plan, taskNumber: number) => Record<string, string>) | undefined;
  /** Whether the agent marked its item done in the source itself (copilot_ralf's decision matrix). */
  markedByAgent?: ((plan: Plan, taskNumber: number) => boolean) | undefined;
}

/** What every engine call gets: the plan, the collaborators, and where/with which environment config is read. */
export interface EngineCall {
  planPath: string;
  deps: EngineDeps;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface EngineApi {
  deps: EngineDeps;
  startTask(o: EngineCall & { taskNumber: number }): Promise<unknown>;
  verifyTask(o: EngineCall & { taskNumber: number; doneConfirmed: boolean; signal: AbortSignal }): Promise<import('../engine/shell/verify-task.js').VerifyOutcome>;
  verifyPlan(o: EngineCall & { doneConfirmed: boolean; signal: AbortSignal }): Promise<import('../engine/shell/verify-task.js').VerifyOutcome>;
  recordLoopEvent(o: EngineCall & { taskNumber: number | null; event: import('../engine/shell/record-event.js').RunEvent }): Promise<import('../engine/shell/action-outcome.js').ActionOutcome>;
  /** Clears a task's loop (`ralf task reset`): an item its file says is open runs again from a fresh budget. */
  resetTask(o: EngineCall & { taskNumber: number }): Promise<void>;
}

export interface DriverOptions {
  target: RunTargetInput;
  /** The effective config of the project (limits for prompts, `enabled`, report sources). */
  config: { config: RalfLiteConfig; sources: Record<string, string> };
  agent: AgentAdapter;
  engine: EngineApi;
  budgets: Budgets;
  iterationTimeoutMs: number;
  commit: boolean;
  backoffSeconds: readonly number[];
  /** The human's answer to the first open checkpoint (`--resume-signal`). */
  resumeSignal: string | null;
  sink: RunEventSink;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
  /** How long a task's commit (its hooks) may take; default 300 s. */
  commitTimeoutMs?: number;
  /** Jitter fraction of backoff waits (default ±25 %; the Persistence Loop's ±20 %). */
  backoffJitter?: number;
  /**
   * copilot_ralf's stagnation circuit breaker: after this many items in a row stop without
   * one passing, the run halts (reason `stagnation`). null: no breaker.
   */
  maxStagnant?: number | null;
}

export interface DriverResult {
  exit_code: number;
  outcome: RunOutcome;
  reason: string | null;
  detail: string | null;
  tokens: number;
  rows: RunSummaryRow[];
  reports: Array<{ plan_id: string; plan_path: string; path: string; action: string }>;
}

/** Why the run ends early. */
interface Halt {
  outcome: Exclude<RunOutcome, 'complete' | 'blocked'>;
  reason: string | null;
  detail: string | null;
}

interface TaskEnd {
  outcome: TaskOutcome;
  stop_reason: StopReason | null;
  iterations: number;
  commit: string | null;
  halt: Halt | null;
}

export async function runDriver(o: DriverOptions): Promise<DriverResult> {
  const now = o.now ?? Date.now;
  const startedAt = now();
  let agentExits = 0;
  // Each agent's process group is noted while it runs, so a run after a kill -9 of this one reaps it.
  const agentLedger = openAgentLedger(o.target.projectRoot);
  const emitRaw = (e: RunEventBody) => {
    if (e.type === 'agent_start' && e.pid) agentLedger.add(e.pid);
    if (e.type === 'agent_exit') {
      agentExits++;
      agentLedger.close();
    }
    o.sink.emit({ ...e, ts: new Date(now()).toISOString(), elapsed_ms: now() - startedAt } as RunEvent);
  };
  const rows: RunSummaryRow[] = [];
  const reports: DriverResult['reports'] = [];
  let tokens = 0;
  let resumeSignal = o.resumeSignal;
  let anyBlocked = false;
  let anyStopped = false;
  let stagnant = 0;
  let halt: Halt | null = null;
  const root = o.target.projectRoot;
  // How the texts this run prints start the runtime where they are read (with --cwd when not run from the root).
  const invocation = commandInvocationIn(root);
  const cwd = root;
  const env = o.env ?? process.env;
  const effective = o.config;
  const cfg = effective.config;
  // What the agents changed, per plan: the only paths a restore or a commit touches. Its
  // snapshots use the project's untracked-file cap, as the verifies do.
  const snapshotOptions = { maxUntrackedFileBytes: untrackedFileCapBytes(cfg.snapshot?.max_untracked_file_mb) };
  const touchesByPlan = new Map<string, IterationSnapshots>();
  let mirrorWarned = false;
  const touchesOf = (plan: Plan): IterationSnapshots => {
    let t = touchesByPlan.get(plan.id);
    if (!t) touchesByPlan.set(plan.id, (t = new IterationSnapshots(root, plan.id, (message) => emitRaw({ type: 'warning', message }), now, snapshotOptions)));
    return t;
  };

  emitRaw({
    type: 'run_start',
    target: o.target.source,
    target_kind: o.target.kind,
    project_root: root,
    agent: o.agent.label,
    plans: o.target.plans.map((p) => ({ id: p.id, path: p.path, tasks: p.tasks.length })),
    budgets: { duration_ms: o.budgets.duration_ms, max_tokens: o.budgets.max_tokens },
    iteration_timeout_ms: o.iterationTimeoutMs,
    commit: o.commit,
  });
  // Refused before anything runs (exit 2): state, logs and ledgers must not land outside the project.
  ensureStateDir(root, 'run');
  // An agent left running by a run killed with -9 is stopped before this run starts one.
  for (const pgid of await reapOrphanAgents(root)) emitRaw({ type: 'warning', message: `stopped the agent (process group ${pgid}) of an earlier \`ralf run\` that was killed` });
  const inGit = insideGit(root);
  if (!inGit) emitRaw({ type: 'warning', message: `${root} is not in a git repository: passed tasks are not committed and failed tasks' changes are not restored` });
  // Push-mirror remotes would send the attempt refs a restore keeps: said once, at the first restore.
  const mirrors = insideGit(root) ? await pushMirrorRemotes(root).catch(() => []) : [];
  if (o.budgets.max_tokens !== null && o.agent.kind === 'command') {
    emitRaw({ type: 'warning', message: `token budget ${o.budgets.max_tokens}: only tokens the agent reports are counted, and "${o.agent.label}" is a command: unless it prints Claude Code stream-json or OpenCode json events, nothing is counted and the budget never stops the run (use --agent claude or --agent opencode, or --duration)` });
  }
  for (const s of o.target.skipped ?? []) emitRaw({ type: 'plan_skip', plan_id: s.plan.id, path: s.plan.path, reason: s.reason });

  for (const plan of o.target.plans) {
    if (halt) {
      for (const t of plan.tasks) rows.push(row(plan, t, 'not_started', null, 0, null, 0, cfg.max_iterations, cfg.enabled));
      continue;
    }
    emitRaw({ type: 'plan_start', plan_id: plan.id, path: plan.path, tasks: plan.tasks.length });
    await recoverInterrupted(plan);
    // The target's documented warnings (unknown ralph.json keys, non-JSON history lines, ignored files).
    if (o.target.kind !== 'gsd-plan' && o.target.kind !== 'gsd-phase') for (const message of plan.warnings) emitRaw({ type: 'warning', message });
    const memory = readRunMemory(root, plan.id);
    const completed: PromptInput['completed'] = [];
    let planFinished = true;

    for (const task of plan.tasks) {
      if (halt) {
        rows.push(row(plan, task, 'not_started', null, 0, null, 0, cfg.max_iterations, cfg.enabled));
        planFinished = false;
        continue;
      }
      const looped = task.decision === 'loop' && cfg.enabled;
      const decision = task.decision === 'refuse' ? 'refuse' : looped ? 'loop' : 'skip';
      const tokensBefore = tokens;
      let end: TaskEnd;

      const key = itemKey(task);
      if (task.not_runnable !== undefined) {
        // Finished or not approved in its own file: never sent to an agent; the reason is shown.
        emitRaw({ type: 'task_start', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), task_count: plan.tasks.length, decision: 'skip', iterations_done: 0, max_iterations: 0, earlier: null, not_runnable: task.not_runnable });
        end = finish(plan, task.number, displayTaskName(task.name), { outcome: 'not_runnable', stop_reason: null, iterations: 0, commit: null, halt: null }, null, task.not_runnable);
      } else if (decision === 'refuse') {
        const answered = memory.checkpoints[key];
        const info = checkpointInfo(task);
        emitRaw({ type: 'task_start', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), task_count: plan.tasks.length, decision, iterations_done: 0, max_iterations: 0, earlier: memory.checkpoints[key] ? 'answered' : null });
        if (answered) {
          emitRaw({ type: 'checkpoint', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), resolved_with: answered.reply, info });
          end = { outcome: 'checkpoint_resolved', stop_reason: null, iterations: 0, commit: null, halt: null };
        } else if (resumeSignal !== null) {
          memory.checkpoints[key] = { reply: resumeSignal, at: new Date(now()).toISOString() };
          writeRunMemory(root, memory);
          emitRaw({ type: 'checkpoint', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), resolved_with: resumeSignal, info });
          resumeSignal = null;
          end = { outcome: 'checkpoint_resolved', stop_reason: null, iterations: 0, commit: null, halt: null };
        } else {
          emitRaw({ type: 'checkpoint', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), resolved_with: null, info });
          end = { outcome: 'checkpoint', stop_reason: null, iterations: 0, commit: null, halt: { outcome: 'checkpoint', reason: task.type ?? 'checkpoint', detail: `Task ${task.number} (${task.name}) needs a human: ${task.reason}` } };
        }
        emitRaw({ type: 'task_end', plan_id: plan.id, task: task.number, name: displayTaskName(task.name), outcome: end.outcome, stop_reason: null, iterations: 0, commit: null, detail: end.outcome === 'checkpoint' ? (end.halt?.detail ?? null) : `answered: ${JSON.stringify(memory.checkpoints[key]?.reply ?? '')}`, handoff: null });
      } else if (decision === 'skip') {
        end = await runOnce(plan, task, memory, completed);
      } else {
        end = await runLoop(plan, task, completed, memory);
      }

      if (end.outcome === 'passed' || end.outcome === 'ran_once' || end.outcome === 'already_done') {
        completed.push({ number: task.number, name: task.name, commit: end.commit ?? memory.tasks[key]?.commit ?? null });
      }
      if (end.outcome === 'blocked') anyBlocked = true;
      if (end.outcome === 'stopped') anyStopped = true;
      if (end.outcome === 'passed' || end.outcome === 'ran_once') stagnant = 0;
      if (end.outcome === 'stopped' || end.outcome === 'blocked') stagnant++;
      if (!end.halt && o.maxStagnant && stagnant >= o.maxStagnant && plan.tasks.some((t) => t.number > task.number && t.not_runnable === undefined)) {
        end.halt = { outcome: 'stopped', reason: 'stagnation', detail: `${stagnant} items in a row stopped without one passing (the stagnation limit, RALPH_MAX_STAGNANT=${o.maxStagnant}); read their handoffs, split or clarify them, then run again` };
      }
      if (!['passed', 'ran_once', 'already_done', 'checkpoint_resolved', 'not_runnable', 'deferred'].includes(end.outcome)) planFinished = false;
      const loopState = decision === 'loop' ? loopOf(readPlanState(root, stateIdOfPlan(root, plan.path)), task.number) : null;
      rows.push(row(plan, task, end.outcome, end.stop_reason, end.iterations, end.commit, tokens - tokensBefore, loopState?.max_iterations ?? cfg.max_iterations, cfg.enabled));
      if (end.halt) halt = end.halt;
    }

    // ralph1: a failed requirement is selected again (with its history) until the duration ends
    // or none is left. Only with --duration: without a time budget one round is the run.
    if (o.target.retryStoppedWhileTimeLeft && o.budgets.duration_ms !== null) {
      let again = plan.tasks.filter((t) => lastOutcome(plan, t.number) === 'stopped');
      for (let round = 2; !halt && again.length > 0; round++) {
        if (exhaustedBudget(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens })) break;
        emitRaw({ type: 'warning', message: `round ${round}: trying ${again.length} stopped requirement${again.length === 1 ? '' : 's'} again (${again.map((t) => t.attributes.id ?? t.number).join(', ')}) while the duration lasts` });
        for (const task of again) {
          if (halt) break;
          const tokensBefore = tokens;
          const end = await runLoop(plan, task, completed, memory);
          const loopState = loopOf(readPlanState(root, plan.id), task.number);
          rows.push(row(plan, task, end.outcome, end.stop_reason, end.iterations, end.commit, tokens - tokensBefore, loopState?.max_iterations ?? cfg.max_iterations, cfg.enabled));
          if (end.outcome === 'passed') completed.push({ number: task.number, name: task.name, commit: end.commit });
          if (end.halt) halt = end.halt;
        }
        again = again.filter((t) => lastOutcome(plan, t.number) === 'stopped');
      }
      anyStopped = rows.some((r) => r.outcome === 'stopped' && lastOutcome(plan, r.task) === 'stopped');
    }

    // The plan-level loop: once every task is done, for plans it applies to.
    if (!halt && planFinished && plan.plan_decision.decision === 'loop' && cfg.enabled) {
      const tokensBefore = tokens;
      const end = await runLoop(plan, null, completed, memory);
      rows.push({ plan_id: plan.id, task: null, name: 'Plan-level verification', decision: 'loop', outcome: end.outcome, iterations: end.iterations, max_iterations: cfg.max_iterations, stop_reason: end.stop_reason, tokens: tokens - tokensBefore, commit: end.commit });
      if (end.outcome !== 'passed' && end.outcome !== 'already_done') planFinished = false;
      if (end.outcome === 'blocked') anyBlocked = true;
      if (end.halt) halt = end.halt;
    }

    const planOutcome = planFinished ? 'complete' : halt?.outcome === 'checkpoint' ? 'checkpoint' : halt?.outcome === 'interrupted' ? 'interrupted' : 'stopped';
    let report: { path: string; action: string } | null = null;
    if (o.target.writeReports) {
      try {
        const w = writeLoopReport({ plan, projectRoot: root, config: cfg as unknown as Record<string, unknown>, configSources: effective.sources, create: planFinished });
        report = { path: w.path, action: w.action };
        reports.push({ plan_id: plan.id, plan_path: plan.path, ...report });
      } catch (err) {
        emitRaw({ type: 'warning', message: `could not write the Loop Report for ${plan.id}: ${(err as Error).message}` });
      }
    }
    emitRaw({ type: 'plan_end', plan_id: plan.id, outcome: planOutcome, report: report && report.action !== 'not_written' ? report.path : null, report_action: report?.action ?? null });
  }

  if (o.budgets.max_tokens !== null && agentExits > 0 && tokens === 0) {
    emitRaw({ type: 'warning', message: `token budget ${o.budgets.max_tokens}: the agent reported no tokens in ${agentExits} run${agentExits === 1 ? '' : 's'}, so the budget could not be counted` });
  }
  const outcome: RunOutcome = halt ? halt.outcome : anyStopped ? 'stopped' : anyBlocked ? 'blocked' : 'complete';
  const exit_code = outcome === 'complete' ? ExitCode.ok : outcome === 'interrupted' ? ExitCode.interrupted : outcome === 'agent_failed' && halt?.reason && HARD_SETUP.has(halt.reason) ? ExitCode.badInput : ExitCode.stop;
  const stoppedRows = rows.filter((r) => r.outcome === 'stopped');
  const result: DriverResult = {
    exit_code,
    outcome,
    reason: halt?.reason ?? (anyStopped ? (stoppedRows[0]?.stop_reason ?? 'stopped') : anyBlocked ? 'blocked' : null),
    detail: halt?.detail ?? (anyStopped ? `${stoppedRows.length} item${stoppedRows.length === 1 ? '' : 's'} stopped and recorded in the target (${stoppedRows.map((r) => `task ${r.task}`).join(', ')}); the run went on with the others` : null),
    tokens,
    rows,
    reports,
  };
  emitRaw({ type: 'run_end', exit_code, outcome, reason: result.reason, detail: result.detail, tokens, tasks: rows });
  o.sink.close();
  return result;

  /** The outcome of a task's latest row (a task may run again in a later round). */
  function lastOutcome(plan: Plan, n: number | null): string | undefined {
    for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.plan_id === plan.id && rows[i]!.task === n) return rows[i]!.outcome;
    return undefined;
  }

  // ------------------------------------------------------------------ one task, looped

  async function runLoop(plan: Plan, task: PlanTask | null, completed: PromptInput['completed'], memory: RunMemory): Promise<TaskEnd> {
    const n = task?.number ?? null;
    const name = task ? displayTaskName(task.name) : 'Plan-level verification';
    let loop = loopOf(readPlanState(root, stateIdOfPlan(root, plan.path)), n);
    const iterationsOf = (l: LoopState | null) => l?.iterations.length ?? 0;
    const memoryKey = task ? itemKey(task) : 'plan';
    let restart = false;

    if (task && loop) {
      const seed = o.target.kind !== 'gsd-plan' && o.target.kind !== 'gsd-phase';
      // State the engine filed under this task number for another item (the list was reordered or grew).
      const foreign = seed && loop.task_name !== task.name;
      // The item's own file says it is open (`[ ]`, pending, Approved): the file decides, not an earlier run.
      const reopened = o.target.itemsCarryState === true && (loop.status === 'passed' || isFinal(loop));
      // A budget cut an item short; it was not stopped for good.
      const cutOff = isFinal(loop) && (loop.stop_reason === 'time_budget' || loop.stop_reason === 'token_budget');
      if (foreign || reopened || cutOff) {
        await o.engine.resetTask({ planPath: plan.path, taskNumber: task.number, deps: o.engine.deps, cwd, env });
        loop = loopOf(readPlanState(root, stateIdOfPlan(root, plan.path)), n);
        restart = true;
        delete memory.tasks[memoryKey];
      }
    }

    if (loop?.deferred) {
      // Set aside by a human: never run again by ralf run (its edits were already taken out; `ralf task reset` takes it up again).
      emitRaw({ type: 'task_start', plan_id: plan.id, task: n, name, task_count: plan.tasks.length, decision: 'loop', iterations_done: iterationsOf(loop), max_iterations: loop.max_iterations, earlier: 'deferred' });
      await touchesOf(plan).forget(n);
      return finish(plan, n, name, { outcome: 'deferred', stop_reason: 'deferred', iterations: iterationsOf(loop), commit: null, halt: null }, null, `deferred: ${loop.deferred.reason}`);
    }
    if (loop?.status === 'passed') {
      emitRaw({ type: 'task_start', plan_id: plan.id, task: n, name, task_count: plan.tasks.length, decision: 'loop', iterations_done: iterationsOf(loop), max_iterations: loop.max_iterations, earlier: 'passed' });
      // Passed outside a run (a person confirmed the manual criteria of a task a run left
      // `unconfirmed`): the agents' change it kept is committed now, as a pass in the run would.
      const commit = memory.tasks[memoryKey]?.commit ?? (o.commit && n !== null ? await commitTask(plan, n, name) : null);
      if (commit !== null && memory.tasks[memoryKey]?.commit !== commit) {
        memory.tasks[memoryKey] = { outcome: 'passed', commit, at: new Date(now()).toISOString() };
        writeRunMemory(root, memory);
      }
      return finish(plan, n, name, { outcome: 'already_done', stop_reason: 'success', iterations: iterationsOf(loop), commit, halt: null }, null, 'passed in an earlier run');
    }
    if (loop && isFinal(loop)) {
      emitRaw({ type: 'task_start', plan_id: plan.id, task: n, name, task_count: plan.tasks.length, decision: 'loop', iterations_done: iterationsOf(loop), max_iterations: loop.max_iterations, earlier: loop.stop_reason === 'blocked' ? 'blocked' : 'stopped' });
      const reset = resetCommand(rel(plan.path), n, invocation);
      if (loop.stop_reason === 'blocked') {
        return finish(plan, n, name, { outcome: 'blocked', stop_reason: 'blocked', iterations: iterationsOf(loop), commit: null, halt: null }, null, `blocked in an earlier run (${loop.stop_detail ?? 'no reason given'}); \`${reset}\` to try again`);
      }
      const outcome: TaskOutcome = loop.stop_reason === 'time_budget' || loop.stop_reason === 'token_budget' ? 'budget' : 'stopped';
      const reopen = loop.stop_reason === 'rule4_architectural' ? `\`${approveCommand(rel(plan.path), n, invocation)}\` to proceed with the change (or \`${reset}\` for a different approach)` : `\`${reset}\``;
      return finish(plan, n, name, { outcome, stop_reason: loop.stop_reason, iterations: iterationsOf(loop), commit: null, halt: { outcome: 'stopped', reason: loop.stop_reason, detail: `${label(n, name)} stopped in an earlier run (${loop.stop_reason}); resolve the handoff, then ${reopen} and run again` } }, loop.handoff, null);
    }

    if (n !== null && (loop === null || loop.start_ref === null || restart)) {
      await o.engine.startTask({ planPath: plan.path, taskNumber: n, deps: o.engine.deps, cwd, env });
      loop = loopOf(readPlanState(root, stateIdOfPlan(root, plan.path)), n);
    }
    const maxIterations = loop?.max_iterations ?? cfg.max_iterations;
    emitRaw({ type: 'task_start', plan_id: plan.id, task: n, name, task_count: plan.tasks.length, decision: 'loop', iterations_done: iterationsOf(loop), max_iterations: maxIterations, earlier: null });

    const notes: PromptInput['notes'] = [];
    let warned = false;
    let signals: string | null = null;
    let verifyFirst = n === null && iterationsOf(loop) === 0;
    for (;;) {
      const budget = exhaustedBudget(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens });
      if (budget) return budgetStop(plan, n, name, budget);
      if (o.signal.aborted) return interrupted(plan, n, name);
      if (stopFlagPresent(root)) return interrupted(plan, n, name, 'stop_flag');

      const state = readPlanState(root, stateIdOfPlan(root, plan.path));
      loop = loopOf(state, n);
      const iteration = iterationsOf(loop) + 1;
      // The plan-level loop verifies before the first agent run: the tasks may have done it all.
      let said = false;
      if (verifyFirst) {
        verifyFirst = false;
      } else {
        const before = await touchesOf(plan).before(n, iteration);
        // The checks the loop runs are the ones it started with (engine/core/checks-at-start.ts).
        const looped = loop?.checks_at_start;
        // The format's per-iteration context (its context files) joins the task's elements.
        const shown = task && {
          ...task,
          ...(looped ? { checks: looped } : {}),
          ...(o.target.iterationContext ? { elements: { ...task.elements, ...safeContext(plan, task) } } : {}),
        };
        const prompt = buildPrompt({
          plan: { id: plan.id, path: rel(plan.path), objective: plan.objective, task_count: plan.tasks.length },
          task: shown,
          plan_checks: n === null && looped ? looped : plan.plan_checks,
          plan_manual: plan.plan_manual,
          iteration,
          max_iterations: maxIterations,
          mode: 'loop',
          history: loop?.iterations ?? [],
          notes,
          completed,
          checkpoint_replies: checkpointReplies(plan, memory),
        });
        const timeoutMs = iterationTimeoutMs(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens }, o.iterationTimeoutMs);
        const { attempt, restored: putBack, git: gitUndone } = await runAgentGuarded(plan, {
          agent: o.agent,
          root,
          planId: plan.id,
          task: n,
          iteration,
          prompt,
          timeoutMs,
          backoffSeconds: o.backoffSeconds,
      ...(o.backoffJitter !== undefined ? { backoffJitter: o.backoffJitter } : {}),
          signal: o.signal,
          env,
          logFile: (a) => agentLogPath(root, plan.id, n, iteration, a),
          emit: emitRaw,
          random: o.random ?? Math.random,
          sleep: o.sleep ?? realSleep,
        });
        tokens += attempt.tokens;
        if (putBack.length > 0) notes.push({ iteration, note: `you changed or deleted ralf's own files in .planning/ralf/ (${putBack.join(', ')}); they were put back. Leave .planning/ralf/ alone: it is the loop's record, not part of the task` });
        if (gitUndone) notes.push({ iteration, note: `you ran git yourself and ralf undid it (${gitUndone}). Do not commit, amend, stash, reset, check out, clean or switch branches: ralf commits the task when it passes, and the user's uncommitted files are not yours` });
        // Measured whatever happened (even Ctrl-C): these are the paths this task may restore or commit.
        const { changes: changed, userWorkPutBack } = await touchesOf(plan).measure(n, before);
        if (userWorkPutBack && userWorkPutBack.files.length > 0) emitUserWorkPutBack(n, iteration, userWorkPutBack, notes);
        if (attempt.kind === 'aborted') {
          // An interrupted iteration never counts and was never verified: its half-made edits
          // are put back (kept under an attempt ref), as a timed-out one's are and as the next
          // run does after a kill -9; the plan-level loop restores nothing (docs/RUN.md).
          if (before && n !== null) {
            try {
              emitRevert(plan, n, 'iteration', await touchesOf(plan).revertIteration(n, before, changed), `interrupted: iteration ${iteration} was cut short`);
            } catch (err) {
              emitRaw({ type: 'warning', message: `could not restore the files of the interrupted iteration: ${(err as Error).message.split('\n')[0]}` });
            }
          }
          return interrupted(plan, n, name);
        }
        if (attempt.kind === 'agent_failed' && attempt.reason === 'permission') {
          // A hard failure of this task (the environment refuses its work): stop it now, with the reason, instead of using up its iterations.
          const reason = attempt.detail;
          const r = await o.engine.recordLoopEvent({ planPath: plan.path, taskNumber: n, event: { type: 'blocked', reason }, deps: o.engine.deps, cwd, env });
          await revertTask(plan, n, 'hard failure');
          const record = task ? await recordStop(plan, task, 'blocked', r.iteration, reason, 'BLOCKED') : null;
          return finish(plan, n, name, { outcome: 'blocked', stop_reason: 'blocked', iterations: r.iteration, commit: record, halt: null }, r.handoff, reason);
        }
        if (attempt.kind === 'agent_failed') {
          // Nothing recorded in the loop: the iteration never happened, `ralf run` again retries it.
          return finish(plan, n, name, { outcome: 'agent_failed', stop_reason: null, iterations: iterationsOf(loop), commit: null, halt: { outcome: 'agent_failed', reason: attempt.reason, detail: attempt.detail } }, null, attempt.detail);
        }

        const proc = attempt.process;
        if (proc.timedOut && before) {
          try {
            emitRevert(plan, n, 'iteration', await touchesOf(plan).revertIteration(n, before, changed), `iteration ${iteration} timed out`);
          } catch (err) {
            emitRaw({ type: 'warning', message: `could not restore the files of the timed-out iteration: ${(err as Error).message.split('\n')[0]}` });
          }
          const b = exhaustedBudget(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens });
          if (b) return budgetStop(plan, n, name, b);
          notes.push({ iteration, note: `the agent was killed after ${Math.round(timeoutMs / 1000)} s (iteration timeout) and its partial changes were reverted; take smaller steps` });
        }

        if (attempt.promise?.kind === 'blocked') {
          const reason = attempt.promise.reason || 'the agent said BLOCKED without a reason';
          const r = await o.engine.recordLoopEvent({ planPath: plan.path, taskNumber: n, event: { type: 'blocked', reason }, deps: o.engine.deps, cwd, env });
          await revertTask(plan, n, 'blocked');
          const record = task ? await recordStop(plan, task, 'blocked', r.iteration, reason) : null;
          return finish(plan, n, name, { outcome: 'blocked', stop_reason: 'blocked', iterations: r.iteration, commit: record, halt: null }, r.handoff, reason);
        }
        said = attempt.promise?.kind === 'done';
        if (task && o.target.markedByAgent) {
          const source = rel(plan.path);
          signals = copilotLabel({
            promise: said,
            marked: o.target.markedByAgent(plan, task.number),
            files_changed: changed.some((c) => c.path !== source),
            timed_out: proc.timedOut,
          });
        }
      }
      const v = n === null
        ? await o.engine.verifyPlan({ planPath: plan.path, doneConfirmed: said, signal: o.signal, deps: o.engine.deps, cwd, env })
        : await o.engine.verifyTask({ planPath: plan.path, taskNumber: n, doneConfirmed: said, signal: o.signal, deps: o.engine.deps, cwd, env });
      if (v.log_warning) emitRaw({ type: 'warning', message: v.log_warning });
      if (v.interrupted || v.stop_reason === 'interrupted') return finish(plan, n, name, { outcome: 'interrupted', stop_reason: 'interrupted', iterations: v.iteration, commit: null, halt: { outcome: 'interrupted', reason: 'interrupted', detail: v.message } }, null, v.message);
      const suspicious = said && v.verdict !== 'pass' && v.counted;
      emitRaw({
        type: 'verify',
        plan_id: plan.id,
        task: n,
        iteration: v.iteration,
        max_iterations: v.max_iterations,
        verdict: v.verdict,
        stop_reason: v.stop_reason,
        fingerprint: v.fingerprint,
        progress: v.progress,
        checks_passed: v.checks.filter((c) => c.passed).length,
        checks_total: v.checks.length,
        suspicious,
        message: v.message,
        ...(signals !== null ? { signals } : {}),
      });
      if (v.verdict === 'retry' && v.counted && n !== null && !warned && v.iteration >= Math.ceil((o.target.warnThreshold ?? 0.8) * v.max_iterations) && v.iteration < v.max_iterations) {
        warned = true;
        emitRaw({ type: 'warning', message: `${label(n, name)}: ${v.iteration} of ${v.max_iterations} iterations used (${Math.round((o.target.warnThreshold ?? 0.8) * 100)} % warning); ${v.max_iterations - v.iteration} left` });
      }
      if (suspicious) notes.push({ iteration: v.iteration, note: `that iteration said ${'<ralph>TASK_DONE</ralph>'} but verification failed (suspicious): run the checks before claiming the task is done` });

      if (v.verdict === 'pass') {
        let commit: string | null = null;
        // The item's write-back goes into its own commit (`[x]`, `"status": "done"`, Done/).
        if (task) await recordItem(plan, task, { verdict: 'pass', stop_reason: 'success', iterations: v.iteration, detail: v.message, signals });
        if (n !== null && o.commit) commit = await commitTask(plan, n, name);
        if (n !== null) {
          memory.tasks[memoryKey] = { outcome: 'passed', commit, at: new Date(now()).toISOString() };
          writeRunMemory(root, memory);
        }
        return finish(plan, n, name, { outcome: 'passed', stop_reason: 'success', iterations: v.iteration, commit, halt: null }, null, v.message);
      }
      if (v.verdict === 'stop') {
        // A Rule 4 stop keeps the change in place: the human approves it (`ralf task approve`,
        // then the next run continues with it) or reverts it.
        if (v.stop_reason === 'rule4_architectural' && n !== null) {
          emitRaw({ type: 'warning', message: `${label(n, name)}: the architectural change is left in the working tree for your decision: \`${approveCommand(rel(plan.path), n, invocation)}\` keeps it and the next run continues the task; \`${deferCommand(rel(plan.path), n, invocation)}\` sets the task aside (its edits are taken out, kept under refs/ralf/deferred/…); for a different approach revert it and \`${resetCommand(rel(plan.path), n, invocation)}\`` });
        } else if (v.stop_reason === 'unconfirmed' && n !== null) {
          // Every check passes; only a person can tell whether the manual criteria hold, and
          // they need the work in the tree to look at (and for the handoff's --done-confirmed
          // verify to verify it, not the tree before the agent).
          emitRaw({ type: 'warning', message: `${label(n, name)}: the checks pass and the agent's change is left in the working tree for you to check the manual done criteria: if they hold, \`${verifyCommand(rel(plan.path), n, invocation)} --done-confirmed\` passes the task and the next run commits it; otherwise tell the agent what is missing and \`${resetCommand(rel(plan.path), n, invocation)}\`` });
        } else await revertTask(plan, n, v.stop_reason ?? 'stopped');
        const budgetStopped = v.stop_reason === 'time_budget' || v.stop_reason === 'token_budget';
        // A budget cut is not the item's failure: nothing is written back, the next run resumes it.
        const record = task && !budgetStopped ? await recordStop(plan, task, v.stop_reason ?? 'stopped', v.iteration, v.message, signals) : null;
        const goOn = !budgetStopped && o.target.itemsCarryState === true;
        return finish(
          plan,
          n,
          name,
          { outcome: budgetStopped ? 'budget' : 'stopped', stop_reason: v.stop_reason, iterations: v.iteration, commit: record, halt: goOn ? null : { outcome: budgetStopped ? 'budget' : 'stopped', reason: v.stop_reason, detail: v.message } },
          v.handoff,
          v.message,
        );
      }
      // retry
      if (!v.counted) {
        // Checks pass but the task's manual criteria were not confirmed: not an iteration. Bounded by
        // the engine alone (CONFIRM_MAX in a row stops the loop `unconfirmed`, the change kept for a
        // person), the same bound `task verify` has without `ralf run`.
        notes.push({ iteration: v.iteration + 1, note: `all checks pass now, but the task also has criteria only you can confirm: ${(task?.manual ?? plan.plan_manual).join('; ') || 'its done criteria'}. If they hold, end with <ralph>TASK_DONE</ralph>; otherwise finish the work.` });
      }
    }
  }

  // ------------------------------------------------------------------ one task, run once

  async function runOnce(plan: Plan, task: PlanTask, memory: RunMemory, completed: PromptInput['completed']): Promise<TaskEnd> {
    const n = task.number;
    const key = itemKey(task);
    emitRaw({ type: 'task_start', plan_id: plan.id, task: n, name: displayTaskName(task.name), task_count: plan.tasks.length, decision: 'skip', iterations_done: 0, max_iterations: 1, earlier: memory.tasks[key]?.outcome === 'ran_once' ? 'ran_once' : null });
    const prior = memory.tasks[key];
    if (prior?.outcome === 'ran_once') return finish(plan, n, displayTaskName(task.name), { outcome: 'already_done', stop_reason: null, iterations: 0, commit: prior.commit, halt: null }, null, 'ran in an earlier run');
    if (o.signal.aborted || stopFlagPresent(root)) {
      return finish(plan, n, displayTaskName(task.name), { outcome: 'interrupted', stop_reason: 'interrupted', iterations: 0, commit: null, halt: { outcome: 'interrupted', reason: o.signal.aborted ? 'interrupted' : 'stop_flag', detail: 'state saved; run again to resume' } }, null, null);
    }
    const budget = exhaustedBudget(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens });
    if (budget) return finish(plan, n, displayTaskName(task.name), { outcome: 'budget', stop_reason: budget.reason, iterations: 0, commit: null, halt: { outcome: 'budget', reason: budget.reason, detail: budget.detail } }, null, budget.detail);
    const before = await touchesOf(plan).before(n, 1);
    const prompt = buildPrompt({
      plan: { id: plan.id, path: rel(plan.path), objective: plan.objective, task_count: plan.tasks.length },
      task,
      iteration: 1,
      max_iterations: 1,
      mode: 'once',
      history: [],
      notes: [{ iteration: 1, note: `this task is not looped (${task.reason}); it runs once and is not verified by ralf, so check your own work` }],
      completed,
      checkpoint_replies: checkpointReplies(plan, memory),
    });
    const { attempt } = await runAgentGuarded(plan, {
      agent: o.agent,
      root,
      planId: plan.id,
      task: n,
      iteration: 1,
      prompt,
      timeoutMs: iterationTimeoutMs(o.budgets, { started_at_ms: startedAt, now_ms: now(), tokens }, o.iterationTimeoutMs),
      backoffSeconds: o.backoffSeconds,
      ...(o.backoffJitter !== undefined ? { backoffJitter: o.backoffJitter } : {}),
      signal: o.signal,
      env,
      logFile: (a) => agentLogPath(root, plan.id, n, 1, a),
      emit: emitRaw,
      random: o.random ?? Math.random,
      sleep: o.sleep ?? realSleep,
    });
    tokens += attempt.tokens;
    const { userWorkPutBack } = await touchesOf(plan).measure(n, before);
    if (userWorkPutBack && userWorkPutBack.files.length > 0) emitUserWorkPutBack(n, 1, userWorkPutBack, null);
    if (attempt.kind === 'aborted') return finish(plan, n, displayTaskName(task.name), { outcome: 'interrupted', stop_reason: 'interrupted', iterations: 0, commit: null, halt: { outcome: 'interrupted', reason: 'interrupted', detail: 'interrupted while the agent ran' } }, null, null);
    if (attempt.kind === 'agent_failed') return finish(plan, n, displayTaskName(task.name), { outcome: 'agent_failed', stop_reason: null, iterations: 0, commit: null, halt: { outcome: 'agent_failed', reason: attempt.reason, detail: attempt.detail } }, null, attempt.detail);
    if (attempt.process.timedOut || attempt.promise?.kind === 'blocked') {
      const why = attempt.process.timedOut ? 'timed out' : 'blocked';
      await revertTask(plan, n, why);
      const detail = attempt.promise?.kind === 'blocked' ? attempt.promise.reason : 'the agent timed out';
      memory.tasks[key] = { outcome: 'blocked', commit: null, at: new Date(now()).toISOString() };
      writeRunMemory(root, memory);
      return finish(plan, n, displayTaskName(task.name), { outcome: 'blocked', stop_reason: null, iterations: 0, commit: null, halt: null }, null, detail);
    }
    let commit: string | null = null;
    if (o.commit) commit = await commitTask(plan, n, task.name);
    memory.tasks[key] = { outcome: 'ran_once', commit, at: new Date(now()).toISOString() };
    writeRunMemory(root, memory);
    return finish(plan, n, displayTaskName(task.name), { outcome: 'ran_once', stop_reason: null, iterations: 0, commit, halt: null }, null, 'ran once without verification (not looped)');
  }

  // ------------------------------------------------------------------ helpers

  /**
   * One agent iteration with ralf's own files guarded: the loop's state, the run's memory and
   * the touched-paths ledger go back to what they were if the agent changed or deleted them
   * (src/run/loop-files-guard.ts); otherwise an agent running `git clean -fdx` would restart
   * its loop's count every iteration and never be stopped.
   */
  async function runAgentGuarded(plan: Plan, args: Parameters<typeof runAgentAttempts>[0]): Promise<{ attempt: Awaited<ReturnType<typeof runAgentAttempts>>; restored: string[]; git: string | null }> {
    const guarded = captureLoopFiles([statePaths(root, stateIdOfPlan(root, plan.path)).state, runMemoryPath(root, plan.id), touchLedgerPath(root, plan.id)]);
    // The user's branch, its commit and their staging are theirs: an agent's own commit, amend,
    // `git add -A` or branch switch is undone once it exits (git-state-guard.ts).
    const mark = inGit ? await markGitState(root) : null;
    const attempt = await runAgentAttempts(args);
    const put = restoreLoopFiles(root, guarded);
    if (put.restored.length > 0) {
      emitRaw({ type: 'warning', message: `the agent changed or deleted ralf's own files (${list(put.restored)}); they were put back as they were before it started: the loop's count and record are ralf's` });
    }
    for (const f of put.failed) emitRaw({ type: 'warning', message: `could not put back ${f.path}, which the agent changed: ${f.message}` });
    let git: string | null = null;
    if (mark) {
      try {
        const g = await putBackGitState(root, mark, `${attemptRefName(plan.id, args.task, new Date(now()))}-head`);
        if (g.undone.length > 0) {
          git = g.undone.join('; ');
          emitRaw({ type: 'warning', message: `${whose(args.task)}the agent ran git itself, and ralf undid it: ${git}. Its changes are still in the working tree, where ralf measures them as this task's work (committed when the task passes, restored when it stops)${g.left.length > 0 ? `; ${g.left.join('; ')}` : ''}` });
        } else if (g.left.length > 0) emitRaw({ type: 'warning', message: `${whose(args.task)}the agent ran git itself: ${g.left.join('; ')}` });
      } catch (err) {
        emitRaw({ type: 'warning', message: `could not put back the git state the agent changed (HEAD, branch, staging): ${(err as Error).message.split('\n')[0]}` });
      }
    }
    return { attempt, restored: put.restored, git };
  }

  async function budgetStop(plan: Plan, n: number | null, name: string, budget: NonNullable<ReturnType<typeof exhaustedBudget>>): Promise<TaskEnd> {
    const r = await o.engine.recordLoopEvent({ planPath: plan.path, taskNumber: n, event: { type: 'budget_exhausted', budget: budget.budget, detail: budget.detail }, deps: o.engine.deps, cwd, env });
    await revertTask(plan, n, budget.reason);
    return finish(plan, n, name, { outcome: 'budget', stop_reason: budget.reason, iterations: r.iteration, commit: null, halt: { outcome: 'budget', reason: budget.reason, detail: budget.detail } }, r.handoff, budget.detail);
  }

  async function interrupted(plan: Plan, n: number | null, name: string, cause: 'signal' | 'stop_flag' = 'signal'): Promise<TaskEnd> {
    let iterations = 0;
    try {
      const event = cause === 'signal' ? ({ type: 'interrupted', cause: 'signal', signal: signalName(o.signal) } as const) : ({ type: 'interrupted', cause: 'external', signal: null } as const);
      const r = await o.engine.recordLoopEvent({ planPath: plan.path, taskNumber: n, event, deps: o.engine.deps, cwd, env });
      iterations = r.iteration;
    } catch (err) {
      emitRaw({ type: 'warning', message: `could not record the interrupt: ${(err as Error).message}` });
    }
    const detail = cause === 'stop_flag' ? '.planning/ralf/STOP is present: state saved; remove it and run again to resume' : `state saved; run \`${runAgainCommand()}\` again to resume`;
    return finish(plan, n, name, { outcome: 'interrupted', stop_reason: 'interrupted', iterations, commit: null, halt: { outcome: 'interrupted', reason: cause === 'stop_flag' ? 'stop_flag' : 'interrupted', detail } }, null, detail);
  }

  /**
   * An earlier run killed (-9) while its agent worked left that agent's edits in the tree: the
   * paths changed since that agent started go back (kept under a ref), nothing else is touched.
   */
  async function recoverInterrupted(plan: Plan): Promise<void> {
    let found;
    try {
      found = await touchesOf(plan).recoverInterrupted();
    } catch (err) {
      emitRaw({ type: 'warning', message: `could not check for an interrupted iteration of an earlier \`ralf run\` of ${plan.id}: ${(err as Error).message.split('\n')[0]}` });
      return;
    }
    for (const f of found) {
      const what = `an earlier \`ralf run\` was killed while its agent worked on ${f.task === null ? 'the plan-level loop' : `task ${f.task}`} of ${plan.id} (iteration ${f.iteration}, started ${f.at})`;
      if (f.revert && f.revert.files.length > 0) {
        emitRevert(plan, f.task, 'iteration', f.revert, 'interrupted: the run was killed while the agent worked');
        const back = f.revert.restore_command ? `; to get them back: ${f.revert.restore_command}` : '';
        emitRaw({
          type: 'warning',
          message: `${what}: the files it changed were put back as they were before that agent started: ${list(f.revert.files)}. Nothing is lost: they are kept under ${f.revert.saved_as}${back} (edits you made to these files after the kill are in it too). Your other files were not touched.`,
        });
      } else if (f.left.length > 0) {
        emitRaw({ type: 'warning', message: `${what}: the plan-level loop restores nothing, so what changed since then is left as it is and not committed by ralf: ${list(f.left)}` });
      }
    }
  }

  /** Restores what the agents changed in this task (nothing else); the plan-level loop restores nothing. */
  async function revertTask(plan: Plan, n: number | null, why: string): Promise<void> {
    if (n === null) return;
    try {
      emitRevert(plan, n, 'task', await touchesOf(plan).revertTask(n), why);
    } catch (err) {
      emitRaw({ type: 'warning', message: `could not restore task ${n}'s files (they are left as they are): ${(err as Error).message.split('\n')[0]}` });
    }
  }

  /** The format's per-iteration context; a file it cannot read is a warning, never a stop. */
  function safeContext(plan: Plan, task: PlanTask): Record<string, string> {
    try {
      return o.target.iterationContext?.(plan, task.number) ?? {};
    } catch (err) {
      emitRaw({ type: 'warning', message: `could not read the context files for task ${task.number}: ${(err as Error).message}` });
      return {};
    }
  }

  /** The user's uncommitted work an agent's git command took out of the tree, put back (iteration-snapshots.ts). */
  function emitUserWorkPutBack(n: number | null, iteration: number, r: RevertResult, notes: PromptInput['notes'] | null): void {
    const files = list(r.files);
    emitRaw({ type: 'warning', message: `${whose(n)}the agent's git command (stash, reset --hard, checkout, clean) took your uncommitted work out of ${files}; it is put back as it was before the agent started, and is not part of the task` });
    notes?.push({ iteration, note: `your git command took the user's uncommitted work out of ${files}; ralf put it back. Never stash, reset, check out or clean files you did not change in this task` });
  }

  function emitRevert(plan: Plan, n: number | null, scope: 'iteration' | 'task', r: RevertResult, why: string): void {
    emitRaw({ type: 'revert', plan_id: plan.id, task: n, scope, files: r.files, saved_as: r.saved_as, restore_command: r.restore_command, why });
    for (const s of r.skipped) emitRaw({ type: 'warning', message: `not restored: ${s.path}: ${s.reason}` });
    if (r.saved_as && !mirrorWarned && mirrors.length > 0) {
      mirrorWarned = true;
      const remotes = mirrors;
      emitRaw({
        type: 'warning',
        message: `${remotes.map((m) => `remote "${m}"`).join(', ')} ${remotes.length === 1 ? 'is a push mirror' : 'are push mirrors'}: \`git push\` sends every ref, the restored attempts under refs/ralf/ included (they hold HEAD plus the agent's files). \`git for-each-ref refs/ralf\` lists them and \`git update-ref -d <ref>\` drops one; or mirror without them: git push --force --prune <remote> 'refs/*:refs/*' '^refs/ralf/*'`,
      });
    }
  }

  /**
   * Writes an item's outcome into its own file (seed formats). Measured like an agent
   * iteration, so the next commit of the task takes exactly these files with it.
   */
  async function recordItem(plan: Plan, task: PlanTask, result: Omit<TaskResult, 'loop'>): Promise<void> {
    if (!o.target.onTaskResult) return;
    const touches = touchesOf(plan);
    const before = await touches.before(task.number, 0);
    try {
      const loop = loopOf(readPlanState(root, stateIdOfPlan(root, plan.path)), task.number);
      o.target.onTaskResult(plan, task.number, { ...result, loop });
    } catch (err) {
      emitRaw({ type: 'warning', message: (err as Error).message });
    } finally {
      await touches.after(task.number, before);
    }
  }

  /** A stopped or blocked item (its files already restored): its record (`[~]`, history line, Rejected/) written and committed on its own. */
  async function recordStop(plan: Plan, task: PlanTask, stop: string, iterations: number, detail: string | null, signals: string | null = stop === 'blocked' ? 'BLOCKED' : null): Promise<string | null> {
    await recordItem(plan, task, { verdict: 'stop', stop_reason: stop, iterations, detail, signals });
    if (!o.target.onTaskResult) return null;
    if (!o.commit) {
      await touchesOf(plan).forget(task.number);
      return null;
    }
    return commitTask(plan, task.number, `chore(${plan.id}): ${task.name.replace(/^\s*task\s+\d+\s*[:.)-]\s*/i, '').trim() || task.name} (${stop})`, true);
  }

  /** Commits what the agents changed in this task (nothing else, whatever else is staged or dirty). */
  async function commitTask(plan: Plan, n: number, name: string, exactMessage = false): Promise<string | null> {
    const message = exactMessage ? name : commitMessage(plan.id, name);
    try {
      const c = await touchesOf(plan).commitTask(n, message, o.commitTimeoutMs);
      if (!c) return null;
      emitRaw({ type: 'commit', plan_id: plan.id, task: n, sha: c.sha, message, files: c.files });
      return c.sha;
    } catch (err) {
      emitRaw({ type: 'warning', message: `task ${n} passed but the commit failed (changes left in the working tree): ${(err as Error).message.split('\n')[0]}` });
      return null;
    }
  }

  function finish(plan: Plan, n: number | null, name: string, end: TaskEnd, handoff: import('../engine/core/types.js').Handoff | null, detail: string | null): TaskEnd {
    emitRaw({ type: 'task_end', plan_id: plan.id, task: n, name, outcome: end.outcome, stop_reason: end.stop_reason, iterations: end.iterations, commit: end.commit, detail, handoff });
    return end;
  }

  function rel(p: string): string {
    return p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p;
  }
}

/**
 * This very `ralf run` command line, to run again where it was typed (its target, agent and
 * flags: a bare `ralf run` has no target and fails). In-process callers (tests) have no command
 * line of ours: `ralf run`.
 */
function runAgainCommand(): string {
  const args = isBundled ? process.argv.slice(2) : ['run'];
  return [commandInvocation(), ...args.map(shellWord)].join(' ');
}

/** Agent failures the user must fix before running again (bad --agent, no credentials): exit 2. */
const HARD_SETUP = new Set(['not_found', 'not_executable', 'spawn_failed', 'auth']);

/** `Task 2: ` / `The plan-level loop: `, opening a warning. */
function whose(n: number | null): string {
  return n === null ? 'The plan-level loop: ' : `Task ${n}: `;
}

function label(n: number | null, name: string): string {
  return n === null ? 'The plan-level loop' : `Task ${n} (${name})`;
}

function checkpointReplies(plan: Plan, memory: RunMemory): PromptInput['checkpoint_replies'] {
  // Answers are filed under the item's key (its id, else its number).
  return Object.entries(memory.checkpoints).map(([k, v]) => {
    const task = plan.tasks.find((t) => itemKey(t) === k);
    return { number: task?.number ?? Number(k), name: task?.name ?? `Task ${k}`, reply: v.reply };
  });
}

export function checkpointInfo(task: PlanTask): CheckpointInfo {
  const e = task.elements;
  return {
    checkpoint_type: task.type ?? 'checkpoint',
    gate: task.gate,
    what_built: e['what-built'] ?? null,
    how_to_verify: e['how-to-verify'] ?? null,
    decision: e.decision ?? null,
    options: e.options ?? null,
    action: task.type?.startsWith('checkpoint') ? (e.action ?? e.instructions ?? null) : (e.action ?? null),
    resume_signal: e['resume-signal'] ?? null,
  };
}

function row(plan: Plan, task: PlanTask, outcome: RunSummaryRow['outcome'], stop: StopReason | null, iterations: number, commit: string | null, tokens: number, max: number, enabled: boolean): RunSummaryRow {
  const decision = task.decision === 'refuse' ? 'refuse' : task.decision === 'loop' && enabled ? 'loop' : 'skip';
  return { plan_id: plan.id, task: task.number, name: task.name, decision, outcome, iterations, max_iterations: decision === 'loop' ? max : null, stop_reason: stop, tokens, commit };
}

function signalName(signal: AbortSignal): string | null {
  const r: unknown = signal.reason;
  return typeof r === 'string' ? r : 'SIGINT';
}

function safeCall(fn: () => void, emit: (e: RunEventBody) => void): void {
  try {
    fn();
  } catch (err) {
    emit({ type: 'warning', message: (err as Error).message });
  }
}

/** Up to 20 paths, then a count. */
function list(paths: string[]): string {
  return `${paths.slice(0, 20).join(', ')}${paths.length > 20 ? `, … (${paths.length} in all)` : ''}`;
}
