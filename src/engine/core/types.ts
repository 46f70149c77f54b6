/**
 * The loop's recorded data: the contract between the engine (writer), the report,
 * `ralf status`, `ralf run` and the slash-command workflows (readers). Persisted as
 * JSON under `.planning/ralf/`; extend with optional fields, bump `schema_version`
 * only for incompatible changes.
 */
import type { UncommittedAtStart } from './uncommitted.js';
import type { Check, CheckKind } from '../../plan/model.js';
import type { Baseline } from './baseline.js';
import type { MoreSkipped } from './skips.js';
import type { TestsEdited } from './test-files.js';
import type { LoopSettings } from './settings-at-start.js';

/**
 * 2: tasks keyed by identity (`id:<id>` / `name:<slug>`, task-identity.ts) instead of position;
 * iterations keep the first 20 changed paths and a count. Version 1 files migrate on read
 * (migrate-state.ts) and are written back as 2.
 */
export const STATE_SCHEMA_VERSION = 2;

/** Changed paths kept per iteration (`files_changed_count` and the progress key cover the rest): state stays O(iterations). */
export const FILES_LISTED = 20;

export type StopReason =
  | 'success'
  | 'max_iterations'
  | 'repeated_fingerprint'
  | 'no_progress'
  | 'rule4_architectural'
  | 'interrupted'
  | 'time_budget'
  | 'token_budget'
  | 'blocked'
  /** The checks passed CONFIRM_MAX times in a row but the manual criteria were never confirmed. */
  | 'unconfirmed'
  /** A human set the task aside (`ralf task defer`); the plan goes on without it. */
  | 'deferred';

/** `confirm`: every check passes; the manual done criteria wait for `--done-confirmed` (exit 11). */
export type Verdict = 'pass' | 'retry' | 'confirm' | 'stop';

/** The result of running one check once. A failing check is a result, not an exception. */
export interface CheckResult {
  /** 0-based position in the task's check list (plan order). */
  index: number;
  kind: CheckKind;
  /** Shell command, or a description for file checks (e.g. `file_exists src/a.ts`). */
  command: string;
  passed: boolean;
  /** Not run because an earlier check failed and `stop_on_first_failure` is on. */
  skipped?: boolean;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  /** Head and tail of combined stdout+stderr, bounded. */
  output_tail: string;
  /** Normalized fingerprint of this check's failure output; null when it passed. */
  fingerprint: string | null;
  /** Names of failing tests parsed from the output, when recognisable. */
  failing_tests?: string[];
  /** What the check runner changed or judged beyond the exit status (watch mode off, <fails_when>, a silent green, a masking pipeline). */
  notes?: string[];
  /** The skipped tests the run's own summary counts (src/verify/summary-counts.ts); absent when it states none. */
  skipped_tests?: number;
  /** The tests the run's own summary says ran (src/verify/summary-counts.ts); absent when it states none. */
  tests_run?: number;
  /** The failed tests the run's own summary counts (src/verify/summary-counts.ts); absent when it states none. */
  tests_failed?: number;
  /** Output lines that read as one of `failing_tests` (core/unit-lines.ts): how often the failures occur. */
  unit_lines?: number;
  /**
   * Passed by its exit status, but held as failing: it skips more tests than where the loop
   * started, or runs fewer than earlier in the loop (core/skips.ts). The check did not verify
   * what it verified before.
   */
  held?: string;
}

