/**
 * The I/O shell around the reducer for `ralf task verify` and `ralf plan verify`:
 * load config + plan, refuse what the loop must not wrap, run the checks OUTSIDE the
 * lock, fingerprint failures, snapshot the working tree and diff the task's files, run
 * the Rule 4 diff guard, then reduce + persist under the plan lock (apply-event.ts).
 */
import { limitsOfSettings, settingsToApply } from '../core/settings-at-start.js';
import { alreadyFailing, baselineOf, failsAsBefore } from '../core/baseline.js';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createHash } from '../../lazy-crypto.js';
import { monotonicMs } from '../../monotonic.js';
import { openCheckLedger, reapOrphanChecks } from '../../verify/orphan-checks.js';
import { ExitCode } from '../../exit-codes.js';
import type { RalfLiteConfig } from '../../config/schema.js';
import { snapshotWarnings, untrackedFileCapBytes } from '../../git/snapshot.js';
import { describeCheck, formatCommandForDisplay } from '../../verify/describe.js';
import { checksToRun } from '../core/checks-at-start.js';
import { unitLines } from '../core/unit-lines.js';
import { fewerTests, holdWeakened, moreSkipped, runsText, skipsText, type MoreSkipped } from '../core/skips.js';
import { checkDefinitionFiles, firstFailingTree, testsEdited, testsEditedText, type TestsEdited } from '../core/test-files.js';
import { scriptCommands } from '../../plan/shell-words.js';
import { resetCommand } from '../core/commands.js';
import { committedNote, lostNote, restoreFromStartCommand, restoreStagingCommand, stagingChanged, stagingNote, uncommittedCommitted, uncommittedLost, type UncommittedAtStart } from '../core/uncommitted.js';
import { runGit } from '../../git/run-git.js';
import { readHead } from '../../git/repo.js';
import { literalPathspec } from '../../git/pathspec.js';
import { pathChanges } from '../../git/diff.js';
import { deletedOutsideFinding } from '../../git/rule4.js';
import { commandInvocationIn } from './invocation.js';
import { checksInPlanAt } from './plan-at-start.js';
import type { Check } from '../../plan/model.js';
import { loopOf } from '../core/find-loop.js';
import { applyEvent, recordNotLooped, type ApplyEventResult } from './apply-event.js';
import { taskKeyOf } from '../core/task-identity.js';
import { findTask, loadPlanTarget, loopContext, notLoopedOf, withoutDeferred, type ConfigOptions, type LoadedPlan } from './context.js';
import { applyApprovals, updateApprovals } from '../core/approvals.js';
import { keepLoopTrees } from './keep-loop.js';
import { defaultDeps, type DiffIgnoreLike, type EngineDeps, type OutputScanLike, type RawCheck } from './deps.js';
import type { Decision, LoopContext } from '../core/events.js';
import { isFinal } from '../core/loop-state.js';
import { projectRootForPlan } from './paths.js';
import { FILES_LISTED, reduce } from '../core/reducer.js';
import { lastLines } from '../core/tail.js';
import { mark } from './timing.js';
import { otherLoopsFiles } from './other-loops.js';
import { declaredHash } from './declared-hash.js';
import { LOOP_DISABLED, refusal, refuseUnlessLooped } from './refusal.js';
import { LOCK_WAIT_MS, readPlanStateFile, stopFlagPresent } from './store.js';
import { waitForLockFree } from '../../fs/lock.js';
import { compareText } from '../../compare-text.js';
import type { CheckResult, Handoff, LoopState, PlanState, StopReason, Verdict } from '../core/types.js';

export interface VerifyOptions extends ConfigOptions {
  planPath: string;
  /** The agent confirms the task's manual (non-executable) done criteria. */
  doneConfirmed?: boolean | undefined;
  /** The clock (tests pass a fixed one). */
  now?: (() => Date) | undefined;
  /** Aborting kills the running checks and records `interrupted` (exit 130). */
  signal?: AbortSignal | undefined;
  lockWaitMs?: number | undefined;
  onCheckStart?: ((index: number, check: Check, total: number) => void) | undefined;
  deps?: EngineDeps | undefined;
  /** The host session the command runs in (recorded for the Stop hook). */
  session?: LoopState['session'] | undefined;
}

export interface VerifyTaskOptions extends VerifyOptions {
  taskNumber: number;
}

