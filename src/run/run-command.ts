/**
 * Wires `ralf run` together: config, target, engine, agent, event sinks, signals. Shared
 * by `ralf run` and `ralf demo` (which passes its own agent and sinks).
 */
import { RUNTIME_DEFAULTS } from '../config/schema.js';
import { selectAgent } from './agents/select.js';
import type { AgentAdapter } from './agents/types.js';
import { runDriver, type DriverResult } from './driver.js';
import { engineApi } from './engine-api.js';
import { fanOut, jsonLinesSink, type RunEventSink } from './events.js';
import { progressSink } from './progress.js';
import { engineLogSink } from './engine-log.js';
import { readRunTarget } from './target.js';
import type { LoopLimits } from './engine-api.js';
import type { ModelChoice } from './agents/model-flags.js';
import type { RunEvent } from './events.js';

/** copilot_ralf's stagnation circuit breaker (RALPH_MAX_STAGNANT): consecutive items that stop. */
export const DEFAULT_MAX_STAGNANT = 3;

export interface RunCommandOptions {
  target: string;
  /** `--agent` as given, or a ready adapter (the demo's scripted agent). */
  agentSpec?: string;
  agent?: AgentAdapter;
  agentArgs?: string[];
  durationMs: number | null;
  maxTokens: number | null;
  iterationTimeoutMs: number | null;
  /** null: config `run.commit` (default true). */
  commit: boolean | null;
  resumeSignal: string | null;
  json: boolean;
  /** Replace the default sinks (progress on stderr; JSON lines on stdout with --json). */
  sink?: RunEventSink;
  env?: NodeJS.ProcessEnv;
  /** Backoff schedule override (tests); default config `run.backoff_seconds`. */
  backoffSeconds?: number[];
  /** The model and reasoning level for the agent CLI (`--model`, `--reasoning`, RALPH_LOOP_MODEL). */
  model?: ModelChoice;
  /** This run's loop limits (RALPH_MAX_ITERATIONS, RALPH_MAX_STAGNANT): over every config layer. */
  runLimits?: LoopLimits;
  /** Consecutive stopped items before the run halts (RALPH_MAX_STAGNANT; PRD checklists default 3). */
  maxStagnant?: number | null;
  /** ralph1's `--history=FILE`. */
  historyPath?: string | null;
  /** false: plain progress lines (`--no-spinner`). */
  live?: boolean;
  /** Said at the start of the run (flags that change nothing, and why). */
  notes?: string[];
  /** The `ralf run` arguments as typed, without `--resume-signal` (the command a checkpoint names to resume). */
  rerunArgs?: readonly string[];
}

export async function runCommand(o: RunCommandOptions): Promise<DriverResult> {
  const env = o.env ?? process.env;
  const target = await readRunTarget(o.target, { env, historyPath: o.historyPath });
  const limits = target.limits;
  const targetLimits: LoopLimits = {};
  for (const key of ['max_iterations', 'error_fingerprint_repeats', 'no_progress_repeats', 'time_budget_seconds'] as const) if (limits[key] !== undefined) targetLimits[key] = limits[key];
  const engine = await engineApi({
    plans: target.inMemoryPlans,
    projectRoot: target.projectRoot,
    targetLimits,
    targetLabel: limits.source ?? target.kind,
    runLimits: o.runLimits ?? {},
    runLabel: 'environment (RALPH_*)',
  });
  const effective = await engine.effective(target.projectRoot, env);
  const runCfg = effective.config.run ?? {};
  const agent = o.agent ?? selectAgent(o.agentSpec ?? '', o.agentArgs ?? [], o.model ?? { model: null, reasoning: null });

  const sink = fanOut([o.sink ?? defaultSink(o.json, o.live !== false, o.rerunArgs), engineLogSink(target.projectRoot)]);
  for (const note of o.notes ?? []) sink.emit({ type: 'warning', message: note, ts: new Date().toISOString(), elapsed_ms: 0 } as RunEvent);
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    // First signal: stop gracefully (kill the agent, record `interrupted`). A second one
    // gets Node's default behaviour (immediate exit), because the handler is gone.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  try {
    return await runDriver({
      target,
      config: { config: effective.config, sources: effective.sources },
      agent,
      engine,
      budgets: { duration_ms: o.durationMs, max_tokens: o.maxTokens ?? target.limits.max_tokens ?? null },
      iterationTimeoutMs: o.iterationTimeoutMs ?? (runCfg.iteration_timeout_seconds ?? limits.iteration_timeout_seconds ?? RUNTIME_DEFAULTS.iteration_timeout_seconds) * 1000,
      commit: o.commit ?? runCfg.commit ?? RUNTIME_DEFAULTS.commit,
      commitTimeoutMs: (runCfg.commit_timeout_seconds ?? RUNTIME_DEFAULTS.commit_timeout_seconds) * 1000,
      backoffSeconds: o.backoffSeconds ?? runCfg.backoff_seconds ?? limits.backoff_seconds ?? [...RUNTIME_DEFAULTS.backoff_seconds],
      ...(limits.backoff_jitter !== undefined ? { backoffJitter: limits.backoff_jitter } : {}),
      maxStagnant: o.maxStagnant ?? (target.kind === 'prd' ? DEFAULT_MAX_STAGNANT : null),
      resumeSignal: o.resumeSignal,
      sink,
      signal: controller.signal,
      env,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}

function defaultSink(json: boolean, live: boolean, rerunArgs: readonly string[] | undefined): RunEventSink {
  const sinks: RunEventSink[] = [];
  if (json) sinks.push(jsonLinesSink());
  // With --json the progress view stays off unless a person is watching stderr.
  if (!json || process.stderr.isTTY) sinks.push(progressSink({ stream: process.stderr, live, rerunArgs }));
  return fanOut(sinks);
}