export interface IterationRecord {
  iteration: number;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  passed: boolean;
  checks: CheckResult[];
  /** Fingerprint of the first failing check (the iteration's failure signature). */
  fingerprint: string | null;
  /**
   * How many times the repeated-fingerprint rule has counted this failure, ending here (the
   * loop's `fingerprint_streak` after this iteration); absent when it passed. A return to this
   * iteration's result continues from it (reducer.ts, countAfterReturn).
   */
  fingerprint_streak?: number;
  progress: boolean;
  /** Why it counts as progress (or `no progress: ...`), for humans. */
  progress_reasons: string[];
  /**
   * The progress key: a hash of every change since the loop's start (all files except
   * `.planning/ralf/`, files other open loops declare and files only the checks rewrote);
   * null when nothing changed. Equal keys mean the same tree for the loop's purposes.
   */
  diff_hash: string | null;
  /** The first FILES_LISTED changed paths since the start (bounded: see files_changed_count). */
  files_changed: string[];
  /** How many files changed since the start (files_changed lists at most the first 20). */
  files_changed_count?: number;
  /** The progress key of the tree the checks left behind, when they modified tracked files. */
  after_hash?: string | null;
  /**
   * A hash of the contents of the task's named files (`<files>`, exact paths), read with the
   * snapshot, and after the checks when they changed them: it sees a file git ignores (a fix in
   * the `.env` the task names), which the progress key leaves out (delta.ts).
   */
  declared_hash?: string;
  declared_after_hash?: string;
  /** Files the checks themselves modified during this iteration (first 20). */
  check_writes?: string[];
  /** What changed against the previous iteration (delta.ts), read by every stop rule. */
  delta?: IterationDelta;
  done_confirmed: boolean;
  verdict: Verdict;
  stop_reason: StopReason | null;
  /** Working-tree snapshot (git tree hash) the iteration was verified against; null outside git. */
  tree?: string | null;
  /** Failing test names over all checks (parsed from output), when recognisable. */
  failing_tests?: string[];
  /** Rule 4 diff-guard findings for this iteration that no approval covers (empty: none). */
  rule4_findings?: string[];
  /** Diff-guard findings a human approved (`ralf task approve`): seen, and not stopping the loop. */
  rule4_approved?: string[];
  /** The plan's checks at this verify, when someone had edited them since the loop started (not run: `checks` ran the loop's). */
  plan_checks_edited?: string[];
  /** Checks that skip more tests than where the loop started (core/skips.ts). */
  skipped_more?: MoreSkipped[];
  /** Checks that run fewer tests than earlier in the loop (core/skips.ts). */
  fewer_tests?: MoreSkipped[];
  /**
   * On a green iteration: test files changed since the loop's first failing iteration
   * (core/test-files.ts). A note for a human, never a verdict: a weakened assertion passes like a fix.
   */
  tests_edited?: TestsEdited;
  /**
   * A green iteration on the very tree an earlier iteration failed on: that iteration. The checks
   * are flaky (or something outside the tree changed); the pass stands, named for a human.
   */
  same_tree_failed?: number;
}

export interface IterationDelta {
  checks_fixed: string[];
  tests_fixed: string[];
  fingerprint_changed: boolean;
  /**
   * Some failing check's fingerprint changed (or which checks fail), not only the first one's:
   * check 2's error moved while check 1 failed the same way. A repeat of the iteration's
   * fingerprint counts only when this is false (reducer.ts).
   */
  failures_changed?: boolean;
  stage_advanced: string[];
  /** null: the tree cannot be identified (outside git, no task files). */
  novel_tree: boolean | null;
  /** The iteration whose tree this one returned to (0: the start tree). */
  returned_to: number | null;
  /**
   * Checks whose failing units are the same set but occur on fewer lines (the same error in
   * fewer places: one of three identical diagnostics fixed), as `command: before → now`.
   */
  errors_fewer?: string[];
  /**
   * Checks whose run counts fewer failed tests than before (its own summary: `Failed 3` → `Failed 2`)
   * while the failing units it names stay the same set (often none: a runner whose failures the
   * fingerprint cannot name), as `command: before → now`.
   */
  failed_fewer?: string[];
  /**
   * The earlier iteration (before the previous one) whose checks reported exactly what this
   * one's do, when the previous one reported something else: going round in circles on new
   * trees (delta.ts). Absent in states written before it existed.
   */
  returned_result?: number | null;
  /** Something fixed or further along on a novel tree: resets the repeated-fingerprint count. */
  improved: boolean;
}

export type RecommendedAction = 'decision_needed' | 'manual_investigation' | 'split_task' | 'none';

/** A Rule 4 escalation: by the agent (`ralf task escalate`) or by the diff guard. */
export interface Escalation {
  rule: 4;
  reason: string;
  source: 'agent' | 'diff_guard';
  findings?: string[];
  /** Optional parts of GSD's "Architectural Decision Needed" prompt, when the agent gave them. */
  proposed_change?: string;
  why_needed?: string;
  impact?: string;
  alternatives?: string;
}

