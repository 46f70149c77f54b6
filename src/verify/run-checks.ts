import { monotonicMs } from '../monotonic.js';
import type { Check } from '../plan/model.js';
import type { CheckResult } from '../engine/core/types.js';
import { describeCheck } from './describe.js';
import { isFileCheck, runFileCheck } from './file-checks.js';
import { runCommand } from './run-command.js';
import { judgeCommand } from './judge.js';
import { summaryCounts } from './summary-counts.js';
import { oneShot } from './one-shot.js';
import { pipelineWarnings, readGrepFiltersAsMeant } from '../plan/pipelines.js';
import { readUserTextIfExists } from '../fs/read-user-text.js';
import { join } from 'node:path';

/**
 * One check's raw result: the contract's `CheckResult` before fingerprinting and
 * test-name parsing (done by the engine). `output_tail` holds the head and tail of
 * the combined output, joined by an omission marker when the middle was dropped.
 */
export type RawCheckResult = Omit<CheckResult, 'fingerprint' | 'failing_tests'> & {
  /** The run was aborted (`signal`) while this check ran, or before it started. */
  interrupted?: boolean;
  /** Bytes of output the check produced in total (only head and tail are kept). */
  output_bytes?: number;
  /** What ralf changed or judged beyond the exit status (one-shot rewrite, <fails_when>, silent green). */
  notes?: string[];
};

