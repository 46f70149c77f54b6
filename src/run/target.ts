/**
 * What `ralf run <path>` loops over, via the format dispatcher (src/formats/detect.ts): a
 * GSD PLAN.md, a phase directory (its plans in wave order, plans that already have a
 * SUMMARY.md skipped: GSD's "complete" mark), or a seed format (PRD checklist, ralph.json,
 * requirements.json, task files) turned into the same Plan model.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultDeps, type EffectiveConfigLike, type PlanningDeps } from '../engine/shell/deps.js';
import { loadRunTarget } from '../formats/detect.js';
import type { TargetLimits } from '../formats/target.js';
import type { Plan } from '../plan/model.js';
import { summaryPathFor } from '../report/summary-file.js';
import type { RunTargetInput } from './driver.js';

export interface ResolvedTarget extends RunTargetInput {
  limits: TargetLimits;
  /** Plans the engine must serve from memory (not GSD files). */
  inMemoryPlans: Plan[];
}

function configCwdFor(path: string): string {
  const abs = resolve(path);
  try {
    return statSync(abs).isDirectory() ? abs : dirname(abs);
  } catch {
    return dirname(abs);
  }
}

/** The target as `ralf run` reads it: config from where it lies, then the format dispatcher (one place for the run and its dry run). */
export async function readRunTarget(path: string, options: { env?: NodeJS.ProcessEnv; historyPath?: string | null } = {}): Promise<ResolvedTarget> {
  const planning = await (await defaultDeps()).planning();
  const effective = planning.loadConfig({ cwd: configCwdFor(path), env: options.env ?? process.env });
  return resolveRunTarget(path, planning, effective, options.historyPath ? { historyPath: options.historyPath } : {});
}

async function resolveRunTarget(path: string, planning: PlanningDeps, effective: EffectiveConfigLike, options: { historyPath?: string } = {}): Promise<ResolvedTarget> {
  const t = await loadRunTarget(path, { config: effective.config, readPlan: (p) => planning.readPlan(p, effective), ...options });
  const gsd = t.kind === 'gsd-plan' || t.kind === 'gsd-phase';
  let plans = t.plans;
  const skipped: RunTargetInput['skipped'] = [];
  if (t.kind === 'gsd-phase') {
    plans = orderByWave(plans).filter((p) => {
      const summary = summaryPathFor(p.path);
      if (!existsSync(summary)) return true;
      skipped.push({ plan: p, reason: `${summary.slice(dirname(p.path).length + 1)} exists (plan complete)` });
      return false;
    });
  }
  return {
    kind: t.kind,
    source: t.source,
    projectRoot: t.project_root,
    plans,
    skipped,
    onTaskResult: t.onTaskResult,
    iterationContext: t.iterationContext,
    markedByAgent: t.markedByAgent,
    writeReports: gsd,
    itemsCarryState: t.kind === 'prd' || t.kind === 'requirements' || t.kind === 'task-files',
    retryStoppedWhileTimeLeft: t.kind === 'requirements',
    ...(t.limits?.warn_threshold !== undefined ? { warnThreshold: t.limits.warn_threshold } : {}),
    limits: t.limits ?? {},
    inMemoryPlans: gsd ? [] : t.plans,
  };
}

/** Wave order (frontmatter `wave`, missing = 1), then plan id in natural order; stable. */
export function orderByWave(plans: Plan[]): Plan[] {
  return plans
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.frontmatter.wave ?? 1) - (b.p.frontmatter.wave ?? 1) || a.p.id.localeCompare(b.p.id, 'en', { numeric: true }) || a.i - b.i)
    .map((x) => x.p);
}