/** The structured checkpoint handed to the human when the loop stops without success. */
export interface Handoff {
  scope: 'task' | 'plan';
  task_number: number | null;
  task_name: string;
  stop_reason: StopReason;
  iterations: number;
  max_iterations: number;
  fingerprints: Array<{ iteration: number; fingerprint: string | null }>;
  /** Checks or errors that went from failing to passing during the loop. */
  auto_fixed: string[];
  files_changed: string[];
  still_failing: Array<{ command: string; fingerprint: string | null; output_tail: string }>;
  /** Checks that already failed before the task (the baseline), with whether they still do. */
  already_failing?: string[];
  recommended_action: RecommendedAction;
  recommendation: string;
  /** Rule 4 escalation details when stop_reason is rule4_architectural. */
  escalation?: Escalation | null;
  /** The same content as Markdown, for the agent to show. */
  markdown: string;
}

export type LoopStatus = 'idle' | 'running' | 'passed' | 'stopped';

/**
 * A human's answer to a Rule 4 stop (`ralf task approve`), recorded in the plan state: the
 * approved findings no longer stop this task's loop, any later task's loop or the plan-level
 * loop (src/engine/approvals.ts).
 */
export interface Rule4Approval {
  at: string;
  scope: 'task' | 'plan';
  task_number: number | null;
  /** The task's identity key (task-identity.ts) when the approval is a task's. */
  task_key: string | null;
  task_name: string;
  /** The diff-guard findings approved, as the guard words them (matched exactly). */
  findings: string[];
  /** The escalation the human answered. */
  reason: string;
  source: Escalation['source'];
  /**
   * An agent's escalation (the change proposed, not made yet): the findings this task's loop
   * reports until it passes are covered too, and added to `findings` as they appear.
   */
  open: boolean;
  note: string | null;
  /** The approved working tree, kept as a commit under this ref (`git gc` cannot prune it). */
  ref: string | null;
}

/** A stretch of one loop that ended when the loop started over (`ralf task reset` / `approve`). */
export interface LoopSegment {
  iterations: IterationRecord[];
  status: LoopStatus;
  stop_reason: StopReason | null;
  escalation: Escalation | null;
  /** The handoff's recommended action and recommendation when the segment had stopped. */
  recommended_action: RecommendedAction | null;
  started_at: string | null;
  ended_at: string;
  ended_by: 'reset' | 'approve';
  total_duration_ms: number;
}

/** A task set aside (`ralf task defer`): the plan goes on without it. */
export interface Deferral {
  at: string;
  reason: string;
  /** The working tree before the loop's edits were removed, kept as a commit under this ref. */
  ref: string | null;
  /** Paths put back to what they held at the task's start. */
  removed: string[];
  /** Paths the loop changed that were left as they are, with why. */
  left: Array<{ path: string; reason: string }>;
  /** A command that brings the removed edits back, or null when nothing was removed. */
  restore_command: string | null;
}

