/**
 * One agent iteration, retried through transient failures: start the agent, classify how
 * it ended, and on a rate limit / overload / network error wait (backoff with jitter) and
 * start it again with the same prompt. Retries are attempts, not iterations: nothing is
 * verified or recorded in the loop until an attempt ends normally.
 */
import { backoffDelayMs } from './backoff.js';
import { classifyAgentRun, type AgentClassification } from './classify.js';
import type { AgentAdapter, AgentStreamResult } from './agents/types.js';
import type { AgentProcessResult } from './agent-process.js';
import { runAgentProcess } from './agent-process.js';
import { formatCommandLine } from './command-line.js';
import { parsePromise, type AgentPromise } from './promise.js';
import type { RunEventBody } from './events.js';

export interface AttemptContext {
  agent: AgentAdapter;
  root: string;
  planId: string;
  task: number | null;
  iteration: number;
  prompt: string;
  timeoutMs: number;
  backoffSeconds: readonly number[];
  /** Jitter fraction of each wait (default ±25 %). */
  backoffJitter?: number;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  logFile: (attempt: number) => string | null;
  emit: (e: RunEventBody) => void;
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

export type AttemptOutcome =
  | { kind: 'finished'; process: AgentProcessResult; stream: AgentStreamResult; classification: AgentClassification; promise: AgentPromise | null; tokens: number; attempts: number }
  | { kind: 'aborted'; tokens: number }
  | { kind: 'agent_failed'; reason: string; detail: string; tokens: number };

export async function runAgentAttempts(c: AttemptContext): Promise<AttemptOutcome> {
  let tokens = 0;
  for (let attempt = 1; ; attempt++) {
    if (c.signal.aborted) return { kind: 'aborted', tokens };
    const inv = c.agent.invocation(c.prompt, c.root);
    const parser = c.agent.parser();
    const log = c.logFile(attempt);
    let lastTicked = 0;
    const proc = await runAgentProcess(inv, {
      cwd: c.root,
      timeoutMs: c.timeoutMs,
      signal: c.signal,
      env: c.env,
      logFile: log ?? undefined,
      onStart: (pid) =>
        c.emit({
          type: 'agent_start',
          plan_id: c.planId,
          task: c.task,
          iteration: c.iteration,
          attempt,
          pid,
          command: c.agent.kind === 'command' ? c.agent.label : formatCommandLine([inv.file, ...inv.args.map((a) => (a === c.prompt ? '<prompt>' : a))]),
          timeout_ms: c.timeoutMs,
          log,
        }),
      onLine: (line) => {
        parser.feed(line);
        const t = parser.tokensSoFar();
        if (t !== lastTicked) {
          lastTicked = t;
          c.emit({ type: 'agent_output', plan_id: c.planId, task: c.task, iteration: c.iteration, tokens: t });
        }
      },
    });
    const stream = parser.finish(proc.stdout);
    const used = stream.usage?.total ?? 0;
    tokens += used;
    const classification = classifyAgentRun({
      exitCode: proc.exitCode,
      signal: proc.signal,
      timedOut: proc.timedOut,
      spawnErrorCode: proc.spawnErrorCode,
      stdoutTail: proc.stdoutTail,
      stderrTail: proc.stderrTail,
      hostError: stream.hostError,
    });
    const promise = proc.aborted ? null : parsePromise(stream.text, c.prompt);
    c.emit({
      type: 'agent_exit',
      plan_id: c.planId,
      task: c.task,
      iteration: c.iteration,
      attempt,
      exit_code: proc.exitCode,
      signal: proc.signal,
      timed_out: proc.timedOut,
      duration_ms: proc.durationMs,
      usage: stream.usage,
      promise: promise?.kind ?? null,
      classification: proc.aborted ? 'aborted' : classification.kind,
      reason: proc.aborted ? 'interrupted' : classification.reason,
      detail: proc.aborted ? 'interrupted' : proc.spawnErrorMessage && classification.kind === 'hard' ? `${classification.detail}: ${inv.file}` : classification.detail,
    });
    if (proc.aborted || c.signal.aborted) return { kind: 'aborted', tokens };
    if (classification.kind === 'hard') return { kind: 'agent_failed', reason: classification.reason ?? 'hard', detail: classification.kind === 'hard' && proc.spawnErrorCode ? `${classification.detail}: ${inv.file}` : classification.detail, tokens };
    if (classification.kind === 'transient') {
      const delay = backoffDelayMs(c.backoffSeconds, attempt - 1, c.random, classification.retryAfterSeconds, c.backoffJitter);
      if (delay === null) {
        return { kind: 'agent_failed', reason: `${classification.reason ?? 'transient'}_exhausted`, detail: `${classification.detail} (still failing after ${attempt} attempts; backoff ${c.backoffSeconds.join(', ')} s used up)`, tokens };
      }
      c.emit({ type: 'backoff', plan_id: c.planId, task: c.task, iteration: c.iteration, attempt, reason: classification.reason ?? 'transient', delay_ms: delay, detail: classification.detail });
      if (!(await c.sleep(delay, c.signal))) return { kind: 'aborted', tokens };
      continue;
    }
    return { kind: 'finished', process: proc, stream, classification, promise, tokens, attempts: attempt };
  }
}
