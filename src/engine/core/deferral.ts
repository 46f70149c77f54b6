/**
 * Which paths `ralf task defer` may put back (pure). Only what the loop changed, never the
 * user's other work: a path is the loop's when it differs between the loop's start snapshot and
 * the tree its last verify saw. It is put back only while it still holds what that verify saw
 * (edited since: someone else's work, left as it is), and only when the start is a snapshot of
 * the working tree (`task start`, a reset, an approval, the first verify): a loop that started
 * from HEAD cannot tell its edits from uncommitted work that was there before, so nothing is
 * removed and the human is told why.
 */
import type { LoopState } from './types.js';

export interface DeferralPlan {
  /** Paths to put back to their content at the loop's start. */
  remove: string[];
  /** Paths of the loop left as they are, with why. */
  left: Array<{ path: string; reason: string }>;
}

/** Start points that are snapshots of the working tree before the loop's edits. */
export function startIsSnapshot(source: LoopState['start_source']): boolean {
  return source === 'task_start' || source === 'reset' || source === 'approve' || source === 'first_verify';
}

export function planDeferral(args: {
  startSource: LoopState['start_source'];
  /** Paths that differ between the loop's start and the tree its last verify saw (or now, when it never verified). */
  loopPaths: readonly string[];
  /** Of those, the paths whose content changed after the last verify. */
  changedSinceVerify: ReadonlySet<string>;
}): DeferralPlan {
  const out: DeferralPlan = { remove: [], left: [] };
  for (const path of [...args.loopPaths].sort()) {
    if (!startIsSnapshot(args.startSource)) out.left.push({ path, reason: 'the loop started from HEAD (no `ralf task start`): its edits cannot be told from uncommitted work that was there before; left as it is' });
    else if (args.changedSinceVerify.has(path)) out.left.push({ path, reason: 'changed after the last verify (not what the loop verified); left as it is' });
    else out.remove.push(path);
  }
  return out;
}
