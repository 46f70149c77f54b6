/**
 * What `ralf run <target>` loops over: one or more Plans (the same model every
 * front-end produces, src/plan/model.ts) plus how to write a task's outcome back
 * into the source format. One engine; each format is a small adapter to the model.
 */
import type { LoopState } from '../engine/core/types.js';
import type { Plan } from '../plan/model.js';

export type RunTargetKind = 'gsd-plan' | 'gsd-phase' | 'prd' | 'ralph-json' | 'requirements' | 'task-files';

/** The outcome of one task's loop, as the run driver reports it to the format. */
export interface TaskResult {
  verdict: 'pass' | 'stop';
  /** The engine's stop reason (`success`, `max_iterations`, `no_progress`, ...); null when unknown. */
  stop_reason: string | null;
  iterations: number;
  /** Why it stopped, for people (the engine's message, the agent's BLOCKED reason). */
  detail?: string | null;
  /** The engine's loop state when the task ended (iterations, checks, outputs): the retry history. */
  loop?: LoopState | null;
  /** What the agent's last signals were, in the format's words (copilot_ralf: `VERIFIED`, `SUSPICIOUS`, ...). */
  signals?: string | null;
}

/**
 * The target's own limits (ralph.json `max_iterations`, `budget.max_tokens`; the Persistence
 * Loop's persistence.yaml). They hold unless the project's config sets the same key; flags and
 * environment variables of the run win over both.
 */
export interface TargetLimits {
  max_iterations?: number;
  max_tokens?: number;
  /** Loop stop rules: ralph.json's own conditions leave out ralf's fingerprint / no-progress stops. */
  error_fingerprint_repeats?: number;
  no_progress_repeats?: number;
  /** Per-task wall time (persistence.yaml `timeout.total`). */
  time_budget_seconds?: number;
  /** Agent iteration timeout (persistence.yaml `timeout.per_step`). */
  iteration_timeout_seconds?: number;
  /** Retry schedule for transient agent failures, and its jitter fraction. */
  backoff_seconds?: number[];
  backoff_jitter?: number;
  /** Fraction of max_iterations at which `ralf run` warns. */
  warn_threshold?: number;
  /** The file these came from, for messages and `ralf status` (`ralph.json`, `.specify/config/persistence.yaml`). */
  source?: string;
}

export interface RunTarget {
  kind: RunTargetKind;
  plans: Plan[];
  limits?: TargetLimits;
  /**
   * Writes a task's outcome into the source file with the format's own marks. Called once
   * when a task's loop ends (pass or stop). Absent for formats without status marks
   * (GSD plans: SUMMARY.md and `.planning/ralf/` record it; ralph.json: a spec, not a log).
   * Throws RalfError (`writeback_failed`) when the task can no longer be found in the file.
   * Returns the files it wrote (absolute), so the run commits them with the item.
   */
  onTaskResult?: (plan: Plan, taskNumber: number, result: TaskResult) => string[];
  /**
   * Context the format gives every iteration of a task, read fresh each time (copilot_ralf:
   * AGENTS.md and progress.md's learnings); merged into the task's prompt elements.
   */
  iterationContext?: (plan: Plan, taskNumber: number) => Record<string, string>;
  /** Whether the agent marked the item done in the source itself (copilot_ralf's `[x]` signal). */
  markedByAgent?: (plan: Plan, taskNumber: number) => boolean;
  /** Absolute path of what the user named (file or directory). */
  source: string;
  /**
   * The directory the engine treats as the project: it runs the agent and the checks there and
   * keeps state under `<project_root>/.planning/ralf/<plan-id>.json`. See docs/FORMATS.md.
   */
  project_root: string;
}

/** Options shared by the parsers (pure: no files read, no config loaded). */
export interface FormatOptions {
  /**
   * The project's test command (config `checks.tests`, or GSD `workflow.test_command`). Used for
   * `tests_pass` criteria without a command, and to verify tasks that have no executable criteria.
   */
  tests_command?: string | undefined;
}