/** What `ralf task verify --json` prints (the CLI contract), plus context. */
export interface VerifyOutcome {
  verdict: Verdict;
  stop_reason: StopReason | null;
  /** The process exit code for this outcome: 0 pass, 10 retry, 20 stop, 130 interrupted. */
  exit_code: number;
  scope: 'task' | 'plan';
  task: { number: number; name: string } | null;
  plan_id: string;
  plan_path: string;
  iteration: number;
  max_iterations: number;
  /** This verify added an iteration (false: unconfirmed pass, loop already ended, interrupted). */
  counted: boolean;
  already_ended: boolean;
  fingerprint: string | null;
  progress: boolean | null;
  progress_reasons: string[];
  checks: CheckResult[];
  failing_tests: string[];
  done_confirmed: boolean;
  /** Manual done criteria the agent must confirm with --done-confirmed. */
  manual: string[];
  requires_confirmation: boolean;
  warning: string | null;
  message: string;
  next: string;
  interrupted: { cause: 'signal' | 'stop_flag' | 'external'; signal: string | null } | null;
  handoff: Handoff | null;
  state_path: string;
  /** A --done-confirmed verify reused the green result of the unchanged tree instead of running the checks again. */
  checks_reused?: boolean;
  /** Files the checks themselves modified during this verify (reported, never counted as the agent's). */
  checks_modified?: string[];
  /** State files of the project that had been deleted and were put back from ralf's copy in the git dir before this verify (state-copy.ts). */
  state_recovered?: string[];
  /** The user's uncommitted work at the task's start that a git command took since (a stash, reset --hard, checkout, clean), with the command that brings it back (core/uncommitted.ts). */
  uncommitted_lost?: { paths: string[]; restore_command: string };
  /** The user's uncommitted work at the task's start that the commits since hold as the user had it (`git add -A`, `commit -a`), and that range of commits (core/uncommitted.ts). */
  uncommitted_committed?: { paths: string[]; commits: string };
  /** The user's uncommitted work at the task's start whose staging changed since (`git add -A`, a stash) while HEAD stayed, with the command that puts that staging back (core/uncommitted.ts). */
  uncommitted_staging?: { paths: string[]; restore_command: string };
  /**
   * The plan's checks for this scope as they are now, when they were edited since the loop
   * started: these did NOT run; `checks` are the ones the loop started with.
   */
  plan_checks_edited?: string[];
  /** Verdict settings changed in the config since the loop started (`key: old -> new`); not applied. */
  config_edited?: string[];
  /** Checks whose run skips more tests than where the loop started (a passing one is held as failing). */
  skipped_more?: MoreSkipped[];
  /** Checks whose run counts fewer tests than earlier in the loop (a passing one is held as failing). */
  fewer_tests?: MoreSkipped[];
  /**
   * Every check passes and test files changed since the loop's first failing iteration
   * (core/test-files.ts): a weakened test passes like a fixed one; a human reviews them. Not a verdict.
   */
  tests_edited?: TestsEdited;
  /** Passed on the very tree an earlier iteration failed on (that iteration): flaky checks, or a change outside the tree. The pass stands. */
  same_tree_failed?: number;
  /** What the working-tree snapshot left out or warns about; null outside git or when no check ran. */
  snapshot?: SnapshotNotes | null;
  /** Checks that already failed before the task's first edit (the baseline), and whether they still do. */
  already_failing?: string[];
  /** The history log (`<plan-id>.jsonl`) could not be appended; the state file was written. */
  log_warning?: string;
}

export interface SnapshotNotes {
  /** Untracked, not-ignored files in the snapshot. */
  untracked_files: number;
  /** Untracked files above `snapshot.max_untracked_file_mb`, left out of the snapshot. */
  skipped_large_files: Array<{ path: string; bytes: number }>;
  /** Readable warnings about the above (empty when there is nothing to say). */
  warnings: string[];
}

/** Output kept per check in the state file. */
export const STATE_TAIL_LINES = 60;
export const STATE_TAIL_CHARS = 4000;

const clock = (o: VerifyOptions) => () => (o.now ? o.now() : new Date()).toISOString();

export function exitCodeFor(decision: Pick<Decision, 'verdict' | 'stop_reason'>): number {
  if (decision.verdict === 'pass') return ExitCode.ok;
  if (decision.verdict === 'retry') return ExitCode.retry;
  if (decision.verdict === 'confirm') return ExitCode.confirm;
  return decision.stop_reason === 'interrupted' ? ExitCode.interrupted : ExitCode.stop;
}

/** What differs between the task loop and the plan-level loop. */
interface Scope {
  scope: 'task' | 'plan';
  taskNumber: number | null;
  /** The task's identity key (task-identity.ts); absent for the plan-level loop. */
  key?: string;
  name: string;
  checks: Check[];
  manual: string[];
  /** Files whose diff measures progress (empty: the whole tree). */
  files: string[];
  declaredFiles: string[];
}

export async function verifyTask(options: VerifyTaskOptions): Promise<VerifyOutcome> {
  mark('enter');
  const deps = options.deps ?? (await defaultDeps());
  mark('deps');
  const early = snapshotEarly(deps, options.planPath);
  const loaded = await loadAndConfigure(deps, options, early);
  mark('config+plan');
  const task = findTask(loaded.plan, options.taskNumber, options.planPath);
  const key = taskKeyOf(loaded.plan.tasks, task.number);
  if (!loopedSinceStart(loaded, task.decision, task.number, key)) refuseUnlessLooped(loaded, task, clock(options)(), options.lockWaitMs);
  return verifyScope(deps, loaded, options, early, {
    scope: 'task',
    taskNumber: task.number,
    key,
    name: task.name,
    checks: task.checks,
    manual: task.manual,
    files: task.files,
    declaredFiles: loaded.plan.frontmatter.files_modified,
  });
}

/**
 * A task (or the plan-level loop) whose open loop recorded its checks stays looped when the
 * plan now says `skip` (its checks deleted, its type or `autonomous` changed): an agent must
 * not leave the loop by editing the plan, and the recorded checks run (verifyScope). A
 * refusal (a checkpoint: a human's gate) still refuses, and so does `enabled: false` (the
 * user's switch for the whole loop).
 */
function loopedSinceStart(loaded: LoadedPlan, decision: string, taskNumber: number | null, key: string | undefined): boolean {
  if (decision !== 'skip' || !loaded.effective.config.enabled) return false;
  const loop = loopOf(readPlanStateFile(loaded.paths.state), taskNumber, key);
  return loop !== null && !isFinal(loop) && loop.status !== 'passed' && (loop.checks_at_start?.length ?? 0) > 0;
}

