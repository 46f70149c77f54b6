/**
 * Which checks a verify runs. The loop's verdict is only as honest as its checks: an agent
 * that rewrites the plan's `<verify>` (a weaker command, `true`, a deleted check) would
 * otherwise pass work nothing verified, and ralf would be running text the plan's author
 * never wrote. So a loop keeps the checks the plan stated where the loop started (its start
 * tree: `ralf task start`, a reset, else HEAD) and runs those, whatever the plan says later.
 * A human who changes the checks on purpose resets the loop (or commits the plan before the
 * task starts), which takes the plan as it is then.
 */
import type { Check } from '../../plan/model.js';

export interface ChecksToRun {
  /** What this verify runs. */
  checks: Check[];
  /** The plan's checks now, when they differ from the loop's (shown, never run); else null. */
  edited: Check[] | null;
}

/** What a check does, without where the plan wrote it (`source` moves when lines above it change). */
export function checkIdentity(check: Check): string {
  const { source: _source, ...rest } = check;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

export function sameChecks(a: readonly Check[], b: readonly Check[]): boolean {
  return a.length === b.length && a.every((c, i) => checkIdentity(c) === checkIdentity(b[i]!));
}

/**
 * `atStart`: the checks recorded when the loop started (null: none recorded yet, e.g. a
 * state written before this rule; then the plan's are taken as they are). Equal checks run
 * as the plan has them now (their `source` lines are current).
 */
export function checksToRun(atStart: readonly Check[] | null | undefined, inPlan: Check[]): ChecksToRun {
  if (!atStart || sameChecks(atStart, inPlan)) return { checks: inPlan, edited: null };
  return { checks: [...atStart], edited: inPlan };
}
