/** `ralf status`'s readable table: one row per loop. */
import type { LoopSummary } from '../core/status.js';
import { oneLine } from '../core/tail.js';

/** One row of the readable table. */
export function loopRow(l: LoopSummary): string[] {
  const status = l.deferred_reason !== null ? 'deferred' : l.awaiting_confirmation && l.status === 'running' ? 'awaiting --done-confirmed' : l.resumable ? 'interrupted (resumes)' : l.status;
  return [
    l.scope === 'plan' ? 'plan' : String(l.task),
    oneLine(l.name, 40),
    status,
    `${l.iterations}/${l.max_iterations}${l.iterations_total > l.iterations ? ` (${l.iterations_total} in ${l.segments} segments)` : ''}`,
    l.stop_reason ?? '—',
    l.last_fingerprint ? oneLine(l.last_fingerprint, 60) : '—',
  ];
}