export async function verifyPlan(options: VerifyOptions): Promise<VerifyOutcome> {
  const deps = options.deps ?? (await defaultDeps());
  const early = snapshotEarly(deps, options.planPath);
  const loaded = await loadAndConfigure(deps, options, early);
  const { plan } = loaded;
  const now = clock(options);
  const enabled = loaded.effective.config.enabled;
  if ((plan.plan_decision.decision !== 'loop' || !enabled) && !loopedSinceStart(loaded, plan.plan_decision.decision, null, undefined)) {
    const decision = plan.plan_decision.decision === 'refuse' ? 'refuse' : 'skip';
    const reason = !enabled && plan.plan_decision.decision === 'loop' ? LOOP_DISABLED : plan.plan_decision.reason;
    const logWarning = recordNotLooped({ target: loaded, now: now(), notLooped: notLoopedOf(plan), planNotLooped: { decision, reason }, taskNumber: null, reason, lockWaitMs: options.lockWaitMs });
    throw refusal(decision, `The plan-level loop of ${loaded.planRel}`, reason, null, logWarning);
  }
  const files = [...new Set([...plan.frontmatter.files_modified, ...plan.tasks.flatMap((t) => t.files)])];
  return verifyScope(deps, loaded, options, early, {
    scope: 'plan',
    taskNumber: null,
    name: plan.objective ? firstLine(plan.objective) : `Plan ${plan.id}`,
    checks: plan.plan_checks,
    manual: plan.plan_manual,
    files,
    declaredFiles: files,
  });
}

