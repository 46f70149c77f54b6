/**
 * Where a plan's loop state lives. Kept free of config/plan imports so `ralf status`
 * can find state without loading zod, remark or the config layers.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { findProjectRoot } from '../../fs/project-root.js';

export const STATE_DIR = join('.planning', 'ralf');
export const STOP_FLAG = 'STOP';

/** `01-02-PLAN.md` → `01-02`; bare `PLAN.md` → its directory's name; `x.md` → `x`. */
export { planIdFromPath } from '../../plan/plan-id.js';

export { findProjectRoot };

/** The project root for a PLAN.md: the nearest ancestor of the file that holds `.planning/`. */
export function projectRootForPlan(planPath: string): string | null {
  return findProjectRoot(dirname(resolve(planPath)));
}

export interface StatePaths {
  dir: string;
  state: string;
  log: string;
  lock: string;
  stopFlag: string;
}

export function statePaths(projectRoot: string, planId: string): StatePaths {
  const dir = join(projectRoot, STATE_DIR);
  return {
    dir,
    state: join(dir, `${planId}.json`),
    log: join(dir, `${planId}.jsonl`),
    lock: join(dir, `${planId}.lock`),
    stopFlag: join(dir, STOP_FLAG),
  };
}

/** `path` relative to the project root with `/` separators (how state and hints show it). */
export function projectRelative(projectRoot: string, path: string): string {
  const rel = relative(projectRoot, resolve(path));
  return (rel.startsWith('..') ? resolve(path) : rel).split(sep).join('/');
}
