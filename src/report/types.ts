/**
 * Inputs and rows of the Loop Report. The report is built by pure functions from these
 * (no file, process or clock inside), so tests construct them directly.
 */
import type { AlreadyFailingEntry } from '../engine/core/baseline.js';
import type { TaskDecisionKind } from '../plan/model.js';
import type { PlanState, RecommendedAction, StopReason } from '../engine/core/types.js';

/** A plan task as the report needs it (a subset of `PlanTask`). */
export interface ReportPlanTask {
  number: number;
  name: string;
  type: string | null;
  decision: TaskDecisionKind;
  reason: string;
}

export interface ReportPlan {
  id: string;
  /** The PLAN.md path as it should be shown (relative to the project root when possible). */
  path: string;
  tasks: ReportPlanTask[];
  autonomous: boolean | null;
  /** The plan-level loop decision (`Plan.plan_decision`); derived from config when absent. */
  plan_decision?: { decision: TaskDecisionKind; reason: string } | undefined;
}

export interface ReportConfig {
  /** The effective config (nested as in the schema, or dotted keys; both are read). */
  values: Record<string, unknown>;
  /** Dotted key → `default` or a display label of the file that set it. */
  sources: Record<string, string>;
}

export interface ReportInput {
  state: PlanState | null;
  plan: ReportPlan;
  config: ReportConfig;
  /** Where the state lives, for the report's footer (e.g. `.planning/ralf/01-02.json`). */
  state_path?: string | undefined;
  /** How the report's commands start ralf (shell/invocation.ts, for a person at a terminal); default `ralf`. */
  invocation?: string | undefined;
}

/** A row's stop reason; `not run` (looped, no state yet), `running` (no stop yet), null (not looped). */
export type RowStopReason = StopReason | 'not run' | 'running' | null;

/** One line of the report's table (a task, or the plan-level loop), also printed by `--json`. */
export interface ReportRow {
  scope: 'task' | 'plan';
  number: number | null;
  name: string;
  type: string | null;
  decision: TaskDecisionKind;
  /** Why the task is skipped/refused (empty for looped tasks). */
  reason: string;
  iterations: number;
  max_iterations: number | null;
  stop_reason: RowStopReason;
  verify_ms: number;
  /** Failure fingerprint per iteration (null: the iteration passed). */
  fingerprints: Array<{ iteration: number; fingerprint: string | null }>;
  auto_fixed: string[];
  still_failing: string[];
  /** Checks that already failed before the task (the baseline), apart from what the task broke. */
  already_failing?: AlreadyFailingEntry[];
  recommended_action: RecommendedAction | null;
  recommendation: string | null;
  /** Rule 4 escalation reason, when the loop stopped for it. */
  escalation: string | null;
  /** Why a `ralf run` stop happened (`blocked`, budgets), when recorded. */
  detail: string | null;
  /** Checks pass; the agent has not confirmed the manual done criteria yet. */
  awaiting_confirmation: boolean;
  /** Earlier stretches of the loop (before a reset or a Rule 4 approval), oldest first; `iterations` counts the current one. */
  segments?: ReportSegment[];
  /** Iterations over every segment (equals `iterations` without segments). */
  iterations_total?: number;
  /** Rule 4 findings a human approved for this loop (`ralf task approve`). */
  approved?: string[];
  /** The plan's checks as edited during the loop (never run: the loop ran the ones it started with). */
  checks_edited?: string[];
  /** Checks that skip more tests at the last iteration than where the loop started: `command: before → now`. */
  skipped_more?: string[];
  /** Checks that run fewer tests at the last iteration than earlier in the loop: `command: before → now`. */
  fewer_tests?: string[];
  /** The loop passed after these test files changed since its first failing iteration (core/test-files.ts): for a human to review. */
  tests_edited?: { since: number; paths: string[]; /** `test file`, or `test or check file` (core/test-files.ts editedKind). */ kind: string };
  /** The loop passed on the very tree that failed at this iteration: flaky checks, or a change outside the tree. */
  same_tree_failed?: number;
  /** Why the task was deferred (`ralf task defer`). */
  deferred?: string | null;
}

export interface ReportSegment {
  iterations: number;
  stop_reason: RowStopReason;
  ended_by: 'reset' | 'approve';
  escalation: string | null;
  fingerprints: Array<{ iteration: number; fingerprint: string | null }>;
}
