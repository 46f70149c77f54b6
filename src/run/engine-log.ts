/**
 * Puts what the driver did into the plan's engine history (`.planning/ralf/<plan-id>.jsonl`,
 * next to the engine's own verify/start/event lines): agent runs, backoff waits, commits,
 * restores, checkpoints, and where each run started and ended. Lines are `action: "event"`
 * with `event: "run.<type>"`; the loop state itself is only ever changed through the engine.
 */
import { appendLog, type LogEntry } from '../engine/shell/store.js';
import type { RunEvent, RunEventSink } from './events.js';

const LOGGED = new Set(['plan_start', 'agent_exit', 'backoff', 'revert', 'commit', 'checkpoint', 'task_end', 'plan_end']);

export function engineLogSink(projectRoot: string, onError: (message: string) => void = () => {}): RunEventSink {
  let failed = false;
  return {
    emit(e: RunEvent) {
      if (!LOGGED.has(e.type) || !('plan_id' in e)) return;
      const { ts, elapsed_ms: _elapsed, type, plan_id, ...rest } = e as RunEvent & { plan_id: string; task?: number | null; iteration?: number };
      const detail = { ...rest } as Record<string, unknown>;
      // The handoff is in the loop state already; keep log lines short.
      if ('handoff' in detail) detail.handoff = detail.handoff ? '(in state)' : null;
      const task = typeof rest.task === 'number' && rest.task > 0 ? rest.task : null;
      const entry: LogEntry = {
        ts,
        scope: task === null ? 'plan' : 'task',
        task,
        iteration: typeof rest.iteration === 'number' ? rest.iteration : 0,
        action: 'event',
        event: `run.${type}`,
        verdict: null,
        stop_reason: typeof detail.stop_reason === 'string' ? (detail.stop_reason as LogEntry['stop_reason']) : null,
        counted: false,
        fingerprint: null,
        progress: null,
        duration_ms: typeof detail.duration_ms === 'number' ? detail.duration_ms : null,
        status: null,
        detail: JSON.stringify(detail),
        pid: process.pid,
      };
      try {
        appendLog(projectRoot, plan_id, entry);
      } catch (err) {
        if (!failed) onError(`could not append to the run history: ${(err as Error).message}`);
        failed = true;
      }
    },
    close() {},
  };
}
