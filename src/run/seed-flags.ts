/**
 * The other loop systems' command lines and environment, as `ralf run` honours them (pure):
 *   ralph1        --requirements=FILE --history=FILE --model=sonnet|haiku|opus
 *                 --reasoning=none|low|med|high --no-spinner (and --duration, ralf's own)
 *   copilot_ralf  -p DIR --loop-model M --plan-model M --skip-review --loop-only (--plan-only:
 *                 `ralf plan-prd`), RALPH_MAX_ITERATIONS, RALPH_MAX_STAGNANT, RALPH_TASK_TIMEOUT,
 *                 RALPH_AUTO_COMMIT, RALPH_PROJECT_DIR, RALPH_LOOP_MODEL, RALPH_PLAN_MODEL
 * Flags win over the environment; both win over the config files and the target's own limits.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageError } from '../errors.js';
import type { LoopLimits } from './engine-api.js';

export type Reasoning = 'none' | 'low' | 'med' | 'high';

export interface SeedFlags {
  requirements?: string | undefined;
  history?: string | undefined;
  model?: string | undefined;
  reasoning?: string | undefined;
  noSpinner?: boolean | undefined;
  project?: string | undefined;
  planModel?: string | undefined;
  loopModel?: string | undefined;
  skipReview?: boolean | undefined;
  loopOnly?: boolean | undefined;
  planOnly?: boolean | undefined;
}

export interface SeedOptions {
  /** The target the flags name (`--requirements`, `-p DIR`, RALPH_PROJECT_DIR); null: the positional. */
  target: string | null;
  historyPath: string | null;
  model: string | null;
  /** The planning model (RALPH_PLAN_MODEL / --plan-model): `ralf plan-prd`, and copilot_ralf's escalation. */
  planModel: string | null;
  reasoning: Reasoning | null;
  /** RALPH_MAX_ITERATIONS, RALPH_MAX_STAGNANT (no-progress iterations of an item). */
  runLimits: LoopLimits;
  /** RALPH_MAX_STAGNANT: consecutive stopped items before the run halts (copilot_ralf's circuit breaker). */
  maxStagnant: number | null;
  iterationTimeoutSeconds: number | null;
  commit: boolean | null;
  /** `--no-spinner`: plain progress lines, no redrawn status line. */
  live: boolean;
  /** Said to the user (flags that change nothing here, and why). */
  notes: string[];
}

const REASONING: Record<string, Reasoning> = { none: 'none', low: 'low', med: 'med', medium: 'med', high: 'high' };

function intEnv(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < min || n > max) throw usageError(`${name}="${raw}": expected an integer from ${min} to ${max}`, `unset ${name} or give it a whole number`);
  return n;
}

function boolEnv(env: NodeJS.ProcessEnv, name: string): boolean | null {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return null;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw usageError(`${name}="${env[name]}": expected true or false`, `set ${name}=true or ${name}=false`);
}

/** copilot_ralf's project directory: its `.ralph/prd.md`, else `prd.md`. */
export function prdInProject(dir: string): string {
  for (const candidate of [join(dir, '.ralph', 'prd.md'), join(dir, 'prd.md'), join(dir, 'PRD.md')]) if (existsSync(candidate)) return candidate;
  throw usageError(`${dir}: no .ralph/prd.md or prd.md in the project directory`, `write one with \`ralf plan-prd "<what to build>" --agent claude --cwd ${dir}\`, or name the target`);
}

export function resolveSeedOptions(flags: SeedFlags, env: NodeJS.ProcessEnv, cwd: string, positional: string | undefined): SeedOptions {
  if (flags.planOnly) throw usageError('--plan-only: planning is its own command in ralf', 'run `ralf plan-prd "<prompt>" --agent <agent>` (it writes prd.md for you to review), then `ralf run <prd.md> --agent <agent>`');
  const notes: string[] = [];
  if (flags.skipReview) notes.push('--skip-review: `ralf run` never stops for a plan review (the review is between `ralf plan-prd` and `ralf run`)');
  let reasoning: Reasoning | null = null;
  if (flags.reasoning !== undefined) {
    reasoning = REASONING[flags.reasoning.trim().toLowerCase()] ?? null;
    if (!reasoning) throw usageError(`--reasoning: "${flags.reasoning}" is not a reasoning level`, 'use --reasoning=none, low, med or high');
  }
  if (flags.model !== undefined && flags.loopModel !== undefined && flags.model !== flags.loopModel) throw usageError('--model and --loop-model name different models', 'give one of them');
  const model = flags.model ?? flags.loopModel ?? env.RALPH_LOOP_MODEL?.trim() ?? null;
  if (model !== null && model === '') throw usageError('--model is empty', 'use e.g. --model=sonnet');

  let target: string | null = null;
  if (flags.requirements !== undefined) {
    if (positional !== undefined) throw usageError(`--requirements and the target "${positional}" both name what to run`, 'give one of them');
    target = resolve(cwd, flags.requirements);
  }
  const project = flags.project ?? env.RALPH_PROJECT_DIR?.trim() ?? undefined;
  if (target === null && positional === undefined && project) {
    const dir = resolve(cwd, project);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw usageError(`${flags.project !== undefined ? '-p' : 'RALPH_PROJECT_DIR'}: ${dir} is not a directory`, 'name the project directory that holds .ralph/prd.md');
    target = prdInProject(dir);
  }

  const maxIterations = intEnv(env, 'RALPH_MAX_ITERATIONS', 1, 100);
  const maxStagnant = intEnv(env, 'RALPH_MAX_STAGNANT', 1, 100);
  const taskTimeout = intEnv(env, 'RALPH_TASK_TIMEOUT', 1, 86_400);
  const runLimits: LoopLimits = {};
  if (maxIterations !== null) runLimits.max_iterations = maxIterations;
  if (maxStagnant !== null) runLimits.no_progress_repeats = maxStagnant;
  return {
    target,
    historyPath: flags.history !== undefined ? resolve(cwd, flags.history) : null,
    model,
    planModel: flags.planModel ?? env.RALPH_PLAN_MODEL?.trim() ?? null,
    reasoning,
    runLimits,
    maxStagnant,
    iterationTimeoutSeconds: taskTimeout,
    commit: boolEnv(env, 'RALPH_AUTO_COMMIT'),
    live: flags.noSpinner !== true,
    notes,
  };
}
