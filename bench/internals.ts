// In-process timings for `npm run bench`: a checkpoint is what every verify persists under
// the plan lock (state JSON written atomically + one JSONL log line); a read is what
// `ralf status` and the next verify do first.
import { performance } from 'node:perf_hooks';
import { newLoopState, newPlanState } from '../src/engine/core/loop-state.js';
import { appendLog, readPlanState, withPlanLock, writePlanState } from '../src/engine/shell/store.js';
import { planIdFromPath } from '../src/plan/plan-id.js';

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function measureStateIo(args: { projectRoot: string; planPath: string; iterations: number }) {
  const planId = planIdFromPath(args.planPath);
  const state = newPlanState({ plan_path: args.planPath, plan_id: planId, now: new Date().toISOString() });
  const loop = newLoopState({ scope: 'task', task_number: 1, task_name: 'Task 1: trivial', max_iterations: 3 });
  state.tasks['1'] = loop;
  const writes: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < args.iterations; i++) {
    loop.updated_at = new Date().toISOString();
    const t0 = performance.now();
    withPlanLock(args.projectRoot, planId, () => {
      writePlanState(args.projectRoot, state);
      appendLog(args.projectRoot, planId, {
        ts: loop.updated_at!,
        scope: 'task',
        task: 1,
        iteration: i,
        action: 'verify',
        verdict: 'retry',
        stop_reason: null,
        counted: true,
        fingerprint: 'bench: error TS2304: Cannot find name',
        progress: true,
        duration_ms: 1,
      } as Parameters<typeof appendLog>[2]);
    });
    writes.push(performance.now() - t0);
    const t1 = performance.now();
    readPlanState(args.projectRoot, planId);
    reads.push(performance.now() - t1);
  }
  return {
    iterations: args.iterations,
    write_p50_ms: percentile(writes, 50),
    write_p95_ms: percentile(writes, 95),
    read_p50_ms: percentile(reads, 50),
    read_p95_ms: percentile(reads, 95),
  };
}
