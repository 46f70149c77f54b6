/**
 * Persistence of a plan's loop state under `<project>/.planning/ralf/`:
 *   <plan-id>.json   the PlanState (pretty JSON, the source of truth), written atomically;
 *   <plan-id>.jsonl  an append-only history, one JSON object per line;
 *   <plan-id>.lock   held only around read-modify-write.
 * A crash (kill -9) at any point leaves the old or the new JSON, never a mix; a torn last
 * log line is skipped by readers and fenced off by the next append.
 */
import { dirname } from 'node:path';
import { ensureStateDir } from '../../fs/inside-project.js';
import { closeSync, existsSync, fstatSync, lstatSync, realpathSync, openSync, readSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RalfError } from '../../errors.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { readTextIfExists } from '../../fs/read-if-exists.js';
import { readRegularFileSlice } from '../../fs/read-regular-file.js';
import { acquireLock } from '../../fs/lock.js';
import { fastHash } from '../../fast-hash.js';
import { migrateState } from '../core/migrate-state.js';
import { resolve } from 'node:path';
import { STATE_DIR, planIdFromPath, projectRelative, statePaths } from './paths.js';
import { legacyPlanIdFromPath } from '../../plan/plan-id.js';
import { writeStateCopy } from './state-copy.js';
import { STATE_SCHEMA_VERSION, type LoopStatus, type PlanState, type StopReason, type Verdict } from '../core/types.js';

/** One line of `<plan-id>.jsonl`. */
export interface LogEntry {
  ts: string;
  scope: 'task' | 'plan';
  task: number | null;
  /** Iterations recorded in the loop after this action. */
  iteration: number;
  action: 'verify' | 'start' | 'escalate' | 'reset' | 'interrupt' | 'refuse' | 'event' | 'approve' | 'defer';
  /** For `event`: the event type (`blocked`, `budget_exhausted`, ...). */
  event?: string;
  verdict: Verdict | null;
  stop_reason: StopReason | null;
  /** The action added an iteration. */
  counted: boolean;
  fingerprint: string | null;
  progress: boolean | null;
  duration_ms: number | null;
  /** The loop's status after the action. */
  status: LoopStatus | null;
  /** Anything else worth keeping (refusal reason, escalation reason, failing checks...). */
  detail?: string;
  pid: number;
}

function invalid(path: string, message: string, hint: string): RalfError {
  return new RalfError('state_invalid', `${path}: ${message}`, { problems: [{ file: path, message, hint: behindLink(path) ?? hint }] });
}

/** For a state file reached through a symbolic link, a hint that never says "delete" (that would delete the link's target). */
function behindLink(path: string): string | null {
  let real: string;
  try {
    const linked = [path, dirname(path), dirname(dirname(path))].some((p) => lstatSync(p).isSymbolicLink());
    if (!linked) return null;
    real = realpathSync(path);
  } catch {
    return null;
  }
  return `${path} is reached through a symbolic link (it is ${real}); ralf keeps its state in real files inside the project. Move the link aside (mv) and run again; ${real} itself is left as it is.`;
}

/** Parses and checks a state file's text (no zod on this path: `ralf status` must start fast). */
export function parsePlanState(text: string, path: string): PlanState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(path, `not valid JSON (${(err as Error).message})`, 'The file was edited by hand or by another tool. Fix it, or delete it to start the plan\'s loops over (the .jsonl log keeps the history).');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'expected a JSON object', 'Delete the file to start the plan\'s loops over.');
  const v = value as Partial<PlanState> & { schema_version?: unknown };
  if (typeof v.schema_version !== 'number') throw invalid(path, 'missing schema_version', 'Delete the file to start the plan\'s loops over.');
  if (v.schema_version > STATE_SCHEMA_VERSION) {
    throw new RalfError('state_newer', `${path} was written by a newer ralf (state schema ${v.schema_version}; this ralf reads up to ${STATE_SCHEMA_VERSION})`, {
      problems: [{ file: path, key: 'schema_version', message: 'state schema is newer than this ralf', expected: `<= ${STATE_SCHEMA_VERSION}`, received: String(v.schema_version), hint: 'Upgrade ralf-lite (npm i -g ralf-lite@latest); this version will not touch the file.' }],
    });
  }
  if (typeof v.tasks !== 'object' || v.tasks === null || Array.isArray(v.tasks)) throw invalid(path, '`tasks` must be an object', 'Delete the file to start the plan\'s loops over.');
  for (const [key, loop] of [...Object.entries(v.tasks as Record<string, unknown>).map(([k, l]) => [`tasks.${k}`, l] as const), ['plan', v.plan] as const]) {
    if (key === 'plan' && (loop === null || loop === undefined)) continue;
    const wrong = loopShapeProblem(loop);
    if (wrong) throw invalid(path, `\`${key}${wrong.key ? `.${wrong.key}` : ''}\` ${wrong.message}`, 'The file was edited by hand or by another tool. Put the value back as ralf wrote it (the .jsonl log beside it has the history), or move the file aside to start the plan\'s loops over.');
  }
  return migrateState({ ...v, not_looped: Array.isArray(v.not_looped) ? v.not_looped : [], plan: v.plan ?? null } as PlanState);
}