/** The project's package.json scripts, or null (no file, not JSON, no scripts). */
function packageScripts(cwd: string): Record<string, string> | null {
  try {
    // Non-blocking, fstat'ed read: a package.json that is a FIFO or a device is no package.json.
    const pkg = JSON.parse(readUserTextIfExists(join(cwd, 'package.json'), { what: 'package.json', maxBytes: 4 * 1024 * 1024 }) ?? 'null') as { scripts?: unknown } | null;
    if (pkg === null || typeof pkg !== 'object') return null;
    if (typeof pkg.scripts !== 'object' || pkg.scripts === null) return null;
    return Object.fromEntries(Object.entries(pkg.scripts).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}

export interface RunChecksOptions {
  /** Project root: shell commands run here, file-check paths resolve against it. */
  cwd: string;
  /** Per-check timeout; `0` or non-finite disables it. */
  timeoutMs: number;
  /** Skip the checks after the first failing one (recorded `skipped: true, passed: false`). */
  stopOnFirstFailure: boolean;
  /** Bytes of output kept per check: a quarter from the head, the rest from the tail. Default 64 KiB. */
  maxOutputBytes?: number;
  /** Extra environment for shell checks, merged over `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Aborting kills the running check's process tree and marks it (and the rest) interrupted. */
  signal?: AbortSignal;
  onCheckStart?: (index: number, check: Check, total: number) => void;
  /** Called with each shell check's process group id when it starts. */
  onSpawn?: (pgid: number) => void;
  /** Between SIGTERM and SIGKILL. Default 2000 ms. */
  killGraceMs?: number;
  /** How long to wait for output to close after the shell exited (daemons). Default 1500 ms. */
  exitGraceMs?: number;
  /** Every output chunk of check `index` as it arrives (see RunCommandOptions.onOutput). */
  onOutput?: ((index: number, chunk: Buffer) => void) | undefined;
}

export const DEFAULT_HEAD_BYTES = 16 * 1024;
export const DEFAULT_TAIL_BYTES = 48 * 1024;

export function outputBudget(maxOutputBytes?: number): { headBytes: number; tailBytes: number } {
  if (maxOutputBytes === undefined || !Number.isFinite(maxOutputBytes)) {
    return { headBytes: DEFAULT_HEAD_BYTES, tailBytes: DEFAULT_TAIL_BYTES };
  }
  const max = Math.max(0, Math.floor(maxOutputBytes));
  const headBytes = Math.floor(max / 4);
  return { headBytes, tailBytes: max - headBytes };
}

function notRun(index: number, check: Check, interrupted: boolean): RawCheckResult {
  return {
    index,
    kind: check.kind,
    command: describeCheck(check),
    passed: false,
    skipped: true,
    exit_code: null,
    signal: null,
    timed_out: false,
    duration_ms: 0,
    output_tail: '',
    ...(interrupted ? { interrupted: true } : {}),
  };
}

/**
 * Runs a task's checks in plan order and records each one. By default every check
 * runs (so progress can be measured across checks); with `stopOnFirstFailure` the
 * rest are recorded as skipped. A failing check is a result, never an exception.
 */
export async function runChecks(checks: Check[], options: RunChecksOptions): Promise<RawCheckResult[]> {
  const { headBytes, tailBytes } = outputBudget(options.maxOutputBytes);
  const results: RawCheckResult[] = [];
  let stop: 'failed' | 'interrupted' | null = null;

  for (const [index, check] of checks.entries()) {
    if (stop === null && options.signal?.aborted) stop = 'interrupted';
    if (stop !== null) {
      results.push(notRun(index, check, stop === 'interrupted'));
      continue;
    }
    options.onCheckStart?.(index, check, checks.length);
    const result = await runOne(index, check, options, headBytes, tailBytes);
    results.push(result);
    if (result.interrupted) stop = 'interrupted';
    else if (!result.passed && options.stopOnFirstFailure) stop = 'failed';
  }
  return results;
}

async function runOne(
  index: number,
  check: Check,
  options: RunChecksOptions,
  headBytes: number,
  tailBytes: number,
): Promise<RawCheckResult> {
  const command = describeCheck(check);
  if (isFileCheck(check)) {
    const started = monotonicMs();
    const outcome = await runFileCheck(check, options.cwd);
    return {
      index,
      kind: check.kind,
      command,
      passed: outcome.passed,
      exit_code: null,
      signal: null,
      timed_out: false,
      duration_ms: Math.round(monotonicMs() - started),
      output_tail: outcome.message,
    };
  }
  if (check.command.trim() === '') {
    // `sh -c ''` exits 0: an empty check must not pass vacuously.
    return {
      index,
      kind: check.kind,
      command,
      passed: false,
      exit_code: null,
      signal: null,
      timed_out: false,
      duration_ms: 0,
      output_tail: 'empty command: nothing to run',
    };
  }
  const once = /\b(?:vitest|jest|npm|yarn|pnpm|bun)\b/.test(check.command) ? oneShot(check.command, packageScripts(options.cwd)) : null;
  const filtered = /\|\s*e?grep\b/.test(check.command) ? readGrepFiltersAsMeant(once?.command ?? check.command) : null;
  const outcome = await runCommand(filtered ?? once?.command ?? check.command, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    headBytes,
    tailBytes,
    env: options.env,
    signal: options.signal,
    killGraceMs: options.killGraceMs,
    exitGraceMs: options.exitGraceMs,
    onSpawn: options.onSpawn,
    onOutput: options.onOutput ? (chunk) => options.onOutput!(index, chunk) : undefined,
  });
  const exitOk = outcome.exit_code === 0 && !outcome.timed_out && !outcome.interrupted && outcome.spawn_error === undefined;
  const ran = !outcome.timed_out && !outcome.interrupted && outcome.spawn_error === undefined;
  const judged = ran ? judgeCommand({ command: check.command, exit_code: outcome.exit_code, exitOk, output: outcome.output, fails_when: 'fails_when' in check ? check.fails_when : undefined }) : { passed: false };
  const judgedNotes = [...(once ? [once.note] : []), ...(judged.reason ? [judged.reason] : [])];
  // These notes head the output, so the handoff, the fingerprint and a person all see why.
  const prefix = judgedNotes.map((n) => `[ralf] ${n}\n`).join('');
  const notes = [...judgedNotes, ...pipelineWarnings(check.command)];
  const { tests_run: tests, skipped_tests: skips, tests_failed: failedCount } = ran ? summaryCounts(outcome.output) : { tests_run: null, skipped_tests: null, tests_failed: null };
  return {
    index,
    kind: check.kind,
    command,
    passed: judged.passed,
    exit_code: outcome.exit_code,
    signal: outcome.signal,
    timed_out: outcome.timed_out,
    duration_ms: outcome.duration_ms,
    output_tail: prefix + outcome.output,
    output_bytes: outcome.output_bytes,
    ...(notes.length > 0 ? { notes } : {}),
    ...(skips !== null ? { skipped_tests: skips } : {}),
    ...(tests !== null ? { tests_run: tests } : {}),
    ...(failedCount !== null ? { tests_failed: failedCount } : {}),
    ...(outcome.interrupted ? { interrupted: true } : {}),
  };
}
