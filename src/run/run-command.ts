/**
 * Wires `ralf run` together: config, target, engine, agent, event sinks, signals. Shared
 * by `ralf run` and `ralf demo` (which passes its own agent and sinks).
 */
import { RUNTIME_DEFAULTS } from '../config/schema.js';
import { defaultDeps } from '../engine/deps.js';
import { selectAgent } from './agents/select.js';
import type { AgentAdapter } from './agents/types.js';
import { runDriver, type DriverResult } from './driver.js';
import { engineApi } from './engine-api.js';
import { fanOut, jsonLinesSink, type RunEventSink } from './events.js';
import { progressSink } from './progress.js';
import { engineLogSink } from './engine-log.js';
import { configCwdFor, resolveRunTarget } from './target.js';

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
}

export async function runCommand(o: RunCommandOptions): Promise<DriverResult> {
  const base = await defaultDeps();
  const planning = await base.planning();
  const env = o.env ?? process.env;
  const first = planning.loadConfig({ cwd: configCwdFor(o.target), env });
  const target = await resolveRunTarget(o.target, planning, first);
  const engine = await engineApi({
    plans: target.inMemoryPlans,
    projectRoot: target.projectRoot,
    targetLimits: target.limits.max_iterations !== undefined ? { max_iterations: target.limits.max_iterations } : {},
    targetLabel: target.kind,
  });
  const effective = await engine.effective(target.projectRoot, env);
  const runCfg = effective.config.run ?? {};
  const agent = o.agent ?? selectAgent(o.agentSpec ?? '', o.agentArgs ?? []);

  const sink = fanOut([o.sink ?? defaultSink(o.json), engineLogSink(target.projectRoot)]);
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    // First signal: stop gracefully (kill the agent, record `interrupted`). A second one
    // gets Node's default behaviour (immediate exit), because the handler is gone.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await runDriver({
      target,
      config: { config: effective.config, sources: effective.sources },
      agent,
      engine,
      budgets: { duration_ms: o.durationMs, max_tokens: o.maxTokens ?? target.limits.max_tokens ?? null },
      iterationTimeoutMs: o.iterationTimeoutMs ?? (runCfg.iteration_timeout_seconds ?? RUNTIME_DEFAULTS.iteration_timeout_seconds) * 1000,
      commit: o.commit ?? runCfg.commit ?? RUNTIME_DEFAULTS.commit,
      commitTimeoutMs: (runCfg.commit_timeout_seconds ?? RUNTIME_DEFAULTS.commit_timeout_seconds) * 1000,
      backoffSeconds: o.backoffSeconds ?? runCfg.backoff_seconds ?? [...RUNTIME_DEFAULTS.backoff_seconds],
      resumeSignal: o.resumeSignal,
      sink,
      signal: controller.signal,
      env,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function defaultSink(json: boolean): RunEventSink {
  const sinks: RunEventSink[] = [];
  if (json) sinks.push(jsonLinesSink());
  // With --json the progress view stays off unless a person is watching stderr.
  if (!json || process.stderr.isTTY) sinks.push(progressSink({ stream: process.stderr }));
  return fanOut(sinks);
}
