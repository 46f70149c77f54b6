/**
 * `ralf run <target> --dry-run`: how ralf reads the target (a GSD plan or phase, or another loop
 * tool's seed) — its plans, items, what the loop does with each and the checks it would run —
 * without starting an agent or running a check. For people coming from another tool: what
 * carried over from their file is visible before the first iteration.
 */
import { describeCheck } from '../verify/describe.js';
import { readRunTarget } from './target.js';

export interface RunPreview {
  kind: string;
  source: string;
  project_root: string;
  plans: Array<{
    id: string;
    path: string;
    tasks: Array<{ number: number; name: string; decision: string; reason: string; checks: string[]; manual: string[]; /** Why the item's own file keeps it from running (finished, not approved), else null. */ not_runnable: string | null }>;
    plan_checks: string[];
    /** What the reader noticed: items it does not run and why (waiting for approval), ignored files, unknown keys. */
    warnings: string[];
  }>;
  /** Plans of a phase that are not run, and why (a SUMMARY.md marks them complete). */
  skipped: Array<{ id: string; path: string; reason: string }>;
}

export async function previewRun(target: string, options: { historyPath?: string | null; env?: NodeJS.ProcessEnv } = {}): Promise<RunPreview> {
  const t = await readRunTarget(target, options);
  return {
    kind: t.kind,
    source: t.source,
    project_root: t.projectRoot,
    plans: t.plans.map((p) => ({
      id: p.id,
      path: p.path,
      tasks: p.tasks.map((task) => ({ number: task.number, name: task.name, decision: task.decision, reason: task.reason, checks: task.checks.map(describeCheck), manual: task.manual, not_runnable: task.not_runnable ?? null })),
      plan_checks: p.plan_checks.map(describeCheck),
      warnings: [...p.warnings],
    })),
    skipped: (t.skipped ?? []).map((s) => ({ id: s.plan.id, path: s.plan.path, reason: s.reason })),
  };
}

/** The preview for people: one line per item, its checks under it. */
export function previewText(p: RunPreview, relative: (path: string) => string): string {
  const out = [`ralf run --dry-run: ${p.kind} ${relative(p.source) || '.'} (nothing runs; project root ${relative(p.project_root) || '.'})`];
  for (const plan of p.plans) {
    out.push('', `${plan.id}  ${relative(plan.path)}`);
    for (const t of plan.tasks) {
      out.push(`  ${t.number}. ${t.name} — ${t.decision}${t.decision === 'loop' ? `: ${t.checks.length} check${t.checks.length === 1 ? '' : 's'}` : `: ${t.reason}`}`);
      for (const c of t.checks) out.push(`       - ${c.split('\n')[0]}${c.includes('\n') ? ' …' : ''}`);
      for (const m of t.manual) out.push(`       (to confirm) ${m}`);
    }
    if (plan.plan_checks.length > 0) out.push(`  plan-level checks: ${plan.plan_checks.map((c) => c.split('\n')[0]).join('; ')}`);
    for (const w of plan.warnings) out.push(`  note: ${w}`);
  }
  for (const s of p.skipped) out.push('', `${s.id}  ${relative(s.path)} — not run: ${s.reason}`);
  return out.join('\n');
}
