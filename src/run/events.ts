/**
 * The run's event stream: one vocabulary for the live progress view (people) and
 * `--json` (machines: one JSON object per line on stdout). Every event carries `type`,
 * `ts` (ISO time) and `elapsed_ms` since the run started.
 */
import { stdoutStream } from '../cli/output.js';
import type { Handoff, StopReason, Verdict } from '../engine/core/types.js';
import type { TokenUsage } from './agents/types.js';

export type TaskOutcome =
  /** Verification passed. */
  | 'passed'
  /** The loop stopped without success (handoff). */
  | 'stopped'
  /** The agent said BLOCKED; the run moved on. */
  | 'blocked'
  /** A skipped (not objectively verifiable) task: the agent ran once, unverified. */
  | 'ran_once'
  /** A checkpoint task waits for a human (`--resume-signal`). */
  | 'checkpoint'
  /** A checkpoint the human already answered. */
  | 'checkpoint_resolved'
  /** Finished in an earlier run. */
  | 'already_done'
  /** Set aside by a human (`ralf task defer`): not run, the plan goes on without it. */
  | 'deferred'
  /** Finished or not approved in its own file (`[x]`, `[~]`, `"status": "done"`, Done/, Draft): never run. */
  | 'not_runnable'
  /** Cut short: budget, interrupt, or an agent failure. */
  | 'interrupted'
  | 'budget'
  | 'agent_failed';

export interface CheckpointInfo {
  checkpoint_type: string;
  gate: string | null;
  what_built: string | null;
  how_to_verify: string | null;
  decision: string | null;
  options: string | null;
  action: string | null;
  resume_signal: string | null;
}

export type RunEventBody =
  | { type: 'run_start'; target: string; target_kind: string; project_root: string; agent: string; plans: Array<{ id: string; path: string; tasks: number }>; budgets: { duration_ms: number | null; max_tokens: number | null }; iteration_timeout_ms: number; commit: boolean }
  | { type: 'plan_start'; plan_id: string; path: string; tasks: number }
  | { type: 'plan_skip'; plan_id: string; path: string; reason: string }
  | { type: 'task_start'; plan_id: string; /** null: the plan-level loop. */ task: number | null; name: string; task_count: number; decision: 'loop' | 'skip' | 'refuse'; iterations_done: number; max_iterations: number; /** Finished in an earlier run: how. */ earlier: 'passed' | 'stopped' | 'blocked' | 'ran_once' | 'answered' | 'deferred' | null; /** Seed formats: why the item's own file keeps it from running (finished, not approved); it is not run. */ not_runnable?: string }
  | { type: 'agent_start'; plan_id: string; task: number | null; iteration: number; attempt: number; pid: number | null; command: string; timeout_ms: number; log: string | null }
  | { type: 'agent_output'; plan_id: string; task: number | null; iteration: number; tokens: number }
  | {
      type: 'agent_exit';
      plan_id: string;
      task: number | null;
      iteration: number;
      attempt: number;
      exit_code: number | null;
      signal: string | null;
      timed_out: boolean;
      duration_ms: number;
      usage: TokenUsage | null;
      promise: 'done' | 'blocked' | null;
      classification: string;
      reason: string | null;
      detail: string;
    }
  | { type: 'backoff'; plan_id: string; task: number | null; iteration: number; attempt: number; reason: string; delay_ms: number; detail: string }
  | { type: 'revert'; plan_id: string; task: number | null; scope: 'iteration' | 'task'; files: string[]; saved_as: string | null; restore_command: string | null; why: string }
  | {
      type: 'verify';
      plan_id: string;
      task: number | null;
      iteration: number;
      max_iterations: number;
      verdict: Verdict;
      stop_reason: StopReason | null;
      fingerprint: string | null;
      progress: boolean | null;
      checks_passed: number;
      checks_total: number;
      suspicious: boolean;
      message: string;
      /** copilot_ralf PRDs: its decision-matrix label for the agent's signals (`VERIFIED`, `PARTIAL`, `SUSPICIOUS`, ...); the checks decide. */
      signals?: string | null;
    }
  | { type: 'commit'; plan_id: string; task: number; sha: string; message: string; files: string[] }
  | { type: 'checkpoint'; plan_id: string; task: number; name: string; resolved_with: string | null; info: CheckpointInfo }
  | { type: 'task_end'; plan_id: string; task: number | null; name: string; outcome: TaskOutcome; stop_reason: StopReason | null; iterations: number; commit: string | null; detail: string | null; handoff: Handoff | null }
  | { type: 'plan_end'; plan_id: string; outcome: 'complete' | 'stopped' | 'checkpoint' | 'interrupted'; report: string | null; report_action: string | null }
  | { type: 'warning'; message: string }
  | { type: 'run_end'; exit_code: number; outcome: RunOutcome; reason: string | null; detail: string | null; tokens: number; tasks: RunSummaryRow[] };

export type RunOutcome = 'complete' | 'stopped' | 'checkpoint' | 'blocked' | 'interrupted' | 'budget' | 'agent_failed';

export interface RunSummaryRow {
  plan_id: string;
  task: number | null;
  name: string;
  decision: 'loop' | 'skip' | 'refuse';
  outcome: TaskOutcome | 'not_started';
  iterations: number;
  max_iterations: number | null;
  stop_reason: StopReason | null;
  tokens: number;
  commit: string | null;
}

export type RunEvent = RunEventBody & { ts: string; elapsed_ms: number };

export interface RunEventSink {
  emit(event: RunEvent): void;
  close(): void;
}

/** `--json`: one object per line on stdout. `agent_output` (live token ticks) is left out: too chatty for a log. */
export function jsonLinesSink(write: (s: string) => void = (s) => stdoutStream().write(s)): RunEventSink {
  return {
    emit(event) {
      if (event.type === 'agent_output') return;
      write(`${JSON.stringify(event)}\n`);
    },
    close() {},
  };
}

export function fanOut(sinks: RunEventSink[]): RunEventSink {
  return {
    emit(event) {
      for (const s of sinks) s.emit(event);
    },
    close() {
      for (const s of sinks) s.close();
    },
  };
}