/**
 * The id a plan's state files are named by. State is keyed by the project-relative plan path:
 * the plan that first recorded state under its plan id keeps `<plan-id>.json` (so existing
 * files keep their names); another plan with the same file name (an archived
 * `.planning/milestones/v1.0-phases/01-x/01-01-PLAN.md` beside a new
 * `.planning/phases/01-x/01-01-PLAN.md`) gets `<plan-id>--<hash of its path>.json` and never
 * sees the other's loops.
 */
export function stateIdFor(projectRoot: string, planRel: string, planId: string): string {
  const own = `${planId}--${fastHash(planRel).slice(0, 8)}`;
  if (existsSync(statePaths(projectRoot, own).state)) return own;
  const owner = recordedPlanPath(statePaths(projectRoot, planId).state);
  if (owner === planRel) return planId;
  if (owner !== null) return own;
  // A loop an older ralf recorded under the file's legacy id (`fix_` for fix_plan.md) goes on.
  const legacy = legacyPlanIdFromPath(planRel);
  return legacy !== planId && recordedPlanPath(statePaths(projectRoot, legacy).state) === planRel ? legacy : planId;
}

/** The `plan_path` a state file records (it is the second key: the first 4 KiB hold it); null when none. */
function recordedPlanPath(path: string): string | null {
  // Never blocks on a FIFO or device planted there: readRegularFileSlice opens non-blocking, regular files only.
  const head = readRegularFileSlice(path, 4096, 'start');
  const m = head && /"plan_path":\s*("(?:[^"\\]|\\.)*")/.exec(head.toString('utf8'));
  try {
    return m ? (JSON.parse(m[1]!) as string) : null;
  } catch {
    return null;
  }
}

/** The state id of the PLAN.md at `planPath` (absolute or relative to the project root). */
export function stateIdOfPlan(projectRoot: string, planPath: string): string {
  return stateIdFor(projectRoot, projectRelative(projectRoot, resolve(projectRoot, planPath)), planIdFromPath(planPath));
}

/**
 * The fields of a loop the engine and the readers use, with the types they assume: a
 * hand-edited `"iterations": "3"` is a bad state file (exit 2 naming the key), not a crash.
 */