/** One loop (a task's, or the plan-level loop). */
export interface LoopState {
  scope: 'task' | 'plan';
  task_number: number | null;
  task_name: string;
  status: LoopStatus;
  stop_reason: StopReason | null;
  max_iterations: number;
  iterations: IterationRecord[];
  /** Consecutive iterations with the same fingerprint (ending at the last iteration). */
  fingerprint_streak: number;
  /** Consecutive no-progress iterations (ending at the last iteration). */
  no_progress_streak: number;
  /** Git commit (or tree) the task started from; the diff guard and progress compare against it. */
  start_ref: string | null;
  started_at: string | null;
  updated_at: string | null;
  done_confirmed: boolean;
  escalation: Handoff['escalation'];
  handoff: Handoff | null;
  total_duration_ms: number;
  /** Checks passed but the task has manual done criteria the agent has not confirmed yet. */
  awaiting_confirmation?: boolean;
  /** Unconfirmed green verifies (`confirm` answers) since the last counted iteration; bounded by CONFIRM_MAX. */
  confirmations?: number;
  /**
   * The green result awaiting confirmation: a `--done-confirmed` verify of the same tree with
   * the same checks reuses it instead of running the checks again.
   */
  pending_confirmation?: { tree: string; commands: string[]; checks: CheckResult[]; at: string } | null;
  /** Checks that already failed before the agent's first edit (src/engine/baseline.ts). */
  baseline?: Baseline | null;
  /** The user's uncommitted work where `ralf task start` found the tree (paths differing from HEAD then; core/uncommitted.ts). */
  uncommitted_at_start?: UncommittedAtStart | null;
  /** Set while stopped with `interrupted`: the next verify resumes the loop (interrupted verifies never count). */
  interrupted?: { at: string; cause: 'signal' | 'stop_flag' | 'external'; signal?: string | null } | null;
  /** Set when the loop stopped on a `ralf run` event (`blocked`, `time_budget`, `token_budget`). */
  stop_detail?: string | null;
  /** The 80%-of-max_iterations warning from the last iteration, if any. */
  warning?: string | null;
  /**
   * The diff facts of the last verify (counted or not), so an unchanged working tree costs
   * no git diff next time. A cache: derived from `start_ref` and `tree`.
   */
  tree_facts?: TreeFacts | null;
  /**
   * What this loop's checks wrote into the working tree (path → blob id, `''` deleted; at most
   * CHECK_WRITTEN_MAX paths): not the agent's change while the content is still the check's.
   */
  check_written?: Record<string, string>;
  /**
   * The host session (Claude Code, OpenCode) whose agent last started or verified this loop;
   * the Stop hook / OpenCode plugin hold only that session while the loop is open.
   */
  session?: { host: 'claude' | 'opencode'; id: string } | null;
  /** Earlier stretches of this loop (before a reset or an approval), oldest first; at most SEGMENTS_KEPT. */
  segments?: LoopSegment[];
  /** Segments dropped beyond SEGMENTS_KEPT (their iterations are still in the log). */
  segments_dropped?: number;
  /** Set when the task was deferred (`ralf task defer`): stopped for good, the plan went on. */
  deferred?: Deferral | null;
  /**
   * Where `start_ref` came from: `task_start`/`reset`/`approve` (a snapshot of the working tree),
   * `head` (HEAD's tree: uncommitted work before the task counts as the task's) or `first_verify`.
   */
  start_source?: 'task_start' | 'reset' | 'approve' | 'head' | 'first_verify' | null;
  /**
   * The checks the plan stated at the loop's start (checks-at-start.ts): every verify runs
   * these, so an agent that edits the plan's checks cannot change what verifies its work.
   * Absent until the first verify (or `task start`); a reset clears it.
   */
  checks_at_start?: Check[];
  /**
   * The config values the loop's verdicts depend on, as they were at its start
   * (settings-at-start.ts): an agent editing `.planning/config.json` cannot change them.
   * Absent until the first verify (or `task start`); a reset clears it.
   */
  settings_at_start?: LoopSettings;
}

export interface TreeFacts {
  start_ref: string | null;
  tree: string | null;
  /** What was ignored when these facts were computed (a change invalidates them). */
  ignore_key?: string;
  diff_hash: string | null;
  files_changed: string[];
  files_changed_count?: number;
  rule4_findings: string[];
}

/** Tasks the loop refused or skipped, recorded for the report. */
export interface NotLoopedTask {
  number: number;
  name: string;
  type: string | null;
  decision: 'skip' | 'refuse';
  reason: string;
}

/** Everything recorded for one plan: `.planning/ralf/<plan-id>.json`. */
export interface PlanState {
  schema_version: typeof STATE_SCHEMA_VERSION;
  /** Plan path relative to the project root. */
  plan_path: string;
  plan_id: string;
  /** The effective config at the last update, with the source of each key. */
  config: Record<string, unknown>;
  config_sources: Record<string, string>;
  /** Task loops keyed by task identity (`id:<id>`, `name:<slug>`; `#<n>` for a loop migrated from schema 1 not yet matched to its task). */
  tasks: Record<string, LoopState>;
  plan: LoopState | null;
  not_looped: NotLoopedTask[];
  /** Why the plan-level loop does not run (`ralf plan verify` on a plan whose plan_decision is skip/refuse). */
  plan_not_looped?: { decision: 'skip' | 'refuse'; reason: string } | null;
  /** Rule 4 approvals (`ralf task approve`), oldest first: subtracted from every later guard. */
  approvals?: Rule4Approval[];
  /** Number of tasks in the plan when the state was last written (for `Progress: x/y`). */
  task_count?: number;
  created_at: string;
  updated_at: string;
}
