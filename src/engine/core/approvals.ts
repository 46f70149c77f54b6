/**
 * Rule 4 approvals (pure). A human answers a `rule4_architectural` stop with
 * `ralf task approve`; the approval is recorded in the plan state and every later diff guard
 * of the plan (this task's next iterations, later tasks, the plan-level loop) subtracts the
 * approved findings. Findings are matched by their exact text (`src/git/rule4.ts` words them
 * from the path and, for manifests, the dependency and section), so approving "new dependency
 * in package.json: zod (dependencies)" does not approve any other dependency.
 *
 * An agent's own escalation (`ralf task escalate`) happens BEFORE the change exists, so there
 * are no findings to approve yet: its approval is `open` and covers what the same loop's guard
 * finds until that loop passes; each covered finding is added to the approval, so later tasks
 * and the plan-level loop subtract it by text like any other.
 */
import type { PlanState, Rule4Approval } from './types.js';

export interface GuardOwner {
  scope: 'task' | 'plan';
  /** The task's identity key (null for the plan-level loop). */
  taskKey: string | null;
}

export interface GuardAfterApprovals {
  /** Findings no approval covers: these stop the loop. */
  blocking: string[];
  /** Findings an approval covers: recorded on the iteration, never a stop. */
  approved: string[];
  /** Findings an open approval covered for the first time, by approval index: to add to it. */
  absorbed: Map<number, string[]>;
}

const owns = (a: Rule4Approval, who: GuardOwner) => a.scope === who.scope && (a.scope === 'plan' || a.task_key === who.taskKey);

export function applyApprovals(findings: string[], approvals: readonly Rule4Approval[], who: GuardOwner): GuardAfterApprovals {
  const out: GuardAfterApprovals = { blocking: [], approved: [], absorbed: new Map() };
  if (findings.length === 0) return out;
  const approvedText = new Set(approvals.flatMap((a) => a.findings));
  const open = approvals.findIndex((a) => a.open && owns(a, who));
  for (const f of findings) {
    if (approvedText.has(f)) out.approved.push(f);
    else if (open >= 0) {
      out.approved.push(f);
      out.absorbed.set(open, [...(out.absorbed.get(open) ?? []), f]);
    } else out.blocking.push(f);
  }
  return out;
}

/** The state with `absorbed` findings added to their open approvals, and the owner's open approvals closed once its loop passed. */
export function updateApprovals(state: PlanState, absorbed: ReadonlyMap<number, string[]>, who: GuardOwner, passed: boolean): PlanState {
  const list = state.approvals ?? [];
  if (absorbed.size === 0 && !(passed && list.some((a) => a.open && owns(a, who)))) return state;
  const approvals = list.map((a, i) => {
    const add = absorbed.get(i) ?? [];
    const findings = add.length > 0 ? [...new Set([...a.findings, ...add])] : a.findings;
    return { ...a, findings, open: a.open && !(passed && owns(a, who)) };
  });
  return { ...state, approvals };
}

/** Every finding the plan's approvals cover, for messages. */
export function approvedFindings(state: PlanState | null): string[] {
  return [...new Set((state?.approvals ?? []).flatMap((a) => a.findings))];
}