function loopShapeProblem(loop: unknown): { key: string | null; message: string } | null {
  if (typeof loop !== 'object' || loop === null || Array.isArray(loop)) return { key: null, message: 'must be an object' };
  const l = loop as Record<string, unknown>;
  if (typeof l.status !== 'string') return { key: 'status', message: 'must be a string' };
  if (!Array.isArray(l.iterations)) return { key: 'iterations', message: 'must be a list' };
  const i = l.iterations.findIndex((it) => typeof it !== 'object' || it === null || Array.isArray(it) || !Array.isArray((it as { checks?: unknown }).checks) || typeof (it as { iteration?: unknown }).iteration !== 'number');
  if (i !== -1) return { key: `iterations.${i}`, message: 'must be an iteration record (an object with a number `iteration` and a list `checks`)' };
  if (typeof l.max_iterations !== 'number' || !Number.isFinite(l.max_iterations)) return { key: 'max_iterations', message: 'must be a number' };
  for (const k of ['fingerprint_streak', 'no_progress_streak', 'total_duration_ms']) if (l[k] !== undefined && typeof l[k] !== 'number') return { key: k, message: 'must be a number' };
  for (const k of ['stop_reason', 'start_ref', 'started_at', 'updated_at']) if (l[k] !== undefined && l[k] !== null && typeof l[k] !== 'string') return { key: k, message: 'must be a string or null' };
  const pinned = l.checks_at_start;
  if (pinned !== undefined && (!Array.isArray(pinned) || pinned.some((c) => typeof c !== 'object' || c === null || typeof (c as { kind?: unknown }).kind !== 'string'))) {
    return { key: 'checks_at_start', message: 'must be a list of checks (objects with a string `kind`), as ralf recorded them; delete the key to take the plan\'s checks as they are' };
  }
  return null;
}

/** The plan's state, or null when none was written yet. */
export function readPlanState(projectRoot: string, planId: string): PlanState | null {
  return readPlanStateFile(statePaths(projectRoot, planId).state);
}

export function readPlanStateFile(path: string): PlanState | null {
  const text = readTextIfExists(path);
  return text === null ? null : parsePlanState(text, path);
}

export function writePlanState(projectRoot: string, state: PlanState, stateId: string = state.plan_id): void {
  const paths = statePaths(projectRoot, stateId);
  ensureStateDir(projectRoot);
  const text = `${JSON.stringify(state, null, 2)}\n`;
  writeFileAtomic(paths.state, text);
  // A copy in the git dir: a deleted .planning/ralf/ does not restart the loop (state-copy.ts).
  writeStateCopy(projectRoot, stateId, text);
}

/**
 * Appends one line with a single write on an O_APPEND descriptor. If the previous writer
 * died mid-line (no trailing newline), start on a fresh line so only the torn one is lost.
 */
export function appendLog(projectRoot: string, planId: string, entry: LogEntry): void {
  const paths = statePaths(projectRoot, planId);
  ensureStateDir(projectRoot);
  const fd = openSync(paths.log, 'a+');
  try {
    const size = fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    writeSync(fd, `${prefix}${JSON.stringify(entry)}\n`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends to the log after the state (the source of truth) was written. A log that cannot be
 * written must not hide the verdict of an iteration that was already counted: the failure is
 * returned as a warning (the CLI prints it) instead of thrown.
 */
export function appendLogAfterState(projectRoot: string, stateId: string, entry: LogEntry): string | null {
  try {
    appendLog(projectRoot, stateId, entry);
    return null;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return `cannot append to ${statePaths(projectRoot, stateId).log}: ${e.code ?? e.message}; the state file was updated and remains the record`;
  }
}

/** The log's entries; unparsable lines (a torn last line) are skipped. */
export function readLog(projectRoot: string, planId: string): LogEntry[] {
  const text = readTextIfExists(statePaths(projectRoot, planId).log);
  if (text === null) return [];
  const out: LogEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as LogEntry);
    } catch {
      /* a torn line from a killed writer */
    }
  }
  return out;
}

/** How long a verify waits for another ralf process's read-modify-write of the same plan. */
export const LOCK_WAIT_MS = 30_000;

/** Runs `fn` holding the plan's lock (the read-modify-write of state happens inside). */
export function withPlanLock<T>(projectRoot: string, planId: string, fn: () => T, waitMs = LOCK_WAIT_MS): T {
  const paths = statePaths(projectRoot, planId);
  ensureStateDir(projectRoot);
  const lock = acquireLock(paths.lock, { waitMs });
  try {
    return fn();
  } finally {
    lock.release();
  }
}

/** True while `.planning/ralf/STOP` exists: every loop of the project pauses (exit 130). */
export function stopFlagPresent(projectRoot: string): boolean {
  return existsSync(join(projectRoot, STATE_DIR, 'STOP'));
}

/** Plan ids with a state file under the project's `.planning/ralf/`. */
export function listPlanIds(projectRoot: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(projectRoot, STATE_DIR));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .map((n) => n.slice(0, -'.json'.length))
    .sort();
}
