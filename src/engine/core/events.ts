/**
 * The loop reducer's vocabulary: events in, decisions out. Everything an event needs is
 * in it (check results, fingerprints, diff hashes, the time), so the reducer stays pure.
 */
import type { UncommittedAtStart } from './uncommitted.js';
import type { LoopSettings } from './settings-at-start.js';
import type { Check } from '../../plan/model.js';
import type { Baseline } from './baseline.js';
import type { MoreSkipped } from './skips.js';
import type { TestsEdited } from './test-files.js';
import type { CheckResult, Deferral, Escalation, Handoff, LoopState, StopReason, Verdict } from './types.js';

/** The thresholds the reducer applies (from the effective config). */
export interface LoopLimits {
  max_iterations: number;
  error_fingerprint_repeats: number;
  no_progress_repeats: number;
  /** Unset: no time-based stop (the default). */
  time_budget_seconds?: number | undefined;
}

/** Context for messages and the handoff (not part of the loop's own state). */
export interface LoopContext {
  limits: LoopLimits;
  plan_id: string;
  /** Path shown in next-step hints, e.g. `.planning/phases/01-x/01-02-PLAN.md`. */
  plan_path: string;
  /** How the runtime is started where the texts are read (core/commands.ts); default `ralf`. */
  invocation?: string | undefined;
  /** Completed/total tasks of the plan, for the handoff's `**Progress:**` line. */
  plan_progress?: { completed: number; total: number } | null;
}

export type LoopEvent =
  /** `ralf task start`: the agent is about to edit; remember where it started. Does not count. */
  | { type: 'started'; now: string; start_ref: string | null; force?: boolean; baseline?: Baseline | null; checks_at_start?: Check[]; settings_at_start?: LoopSettings; uncommitted_at_start?: UncommittedAtStart | null }
  /** One verification ran to completion (the I/O shell computed everything below). */
  | {
      type: 'iteration_verified';
      now: string;
      started_at: string;
      duration_ms: number;
      checks: CheckResult[];
      /** The progress key: a hash of the changes since the start (or a content hash outside git). */
      diff_hash: string | null;
      tree: string | null;
      /** The changed files (the reducer records the first FILES_LISTED and the count). */
      files_changed: string[];
      files_changed_count?: number;
      /** The progress key of the tree the checks left behind, when they modified files. */
      after_hash?: string | null;
      /** The contents of the task's named files before the checks / after them (delta.ts: what git ignores). */
      declared_hash?: string | null;
      declared_after_hash?: string | null;
      /** What the checks wrote this time (path → blob id, `''` deleted); empty: nothing. */
      check_written?: Record<string, string>;
      /** The facts' ignore key (cache validity of `tree_facts`). */
      ignore_key?: string;
      rule4_findings: string[];
      done_confirmed: boolean;
      /** The task has manual done criteria (or no executable checks): passing needs `done_confirmed`. */
      requires_confirmation: boolean;
      /** The start point computed for this verify; kept only when the loop has none yet. */
      start_ref: string | null;
      /** Failures of an untouched tree at the first verify (kept only when the loop has no baseline). */
      baseline?: Baseline | null;
      /** Where `start_ref` came from (kept only when the loop has no start yet). */
      start_source?: LoopState['start_source'];
      /** The plan's checks at the loop's start (kept only when the loop has none yet). */
      checks_at_start?: Check[];
      /** The verdict settings at the loop's start (kept only when the loop has none yet). */
      settings_at_start?: LoopSettings;
      /** The plan's checks now, when they differ from the loop's (recorded; not run). */
      plan_checks_edited?: string[];
      /** Checks that skip more tests than where the loop started (core/skips.ts). */
      skipped_more?: MoreSkipped[];
      /** Checks that run fewer tests than earlier in the loop (core/skips.ts). */
      fewer_tests?: MoreSkipped[];
      /** All checks pass: test files changed since the loop's first failing iteration (core/test-files.ts). */
      tests_edited?: TestsEdited;
      /** Diff-guard findings an approval covers (recorded, never a stop). */
      rule4_approved?: string[];
    }
  /** `ralf task escalate --rule 4`. Does not count as an iteration. */
  | { type: 'escalated'; now: string; escalation: Escalation }
  /** SIGINT/SIGTERM, the STOP flag file, or `ralf run` aborting. Never counts; the next verify resumes. */
  | { type: 'interrupted'; now: string; cause: 'signal' | 'stop_flag' | 'external'; signal?: string | null }
  /** `ralf task reset`: a fresh loop from `start_ref` (the working tree at reset time); what ran is kept as a segment. */
  | { type: 'reset'; now: string; start_ref: string | null; uncommitted_at_start?: UncommittedAtStart | null }
  /** `ralf task approve`: the Rule 4 stop is answered; a fresh loop from the SAME start (the approved change stays visible to the guard, subtracted). */
  | { type: 'approved'; now: string; findings: string[] }
  /** `ralf task defer`: stopped for good (`deferred`); the plan goes on without the task. */
  | { type: 'deferred'; now: string; deferral: Deferral }
  /** `ralf run`: its time or token budget ran out. */
  | { type: 'budget_exhausted'; now: string; budget: 'time' | 'token'; detail: string }
  /** `ralf run`: the agent is blocked (auth gate, missing secret, human action needed). */
  | { type: 'blocked'; now: string; reason: string }
  /** Changes nothing: the decision for the loop as it stands (a verify after the loop stopped). */
  | { type: 'query'; now: string };

export type LoopEventType = LoopEvent['type'];

/** What the caller should do/say after an event. */
export interface Decision {
  verdict: Verdict;
  /** `null` while the loop continues (retry). */
  stop_reason: StopReason | null;
  /** Iterations recorded in the loop after this event. */
  iteration: number;
  /** This event added an iteration. */
  counted: boolean;
  /** The loop had already ended (passed or stopped) before this event; nothing new was recorded. */
  already_ended: boolean;
  progress: boolean | null;
  progress_reasons: string[];
  fingerprint: string | null;
  warning: string | null;
  /** One line for humans and agents: what happened. */
  message: string;
  /** What to do next. */
  next: string;
  handoff: Handoff | null;
}
