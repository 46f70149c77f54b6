/**
 * Parallel plans in one working tree. GSD executes the plans of a wave at once, each agent in
 * the same checkout; a loop's diff since its task started then also holds what the other plans'
 * agents wrote (plan B adds a dependency: plan A's correct task trips the Rule 4 guard, and B's
 * edits look like A's progress). Such changes are attributed to the plan that declares them:
 * the files another plan declares (`files_modified` and its tasks' `<files>`) are left out of
 * this loop's guard and progress when that plan's loop is open beside this one, unless this
 * plan declares them too. Only plans of the same phase (the same directory) are looked at: GSD
 * runs a phase's plans in waves, never plans of two phases at once, so a loop left open in
 * another phase attributes nothing here. Plans in separate git worktrees never see each
 * other's files.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeclared } from '../../git/path-match.js';
import type { LoopState, PlanState } from '../core/types.js';
import { loadPlanTarget, type ConfigOptions } from './context.js';
import type { EngineDeps } from './deps.js';
import { readPlanStateFile } from './store.js';

/** A GSD plan file: the only kind of plan another loop can be read back from by its path. */
const GSD_PLAN = /(^|[/\\])([^/\\]*-)?PLAN\.md$/i;

export interface OtherLoopsInput {
  projectRoot: string;
  /** The state directory (`.planning/ralf`) and this plan's state file in it. */
  stateDir: string;
  ownStateFile: string;
  /** This plan's path relative to the project root (`/`-separated), as state records it. */
  planRel: string;
  /** When this loop started (ISO); null: it starts now. */
  since: string | null;
  options: ConfigOptions;
}

/**
 * The declared files (as written: paths, directories, globs) of every other plan whose loop is
 * open beside this one: started and not ended (`ralf task start`, or verified and still
 * running), or updated since this loop started (its task may have passed and been committed
 * meanwhile: its changes are still in this loop's diff, which starts from a fixed tree). A state or
 * plan that cannot be read is passed over: attribution is best effort, never an error.
 */
export async function otherLoopsFiles(deps: EngineDeps, input: OtherLoopsInput): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(input.stateDir);
  } catch {
    return [];
  }
  const own = input.ownStateFile;
  const phase = dirOf(input.planRel);
  const files = new Set<string>();
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const path = join(input.stateDir, name);
    if (path === own) continue;
    let state: PlanState | null;
    try {
      state = readPlanStateFile(path);
    } catch {
      continue;
    }
    if (!state || dirOf(state.plan_path) !== phase || !GSD_PLAN.test(state.plan_path) || !openBeside(state, input.since)) continue;
    try {
      const other = await loadPlanTarget(deps, join(input.projectRoot, state.plan_path), input.options);
      for (const f of [...other.plan.frontmatter.files_modified, ...other.plan.tasks.flatMap((t) => t.files)]) if (!coversEverything(f)) files.add(f);
    } catch {
      /* the plan moved or no longer parses: nothing to attribute to it */
    }
  }
  return [...files].sort();
}

function dirOf(rel: string): string {
  return rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
}

/** `.`, `**`, `*`: a declaration that would take the whole project away from this loop. */
function coversEverything(pattern: string): boolean {
  return isDeclared('ralf-probe-a/ralf-probe-b.x', [pattern]) && isDeclared('ralf-probe-c', [pattern]);
}

function openBeside(state: PlanState, since: string | null): boolean {
  const loops: LoopState[] = [...Object.values(state.tasks), ...(state.plan ? [state.plan] : [])];
  return loops.some((l) => l.status === 'running' || (l.status === 'idle' && l.started_at !== null) || (since !== null && l.updated_at !== null && l.updated_at >= since));
}