function firstLine(text: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

interface EarlySnapshot {
  root: string;
  tree: Promise<Settled<string | null>>;
  notes: Promise<SnapshotNotes | null>;
  /** Hands the running snapshot the size cap from the config (null: the default). */
  configured(config: RalfLiteConfig | null): void;
}

/**
 * Starts the working-tree snapshot before anything else (it needs only the project root):
 * its git processes then overlap config/plan loading and the checks instead of adding to
 * them. The snapshot is the code being verified, so taking it before the checks is right.
 * Its size cap comes from the config: git lists the working tree meanwhile, and the
 * snapshot waits for the cap only when it sizes what git listed.
 */
function snapshotEarly(deps: EngineDeps, planPathArg: string): EarlySnapshot | null {
  const root = projectRootForPlan(resolve(planPathArg));
  return root === null || !deps.git.insideGit(root) ? null : startSnapshot(deps, root);
}

function startSnapshot(deps: EngineDeps, root: string): EarlySnapshot {
  let configured!: (config: RalfLiteConfig | null) => void;
  const cap = new Promise<number>((resolveCap) => {
    configured = (config) => resolveCap(maxUntrackedFileBytes(config));
  });
  if (!deps.git.takeSnapshot) return { root, tree: settle(deps.git.snapshot(root)), notes: Promise.resolve(null), configured };
  const snap = settle(deps.git.takeSnapshot(root, { maxUntrackedFileBytes: cap }));
  const tree = snap.then((s): Settled<string | null> => (s.ok ? { ok: true, value: s.value?.tree ?? null } : s));
  const notes = snap.then((s) => (s.ok && s.value ? { untracked_files: s.value.untracked_files, skipped_large_files: s.value.skipped_large_files, warnings: snapshotWarnings(s.value) } : null));
  return { root, tree, notes, configured };
}

/** Every snapshot of a verify uses the same cap: they share git's stat cache (the private index). */
function maxUntrackedFileBytes(config: RalfLiteConfig | null): number {
  return untrackedFileCapBytes(config?.snapshot?.max_untracked_file_mb);
}

/** Config + plan; the early snapshot gets its size cap as soon as the config is known. */
async function loadAndConfigure(deps: EngineDeps, options: VerifyOptions, early: EarlySnapshot | null): Promise<LoadedPlan> {
  let loaded: LoadedPlan | null = null;
  try {
    loaded = await loadPlanTarget(deps, options.planPath, options);
    return loaded;
  } finally {
    early?.configured(loaded?.effective.config ?? null);
  }
}

async function verifyScope(deps: EngineDeps, loaded: LoadedPlan, options: VerifyOptions, early: EarlySnapshot | null, planScope: Scope): Promise<VerifyOutcome> {
  const now = clock(options);
  let snapshotNotes: SnapshotNotes | null = null;
  // The user's uncommitted work a git command took since the task started (core/uncommitted.ts).
  let userWorkLost: { paths: string[]; restore_command: string } | null = null;
  let userWorkCommitted: { paths: string[]; commits: string } | null = null;
  let userStagingChanged: { paths: string[]; restore_command: string } | null = null;
  // The plan's scope, until the checks the loop started with replace edited ones (below).
  let scope = planScope;
  let ctx = loopContext(loaded, loaded.effective, loaded.plan, scope.taskNumber);
  let requiresConfirmation = scope.manual.length > 0 || scope.checks.length === 0;
  let planChecksEdited: string[] | null = null;
  const doneConfirmed = options.doneConfirmed === true;
  const root = loaded.projectRoot;
  const cfg = loaded.effective.config;
  const notLooped = notLoopedOf(loaded.plan);
  const common = {
    target: loaded,
    scope: scope.scope,
    taskNumber: scope.taskNumber,
    taskName: scope.name,
    taskKey: scope.key,
    ctx,
    config: { config: cfg, sources: loaded.effective.sources },
    notLooped,
    taskCount: loaded.plan.tasks.length,
    lockWaitMs: options.lockWaitMs,
    session: options.session,
  };
  const outcome = ({ decision, loop, logWarning }: Pick<ApplyEventResult, 'decision' | 'loop' | 'logWarning'>, checks: CheckResult[], interrupted: VerifyOutcome['interrupted'] = null): VerifyOutcome => ({
    verdict: decision.verdict,
    stop_reason: decision.stop_reason,
    exit_code: exitCodeFor(decision),
    ...(loop.baseline?.failing.length ? { already_failing: alreadyFailing(loop.baseline, checks) } : {}),
    scope: scope.scope,
    task: scope.taskNumber === null ? null : { number: scope.taskNumber, name: scope.name },
    plan_id: loaded.planId,
    plan_path: loaded.planRel,
    iteration: decision.iteration,
    max_iterations: ctx.limits.max_iterations,
    counted: decision.counted,
    already_ended: decision.already_ended,
    fingerprint: decision.fingerprint,
    progress: decision.progress,
    progress_reasons: decision.progress_reasons,
    checks,
    failing_tests: [...new Set(checks.flatMap((c) => c.failing_tests ?? []))],
    done_confirmed: decision.verdict === 'pass' ? loop.done_confirmed : doneConfirmed,
    manual: scope.manual,
    requires_confirmation: requiresConfirmation,
    warning: decision.warning,
    message: [decision.message, ...(userWorkLost ? [lostNote(userWorkLost.paths, userWorkLost.restore_command)] : []), ...(userWorkCommitted ? [committedNote(userWorkCommitted.paths, userWorkCommitted.commits)] : []), ...(userStagingChanged ? [stagingNote(userStagingChanged.paths, userStagingChanged.restore_command)] : []), ...(loaded.recovered_state ? [recoveredNote(loaded.recovered_state)] : [])].join(' '),
    next: decision.next,
    ...(loaded.recovered_state ? { state_recovered: loaded.recovered_state } : {}),
    ...(userWorkLost ? { uncommitted_lost: userWorkLost } : {}),
    ...(userWorkCommitted ? { uncommitted_committed: userWorkCommitted } : {}),
    ...(userStagingChanged ? { uncommitted_staging: userStagingChanged } : {}),
    interrupted,
    handoff: decision.handoff,
    state_path: loaded.paths.state,
    snapshot: snapshotNotes,
    ...(planChecksEdited ? { plan_checks_edited: planChecksEdited } : {}),
    ...(logWarning ? { log_warning: logWarning } : {}),
  });

  // Probe the plan's lock BEFORE anything runs: a plan another process holds is reported (busy,
  // exit 75) before minutes of checks, and a signal during the wait ends it (exit 130).
  const probe = await waitForLockFree(loaded.paths.lock, { waitMs: options.lockWaitMs ?? LOCK_WAIT_MS, signal: options.signal });
  if (probe === 'aborted') {
    const loop = loopOf(readPlanStateFile(loaded.paths.state), scope.taskNumber, scope.key);
    const n = loop?.iterations.length ?? 0;
    return outcome({
      decision: { verdict: 'stop', stop_reason: 'interrupted', iteration: n, counted: false, already_ended: false, progress: null, progress_reasons: [], fingerprint: null, warning: null, handoff: null, message: `interrupted (${signalName(options.signal) ?? 'signal'}) while waiting for the plan's lock; nothing ran and nothing was recorded.`, next: 'Stop now; the loop state is unchanged.' },
      loop: loop ?? ({ done_confirmed: false } as LoopState),
      logWarning: null,
    }, [],
      { cause: 'signal', signal: signalName(options.signal) },
    );
  }

  // A loop that already stopped answers at once: no checks, no iteration.
  const stateBefore = readPlanStateFile(loaded.paths.state);
  const before = loopOf(stateBefore, scope.taskNumber, scope.key);
  ctx = withoutDeferred(ctx, stateBefore, scope.taskNumber);
  // The verdict settings the loop started with, not an edited config's (core/settings-at-start.ts).
  const applied = settingsToApply(before?.settings_at_start, cfg);
  ctx = { ...ctx, limits: limitsOfSettings(applied.settings) };
  common.ctx = ctx;
  const confirmsStop = before?.stop_reason === 'unconfirmed' && doneConfirmed;
  if (before && isFinal(before) && !confirmsStop) {
    const r = applyEvent({ ...common, event: { type: 'query', now: now() }, action: 'verify', detail: 'verify after the loop stopped; nothing recorded' });
    return outcome(r, []);
  }

  const interrupt = (cause: 'signal' | 'stop_flag', checks: CheckResult[], signal: string | null) => {
    const r = applyEvent({ ...common, event: { type: 'interrupted', now: now(), cause, signal }, action: 'interrupt', detail: cause === 'stop_flag' ? '.planning/ralf/STOP present' : `signal ${signal ?? ''}`.trim() });
    const o = outcome(r, checks, { cause, signal });
    if (!r.decision.already_ended) return o;
    // The loop had passed already and stays so; the caller must still stop now.
    const why = cause === 'stop_flag' ? 'the STOP flag file (.planning/ralf/STOP) is present' : `interrupted by ${signal ?? 'a signal'}`;
    return { ...o, verdict: 'stop' as const, stop_reason: 'interrupted' as const, exit_code: ExitCode.interrupted, message: `${o.message} Not verified again: ${why}.`, next: 'Stop now; the loop state is unchanged.' };
  };

  if (stopFlagPresent(root)) return interrupt('stop_flag', [], null);
  if (options.signal?.aborted) return interrupt('signal', [], signalName(options.signal));

  // Where the task started: recorded by `ralf task start`, else HEAD (GSD commits each
  // task, so uncommitted changes are this task's), else the tree at this first verify.
  const git = deps.git.insideGit(root);
  let startRef = before?.start_ref ?? null;
  if (startRef === null && scope.scope === 'plan') startRef = earliestTaskStart(stateBefore);
  const startKnown = startRef !== null;
  const startP = settle(startRef === null && git ? deps.git.headTree(root) : Promise.resolve(startRef));
  const snapshot = early && early.root === root ? early : git ? startSnapshot(deps, root) : null;
  snapshot?.configured(cfg);
  const treeP = snapshot ? snapshot.tree : settle(Promise.resolve(null));

  // The snapshot is the code being verified, so it is complete BEFORE the first check starts:
  // a check that rewrites tracked files (a build into dist/, codegen, a formatter) must not
  // tear it. The diff since the start then runs beside the checks.
  const tree = unwrap(await treeP);
  // What the task's named files hold, read with the snapshot: a file git ignores is in no tree.
  const declaredBefore = tree !== null ? declaredHash(root, scope.files) : null;
  snapshotNotes = (await snapshot?.notes) ?? null;
  const startFound = unwrap(await startP);
  const startSource: LoopState['start_source'] = startKnown ? 'task_start' : startFound !== null ? 'head' : 'first_verify';
  startRef = startFound ?? tree;
  // The checks the loop started with run, not ones edited since (core/checks-at-start.ts).
  // Recorded at `task start`; else read once from the start tree (the working tree itself
  // when the loop starts at this verify).
  const atStart = before?.checks_at_start ?? (startRef !== null && startSource !== 'first_verify' ? await checksInPlanAt(deps, loaded, scope, startRef) : scope.checks);
  const chosen = checksToRun(atStart, scope.checks);
  if (chosen.edited) {
    planChecksEdited = chosen.edited.map(describeCheck);
    scope = { ...scope, checks: chosen.checks };
    requiresConfirmation = scope.manual.length > 0 || scope.checks.length === 0;
  }
  mark('snapshot');
  // Changes to files another open plan declares are that plan's (parallel plans of a wave in
  // one working tree): found beside the checks, like the diff that leaves them out.
  const ignore: DiffIgnoreLike = { checkWritten: before?.check_written ?? {} };
  const since = before?.started_at ?? (scope.scope === 'plan' ? earliestTaskStartedAt(stateBefore) : null);
  const othersP = otherLoopsFiles(deps, { projectRoot: root, stateDir: dirname(loaded.paths.state), ownStateFile: loaded.paths.state, planRel: loaded.planRel, since, options });
  const diffP = settle(
    othersP.then((others) => {
      if (others.length > 0) ignore.otherLoops = others;
      return diffFacts(deps, root, startRef, tree, scope, before, ignore);
    }),
  );

  const uncommittedStart = before?.uncommitted_at_start;
  const lostP = settle(uncommittedStart && tree !== null && startRef !== null ? userWorkNow(root, uncommittedStart, startRef, tree) : Promise.resolve(null));

  // A confirmation of the green result just reported, on the very same tree with the same
  // checks, needs no second run: reuse it.
  const pending = before?.pending_confirmation;
  const reuse = doneConfirmed && pending != null && tree !== null && pending.tree === tree && sameCommands(pending.commands, scope.checks);

  // Checks left running by a verify that was killed with -9 go first (ports, locks, CPU).
  const stateDir = dirname(loaded.paths.state);
  const startedAt = now();
  const t0 = monotonicMs();
  let raw: RawCheck[];
  // The fingerprint reads each check's whole output as it streams, not only the kept head/tail.
  const scans = new Map<number, OutputScanLike>();
  const scanOf = (index: number): OutputScanLike => {
    let scan = scans.get(index);
    if (!scan) scans.set(index, (scan = deps.scanOutput!()));
    return scan;
  };
  if (reuse) {
    raw = pending.checks.map((c) => ({ ...c }));
  } else {
    reapOrphanChecks(stateDir);
    const ledger = openCheckLedger(stateDir);
    try {
      raw = await deps.runChecks(scope.checks, {
        cwd: root,
        timeoutMs: (cfg.check_timeout_seconds ?? loaded.checkTimeoutSeconds) * 1000,
        stopOnFirstFailure: applied.settings.stop_on_first_failure,
        onSpawn: (pgid) => ledger.add(pgid),
        ...(deps.scanOutput ? { onOutput: (index: number, chunk: Buffer) => scanOf(index).push(chunk) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onCheckStart ? { onCheckStart: options.onCheckStart } : {}),
      });
    } finally {
      ledger.close();
    }
  }
  const durationMs = reuse ? 0 : Math.round(monotonicMs() - t0);
  mark('checks');
  const fingerprinted = reuse ? (raw as CheckResult[]) : raw.map((c) => withFingerprint(deps, c, scans.get(c.index)));
  // The baseline (baseline.ts): a first verify of an untouched tree records what already fails;
  // with preexisting_failures: allow, a check failing only as it did before does not block.
  const firstBaseline = !before?.baseline && (before?.iterations.length ?? 0) === 0 && tree !== null && tree === startRef && applied.settings.preexisting_failures !== 'off' ? baselineOf(fingerprinted, now(), 'first_verify') : null;
  let checks = fingerprinted;
  mark('fingerprint');

  if (options.signal?.aborted || raw.some((c) => c.interrupted)) return interrupt('signal', checks, signalName(options.signal));
  if (stopFlagPresent(root)) return interrupt('stop_flag', checks, null);

  const diff = unwrap(await diffP);
  const userWork = unwrap(await lostP);
  if (userWork !== null && uncommittedStart && startRef !== null) {
    const lost = uncommittedLost(uncommittedStart, userWork.stillDiffering);
    if (lost.length > 0) userWorkLost = { paths: lost, restore_command: restoreFromStartCommand(startRef, lost) };
    const committed = userWork.differingFromStart === null ? [] : uncommittedCommitted(uncommittedStart, userWork.differingFromStart);
    if (committed.length > 0) userWorkCommitted = { paths: committed, commits: `${uncommittedStart.head.slice(0, 12)}..${userWork.head.slice(0, 12)}` };
    const restaged = userWork.stagingDiffering === null || !uncommittedStart.index ? [] : stagingChanged(uncommittedStart, userWork.stagingDiffering);
    if (restaged.length > 0) userStagingChanged = { paths: restaged, restore_command: restoreStagingCommand(uncommittedStart.index!, restaged) };
  }
  // allow: only once the agent changed something, so an idle agent never passes on old failures.
  const baseline = before?.baseline ?? null;
  if (applied.settings.preexisting_failures === 'allow' && baseline && diff.filesChanged.length > 0) {
    checks = checks.map((c) => (failsAsBefore(c, baseline) ? { ...c, passed: true, fingerprint: null, notes: [...(c.notes ?? []), 'already failing before the task, and failing only as before: not blocking (preexisting_failures: allow)'] } : c));
  }
  // A green run may have got there by skipping or deleting tests: such a check is held as
  // failing, and the answer says why (core/skips.ts).
  const skippedMore = moreSkipped(checks, before?.baseline ?? firstBaseline, before?.iterations ?? []);
  const fewer = fewerTests(checks, before?.baseline ?? firstBaseline, before?.iterations ?? []);
  checks = holdWeakened(checks, skippedMore, fewer);
  // Green after the agent changed test files: named for a human, never a verdict (core/test-files.ts).
  const edited = checks.length > 0 && checks.every((c) => c.passed) ? await testsEditedSinceFailure(deps, root, tree, before, scope.checks) : null;
  // Did the checks themselves change the working tree? Only shell checks can.
  const written = !reuse && tree !== null && scope.checks.some((c) => 'command' in c) ? await checksWrote(deps, root, tree, maxUntrackedFileBytes(cfg)) : null;
  let afterHash: string | null | undefined;
  if (written !== null && startRef !== null) {
    const merged = { ...ignore.checkWritten, ...written.paths };
    afterHash = (await deps.git.taskDiff({ root, fromTree: startRef, toTree: written.tree, taskFiles: scope.files, declaredFiles: scope.declaredFiles, ignore: { ...ignore, checkWritten: merged } })).diffHash;
  }
  const declaredAfter = declaredBefore !== null && !reuse ? declaredHash(root, scope.files) : declaredBefore;
  mark('diff');
  // Rule 4 approvals (approvals.ts): approved findings are recorded, never a stop.
  const approvals = stateBefore?.approvals ?? [];
  const owner = { scope: scope.scope, taskKey: scope.key ?? null };
  // The user's untracked file a git command (stash -u, clean) took is not the task's deletion.
  const takenFromUser = new Set((userWorkLost?.paths ?? []).map(deletedOutsideFinding));
  const guard = applyApprovals(diff.findings.filter((f) => !takenFromUser.has(f)), approvals, owner);
  const r = applyEvent({
    ...common,
    ...(guard.absorbed.size > 0 || approvals.some((a) => a.open) ? { planPatch: (st: PlanState, l: LoopState) => updateApprovals(st, guard.absorbed, owner, l.status === 'passed') } : {}),
    event: {
      type: 'iteration_verified',
      now: now(),
      started_at: startedAt,
      duration_ms: durationMs,
      // State keeps a short tail per check (readable JSON, fast checkpoint writes); the
      // caller still gets the full bounded output below.
      checks: checks.map((c) => (c.output_tail.length > STATE_TAIL_CHARS ? { ...c, output_tail: lastLines(c.output_tail, STATE_TAIL_LINES, STATE_TAIL_CHARS) } : c)),
      diff_hash: diff.diffHash,
      tree: diff.tree,
      files_changed: diff.filesChanged,
      files_changed_count: diff.filesChangedCount,
      rule4_findings: guard.blocking,
      ...(guard.approved.length > 0 ? { rule4_approved: guard.approved } : {}),
      ignore_key: diff.ignoreKey,
      ...(written !== null ? { after_hash: afterHash ?? null, check_written: written.paths } : {}),
      ...(declaredBefore !== null ? { declared_hash: declaredBefore, declared_after_hash: declaredAfter } : {}),
      done_confirmed: doneConfirmed,
      requires_confirmation: requiresConfirmation,
      start_ref: startRef,
      start_source: startSource,
      ...(before?.checks_at_start ? {} : { checks_at_start: atStart }),
      ...(applied.record ? { settings_at_start: applied.settings } : {}),
      ...(planChecksEdited ? { plan_checks_edited: planChecksEdited } : {}),
      ...(skippedMore.length > 0 ? { skipped_more: skippedMore } : {}),
      ...(fewer.length > 0 ? { fewer_tests: fewer } : {}),
      ...(edited ? { tests_edited: edited } : {}),
      ...(firstBaseline ? { baseline: firstBaseline } : {}),
    },
    action: 'verify',
  });
  mark('persist');
  // A stop waits for a human, maybe for weeks: keep the loop's trees from git gc (keep-loop.ts).
  if (r.decision.verdict === 'stop' && r.decision.counted && tree !== null) await keepLoopTrees(root, loaded.stateId, scope.key ?? null, r.loop);
  const o = outcome(r, checks);
  const sameTreeFailed = r.decision.counted ? r.loop.iterations.at(-1)?.same_tree_failed : undefined;
  const reused = reuse && r.decision.counted;
  const listed = written ? Object.keys(written.paths) : [];
  const reset = planChecksEdited || skippedMore.length > 0 || fewer.length > 0 || applied.edited.length > 0 ? resetCommand(loaded.planRel, scope.taskNumber, commandInvocationIn(loaded.projectRoot)) : '';
  const notes = [
    ...(planChecksEdited ? [editedChecksNote(planChecksEdited, scope, loaded, startSource, reset)] : []),
    ...(applied.edited.length > 0 ? [`the config changed since the loop started (${applied.edited.join(', ')}); the loop keeps judging by the values it started with. A human who changed them on purpose runs \`${reset}\`.`] : []),
    ...(skippedMore.length > 0 ? [skippedMoreNote(skippedMore, reset)] : []),
    ...(fewer.length > 0 ? [fewerTestsNote(fewer, reset)] : []),
    ...(edited ? [`${testsEditedText(edited)}. A check cannot tell a fixed test from a weakened, skipped or deleted one; a human reviews these changes before relying on the pass.`] : []),
    ...(listed.length > 0 ? [`checks modified tracked files: ${listed.slice(0, 10).join(', ')}${listed.length > 10 ? ` and ${listed.length - 10} more` : ''} (the verified code is the tree before the checks ran; these changes are not counted as the agent's).`] : []),
  ];
  const message = [`${o.message}${reused ? ` (the checks' green result from ${pending.at} was reused: the working tree has not changed since)` : ''}`, ...notes.map((n) => `Note: ${n}`)].join(' ');
  return {
    ...o,
    message,
    ...(reused ? { checks_reused: true } : {}),
    ...(skippedMore.length > 0 ? { skipped_more: skippedMore } : {}),
    ...(fewer.length > 0 ? { fewer_tests: fewer } : {}),
    ...(edited ? { tests_edited: edited } : {}),
    ...(sameTreeFailed !== undefined ? { same_tree_failed: sameTreeFailed } : {}),
    ...(listed.length > 0 ? { checks_modified: listed } : {}),
    ...(applied.edited.length > 0 ? { config_edited: applied.edited } : {}),
  };
}

/**
 * Why other checks ran than the plan shows, and what a human who meant the change does. The
 * agent reads this too: it must not look like an invitation to reset the loop itself.
 */
function editedChecksNote(edited: string[], scope: Scope, loaded: LoadedPlan, startSource: LoopState['start_source'], reset: string): string {
  const whose = scope.scope === 'plan' ? "the plan-level checks" : `task ${scope.taskNumber}'s checks`;
  const shown = edited.length === 0 ? 'none' : edited.slice(0, 5).map((c) => `\`${formatCommandForDisplay(c, 80)}\``).join(', ') + (edited.length > 5 ? ` and ${edited.length - 5} more` : '');
  const changed = startSource === 'head' ? `${whose} differ from the plan as committed at HEAD` : `${whose} were edited since the loop started`;
  const ran = startSource === 'head' ? 'as committed' : 'as they were then';
  return `in ${loaded.planRel}, ${changed} (now: ${shown}); ralf ran them ${ran}, as the plan's author wrote them. Do not edit a plan's checks to pass them; a human who changed them on purpose runs \`${reset}\` to start the loop over with the plan as it is.`;
}

function skippedMoreNote(more: MoreSkipped[], reset: string): string {
  const each = more.map((m) => `\`${formatCommandForDisplay(m.command, 80)}\` ${skipsText(m)}`);
  return `${each.join('; ')}. A skipped test verifies nothing: a passing check that skips more is held as failing. Unskip the test and make it pass; a human who wants the skip runs \`${reset}\` to count from the tree as it is.`;
}

function fewerTestsNote(fewer: MoreSkipped[], reset: string): string {
  const each = fewer.map((m) => `\`${formatCommandForDisplay(m.command, 80)}\` ${runsText(m)}`);
  return `${each.join('; ')}. A deleted test verifies nothing: a passing check that runs fewer tests is held as failing. Restore the test and make it pass; a human who removed it on purpose runs \`${reset}\` to count from the tree as it is.`;
}

/** Test files changed between the loop's first failing iteration's tree and this one (git only). */
async function testsEditedSinceFailure(deps: EngineDeps, root: string, tree: string | null, loop: LoopState | null, checks: Check[]): Promise<TestsEdited | null> {
  const from = firstFailingTree(loop?.iterations ?? []);
  if (tree === null || from === null || from.tree === tree) return null;
  const commands = checks.flatMap((c) => ('command' in c ? [scriptCommands(c.command)] : []));
  return testsEdited(from.iteration, Object.keys(await deps.git.written(root, from.tree, tree)), checkDefinitionFiles(commands));
}

function sameCommands(recorded: string[], checks: Check[]): boolean {
  if (recorded.length !== checks.length) return false;
  return checks.every((c, i) => recorded[i] === describeCheck(c));
}

/**
 * A second snapshot after the checks: equal to the first unless a check changed the working
 * tree. Then the paths it wrote (and their content) are returned, so neither the Rule 4 guard
 * nor progress attributes them to the agent.
 */
async function checksWrote(deps: EngineDeps, root: string, tree: string, capBytes: number): Promise<{ tree: string; paths: Record<string, string> } | null> {
  const after = await deps.git.snapshot(root, { maxUntrackedFileBytes: capBytes });
  if (after === null || after === tree) return null;
  const paths = await deps.git.written(root, tree, after);
  return Object.keys(paths).length === 0 ? null : { tree: after, paths };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects (it may settle while we await something else). */
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function unwrap<T>(s: Settled<T>): T {
  if (s.ok) return s.value;
  throw s.error;
}

/**
 * Where the user's uncommitted work at the start stands now: of `paths`, those whose content in
 * `tree` still differs from `head` (the start's HEAD; the others hold only what it had), and,
 * when HEAD moved since, those whose content in HEAD differs from the start snapshot (the others
 * were committed as the user had them).
 */
async function userWorkNow(root: string, atStart: UncommittedAtStart, startRef: string, tree: string): Promise<{ stillDiffering: string[]; differingFromStart: string[] | null; stagingDiffering: string[] | null; head: string } | null> {
  const diffTree = async (from: string, to: string) => (await pathChanges(root, from, to, atStart.paths)).map((c) => c.path);
  // What is staged now against what the user had staged at the start (read-only: --cached reads the index, not the files).
  const stagedNow = async (index: string) =>
    (await runGit(['diff-index', '--cached', '--no-renames', '--name-only', '-z', '--relative', index, '--', ...atStart.paths.map(literalPathspec)], { cwd: root })).stdout.toString('utf8').split('\0').filter(Boolean);
  try {
    const [stillDiffering, headNow, staged] = await Promise.all([diffTree(atStart.head, tree), readHead(root), atStart.index ? stagedNow(atStart.index) : Promise.resolve(null)]);
    const moved = headNow !== '' && headNow !== atStart.head;
    // After a commit the index is the new HEAD's: what the commit took in is said instead (uncommitted_committed).
    return { stillDiffering, differingFromStart: moved ? await diffTree(startRef, headNow) : null, stagingDiffering: moved ? null : staged, head: headNow || atStart.head };
  } catch {
    return null;
  }
}

/** What the answer says when the loop's state had been deleted (state-copy.ts). */
function recoveredNote(paths: string[]): string {
  return `Note: ${paths.join(', ')} had been deleted since the last ralf command (git clean -fdx, rm -rf .planning/ralf?) and was put back from ralf's copy in the git dir, so the loop's count goes on. Leave .planning/ralf/ alone: it is the loop's record.`;
}

function signalName(signal: AbortSignal | undefined): string | null {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' ? reason : null;
}

function earliestTaskStartedAt(state: PlanState | null): string | null {
  const starts = Object.values(state?.tasks ?? {}).flatMap((l) => (l.started_at ? [l.started_at] : []));
  return starts.sort()[0] ?? null;
}

function earliestTaskStart(state: PlanState | null): string | null {
  const loops = Object.values(state?.tasks ?? {}).filter((l) => l.start_ref && l.started_at);
  loops.sort((a, b) => compareText(a.started_at ?? '', b.started_at ?? ''));
  return loops[0]?.start_ref ?? null;
}

export function withFingerprint(deps: EngineDeps, raw: RawCheck, scan?: OutputScanLike | undefined): CheckResult {
  const { interrupted: _i, output_bytes: _b, ...c } = raw;
  if (c.passed || c.skipped) return { ...c, fingerprint: null };
  // The scan saw every byte the check wrote; without one (file checks, spawn errors) the kept output is read.
  const analysed = scan && raw.output_bytes ? scan.result({ exitCode: c.exit_code }) : deps.fingerprint(c.output_tail, { exitCode: c.exit_code });
  let fp = analysed.fingerprint;
  if (c.timed_out) fp = `timed out: ${fp ?? c.command}`;
  // The set of failing units (tests, else distinct diagnostics): the delta compares these sets.
  const tests = analysed.failing_units;
  // How often they occur: the same diagnostic in three places is one unit (core/unit-lines.ts).
  const lines = deps.normalizeLine ? unitLines(c.output_tail, tests, deps.normalizeLine) : null;
  return { ...c, fingerprint: fp ?? `${c.command}: exit ${c.exit_code ?? c.signal ?? '?'}`, ...(tests.length > 0 ? { failing_tests: tests } : {}), ...(lines ? { unit_lines: lines } : {}) };
}

interface DiffFacts {
  tree: string | null;
  diffHash: string | null;
  filesChanged: string[];
  filesChangedCount: number;
  findings: string[];
  ignoreKey: string;
}

/**
 * The task's diff since its start. Skips git work when nothing can have changed: the tree
 * equals the start (no diff) or the previous iteration's tree (same facts as then).
 */
async function diffFacts(deps: EngineDeps, root: string, startRef: string | null, tree: string | null, scope: Scope, before: LoopState | null, ignore: DiffIgnoreLike): Promise<DiffFacts> {
  const ignoreKey = ignoreKeyOf(ignore);
  if (tree === null || startRef === null) {
    // Outside git: progress can still see the task files' contents change.
    return { tree: null, diffHash: contentHash(root, scope.files), filesChanged: [], filesChangedCount: 0, findings: [], ignoreKey };
  }
  if (tree === startRef) return { tree, diffHash: null, filesChanged: [], filesChangedCount: 0, findings: [], ignoreKey };
  const last = before?.tree_facts;
  if (last && last.tree === tree && last.start_ref === startRef && (last.ignore_key ?? '') === ignoreKey) {
    return { tree, diffHash: last.diff_hash, filesChanged: last.files_changed, filesChangedCount: last.files_changed_count ?? last.files_changed.length, findings: last.rule4_findings, ignoreKey };
  }
  const { diffHash, filesChanged, findings } = await deps.git.taskDiff({ root, fromTree: startRef, toTree: tree, taskFiles: scope.files, declaredFiles: scope.declaredFiles, ignore });
  const files = filesChanged.filter((f) => !f.startsWith('.planning/ralf/'));
  return { tree, diffHash, filesChanged: files.slice(0, FILES_LISTED), filesChangedCount: files.length, findings, ignoreKey };
}

/** Identifies what a diff ignored, so cached facts computed with another ignore set are not reused. */
function ignoreKeyOf(ignore: DiffIgnoreLike): string {
  const written = Object.entries(ignore.checkWritten ?? {});
  const others = ignore.otherLoops ?? [];
  if (written.length === 0 && others.length === 0) return '';
  const h = createHash('sha1');
  for (const [p, b] of written.sort()) h.update(`${p}\0${b}\0`);
  h.update('\u0001');
  for (const p of [...others].sort()) h.update(`${p}\0`);
  return h.digest('hex').slice(0, 16);
}

function contentHash(root: string, files: string[]): string | null {
  if (files.length === 0) return null;
  const h = createHash('sha1');
  for (const f of [...files].sort()) {
    h.update(f).update('\0');
    try {
      h.update(readFileSync(join(root, f)));
    } catch {
      h.update('<missing>');
    }
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/** The decision for a loop as it stands, recording nothing. */
export function currentDecision(loop: LoopState, ctx: LoopContext): Decision {
  return reduce(loop, { type: 'query', now: loop.updated_at ?? new Date(0).toISOString() }, ctx).decision;
}
