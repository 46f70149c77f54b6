/**
 * Loop segments (pure). `ralf task reset` and `ralf task approve` start a loop over with a fresh
 * iteration budget; what ran before is kept as a segment so the Loop Report and `ralf status`
 * still show every iteration and the decision that ended it (a Rule 4 stop, then its approval).
 */
import type { LoopSegment, LoopState } from './types.js';

/** Segments kept per loop (each holds at most max_iterations iterations); older ones are counted, not kept. */
export const SEGMENTS_KEPT = 20;

/** The loop's current stretch as a segment, or null when nothing ran in it. */
export function segmentOf(loop: LoopState, endedAt: string, endedBy: LoopSegment['ended_by']): LoopSegment | null {
  if (loop.iterations.length === 0 && loop.status !== 'stopped') return null;
  return {
    iterations: loop.iterations,
    status: loop.status,
    stop_reason: loop.stop_reason,
    escalation: loop.escalation ?? null,
    recommended_action: loop.handoff?.recommended_action ?? null,
    started_at: loop.started_at,
    ended_at: endedAt,
    ended_by: endedBy,
    total_duration_ms: loop.total_duration_ms,
  };
}

/** The loop's segments with its current stretch appended (bounded). */
export function withSegment(loop: LoopState, endedAt: string, endedBy: LoopSegment['ended_by']): Pick<LoopState, 'segments' | 'segments_dropped'> {
  const seg = segmentOf(loop, endedAt, endedBy);
  const all = [...(loop.segments ?? []), ...(seg ? [seg] : [])];
  const dropped = Math.max(0, all.length - SEGMENTS_KEPT);
  return { segments: all.slice(dropped), ...(dropped + (loop.segments_dropped ?? 0) > 0 ? { segments_dropped: dropped + (loop.segments_dropped ?? 0) } : {}) };
}

/** Every iteration of the loop, all segments first, numbered as they ran in their segment. */
export function allIterations(loop: LoopState): Array<{ segment: number; iteration: LoopState['iterations'][number] }> {
  const segs = loop.segments ?? [];
  return [
    ...segs.flatMap((s, i) => s.iterations.map((iteration) => ({ segment: i + 1, iteration }))),
    ...loop.iterations.map((iteration) => ({ segment: segs.length + 1, iteration })),
  ];
}

/** Iterations over all segments (the current one included). */
export function totalIterations(loop: LoopState): number {
  return (loop.segments ?? []).reduce((n, s) => n + s.iterations.length, 0) + loop.iterations.length;
}
