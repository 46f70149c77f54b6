/** The table `ralf run` prints at the end (also what `ralf demo` shows). */
import { table } from '../cli/output.js';
import type { DriverResult } from './driver.js';
import { formatTokens } from './progress.js';

const OUTCOME_TEXT: Record<string, string> = {
  passed: 'passed',
  stopped: 'stopped (handoff)',
  blocked: 'blocked',
  ran_once: 'ran once (not looped)',
  checkpoint: 'checkpoint: needs a human',
  checkpoint_resolved: 'checkpoint answered',
  already_done: 'done earlier',
  not_runnable: 'not run (see its file)',
  interrupted: 'interrupted',
  budget: 'budget ran out',
  agent_failed: 'agent failed',
  not_started: 'not started',
};

export function summaryTable(result: Pick<DriverResult, 'rows'>): string {
  const multiPlan = new Set(result.rows.map((r) => r.plan_id)).size > 1;
  const header = [...(multiPlan ? ['Plan'] : []), 'Task', 'Decision', 'Outcome', 'Iterations', 'Stop reason', 'Tokens', 'Commit'];
  const rows = result.rows.map((r) => [
    ...(multiPlan ? [r.plan_id] : []),
    r.task === null ? 'plan-level' : `${r.task}. ${shortName(r.name)}`,
    r.decision,
    OUTCOME_TEXT[r.outcome] ?? r.outcome,
    r.decision === 'loop' && r.outcome !== 'not_started' ? `${r.iterations}/${r.max_iterations ?? '?'}` : '—',
    r.stop_reason ?? '—',
    r.tokens > 0 ? formatTokens(r.tokens) : '—',
    r.commit ? r.commit.slice(0, 7) : '—',
  ]);
  return table(header, rows);
}

export function runVerdictLine(result: Pick<DriverResult, 'outcome' | 'reason' | 'detail' | 'exit_code' | 'tokens'>): string {
  const tokens = result.tokens > 0 ? `; ${formatTokens(result.tokens)} tokens` : '';
  switch (result.outcome) {
    case 'complete':
      return `Done: every task finished${tokens} (exit 0).`;
    case 'blocked':
      return `Finished with blocked task(s): see the handoffs above${tokens} (exit ${result.exit_code}).`;
    case 'checkpoint':
      return `Paused at a checkpoint: ${(result.detail ?? '').replace(/\.$/, '')}. Answer it with --resume-signal and run again (exit ${result.exit_code}).`;
    case 'interrupted':
      return `Interrupted: state saved; run the same command again to resume (exit ${result.exit_code}).`;
    default:
      return `Stopped (${result.reason ?? result.outcome}): ${(result.detail ?? '').replace(/\.$/, '')}${tokens} (exit ${result.exit_code}).`;
  }
}

function shortName(name: string): string {
  const n = name.replace(/^\s*task\s+\d+\s*[:.)-]\s*/i, '');
  return n.length > 48 ? `${n.slice(0, 47)}…` : n;
}
