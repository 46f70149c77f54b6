/**
 * The Persistence Loop's own files, read and written in its shapes:
 *   - `.specify/config/persistence.yaml` (`persistence_loop: {max_iterations, warn_threshold,
 *     retry: {max_attempts, base_delay, max_delay, jitter}, timeout: {per_step, total}}`),
 *     turned into the run's limits;
 *   - the `persistence_loop:` block in a task file's frontmatter (`started`, `iteration`,
 *     `max_iterations`, `checkpoint: {completed_steps, current_step, state_data, timestamp}`),
 *     rewritten as the task's checkpoint when its loop ends;
 *   - the context a Rejected task carries: failure reason, output, checkpoint, retry history.
 * Pure except `readPersistenceConfig`, which reads the one file.
 */
import { failed } from '../engine/core/check-status.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import matter from 'gray-matter';
import { RalfError } from '../errors.js';
import type { IterationRecord, LoopState } from '../engine/core/types.js';
import { yamlScalar } from './frontmatter-lines.js';
import { readUserText } from '../fs/read-user-text.js';

export const PERSISTENCE_CONFIG = join('.specify', 'config', 'persistence.yaml');

/** What persistence.yaml says, as the run's limits (the seed's defaults where it is silent). */
export interface PersistenceLimits {
  /** The file that was read; null: none found (defaults apply). */
  file: string | null;
  max_iterations: number;
  warn_threshold: number;
  /** Seconds before each retry of a transient agent failure: base_delay doubling up to max_delay. */
  backoff_seconds: number[];
  jitter: number;
  per_step_seconds: number | null;
  total_seconds: number | null;
}

export const PERSISTENCE_DEFAULTS: PersistenceLimits = {
  file: null,
  max_iterations: 100,
  warn_threshold: 0.8,
  backoff_seconds: [1, 2, 4, 8, 16],
  jitter: 0.2,
  per_step_seconds: 300,
  total_seconds: 3600,
};

function num(value: unknown, file: string, key: string, check: (n: number) => boolean, expected: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) {
    throw new RalfError('persistence_config_invalid', `${file}: persistence_loop.${key}: expected ${expected}`, {
      problems: [{ file, key: `persistence_loop.${key}`, message: `expected ${expected}`, received: JSON.stringify(value), hint: `Fix persistence_loop.${key} in ${file}, or remove it for the default.` }],
    });
  }
  return value;
}

/** Reads persistence.yaml's values into limits (pure). Throws RalfError naming the key on bad values. */
export function persistenceLimits(data: unknown, file: string): PersistenceLimits {
  const root = (data && typeof data === 'object' ? (data as Record<string, unknown>).persistence_loop : undefined) as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object') return { ...PERSISTENCE_DEFAULTS, file };
  const retry = (root.retry && typeof root.retry === 'object' ? root.retry : {}) as Record<string, unknown>;
  const timeout = (root.timeout && typeof root.timeout === 'object' ? root.timeout : {}) as Record<string, unknown>;
  const positive = (n: number) => n > 0;
  const maxIterations = num(root.max_iterations, file, 'max_iterations', (n) => Number.isInteger(n) && n >= 1 && n <= 100, 'an integer from 1 to 100 (ralf caps a loop at 100 iterations)');
  const warn = num(root.warn_threshold, file, 'warn_threshold', (n) => n > 0 && n <= 1, 'a fraction between 0 and 1');
  const attempts = num(retry.max_attempts, file, 'retry.max_attempts', (n) => Number.isInteger(n) && n >= 0 && n <= 20, 'an integer from 0 to 20');
  const base = num(retry.base_delay, file, 'retry.base_delay', (n) => n >= 0, 'seconds (>= 0)') ?? 1;
  const maxDelay = num(retry.max_delay, file, 'retry.max_delay', (n) => n >= 0, 'seconds (>= 0)') ?? 16;
  const jitter = num(retry.jitter, file, 'retry.jitter', (n) => n >= 0 && n < 1, 'a fraction between 0 and 1');
  const perStep = num(timeout.per_step, file, 'timeout.per_step', positive, 'seconds (> 0)');
  const total = num(timeout.total, file, 'timeout.total', positive, 'seconds (> 0)');
  if (retry.backoff_strategy !== undefined && retry.backoff_strategy !== 'exponential') {
    throw new RalfError('persistence_config_invalid', `${file}: persistence_loop.retry.backoff_strategy: only "exponential" is supported`, {
      problems: [{ file, key: 'persistence_loop.retry.backoff_strategy', message: 'only "exponential" is supported', received: JSON.stringify(retry.backoff_strategy) }],
    });
  }
  // base_delay doubling, capped at max_delay: 1, 2, 4, 8, 16 s; max_attempts retries when given.
  const schedule: number[] = [];
  const count = attempts ?? Math.max(1, Math.ceil(Math.log2(Math.max(1, maxDelay / Math.max(base, 1e-9)))) + 1);
  for (let k = 0; k < count; k++) schedule.push(Math.min(base * 2 ** k, maxDelay));
  return {
    file,
    max_iterations: maxIterations ?? PERSISTENCE_DEFAULTS.max_iterations,
    warn_threshold: warn ?? PERSISTENCE_DEFAULTS.warn_threshold,
    backoff_seconds: schedule,
    jitter: jitter ?? PERSISTENCE_DEFAULTS.jitter,
    per_step_seconds: perStep ?? PERSISTENCE_DEFAULTS.per_step_seconds,
    total_seconds: total ?? PERSISTENCE_DEFAULTS.total_seconds,
  };
}

/** Finds `.specify/config/persistence.yaml` at or above `start`, up to `stop` (the project root). */
export function findPersistenceConfig(start: string, stop: string): string | null {
  let dir = resolve(start);
  const end = resolve(stop);
  for (;;) {
    const candidate = join(dir, PERSISTENCE_CONFIG);
    if (existsSync(candidate)) return candidate;
    if (dir === end) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export function readPersistenceConfig(start: string, projectRoot: string): PersistenceLimits {
  const file = findPersistenceConfig(start, projectRoot);
  if (!file) return { ...PERSISTENCE_DEFAULTS };
  let data: unknown;
  try {
    // gray-matter's YAML engine reads the file as a frontmatter block: one YAML parser for the project.
    data = matter(`---\n${readUserText(file, { what: 'persistence config', maxBytes: 1024 * 1024 })}\n---\n`, {}).data;
  } catch (err) {
    const e = err as { reason?: string; message?: string; mark?: { line?: number } };
    const line = e.mark?.line ?? 0; // the added `---` line makes it 1-based
    throw new RalfError('persistence_config_invalid', `${file}:${line}: invalid YAML: ${e.reason ?? e.message}`, {
      problems: [{ file, line, message: `invalid YAML: ${e.reason ?? e.message}`, hint: 'Fix the YAML (quote values with : or # in them).' }],
    });
  }
  return persistenceLimits(data, file);
}

/** One iteration as a checkpoint step: `iteration_2: retry, 1/2 checks pass`. */
function stepOf(it: IterationRecord): string {
  const passed = it.checks.filter((c) => c.passed).length;
  return `iteration_${it.iteration}: ${it.verdict}${it.stop_reason && it.stop_reason !== 'success' ? ` (${it.stop_reason})` : ''}, ${passed}/${it.checks.length} checks pass`;
}

export interface CheckpointInput {
  /** What the file already says (kept: `started`). */
  existing: Record<string, unknown> | null;
  loop: LoopState | null;
  iterations: number;
  max_iterations: number;
  outcome: 'done' | 'rejected' | 'paused';
  stop_reason: string | null;
  now: Date;
}

/** The `persistence_loop:` block's lines, in the seed's shape (pure). */
export function persistenceBlock(input: CheckpointInput): string[] {
  const its = input.loop?.iterations ?? [];
  const last = its[its.length - 1];
  const started = input.existing?.started ?? input.loop?.started_at ?? input.now.toISOString();
  const startedText = started instanceof Date ? started.toISOString() : String(started);
  const current = input.outcome === 'done' ? 'done' : input.outcome === 'rejected' ? `rejected: ${input.stop_reason ?? 'unknown'}` : `iteration_${input.iterations + 1}`;
  const lines = [
    'persistence_loop:',
    `  started: ${yamlScalar(startedText)}`,
    `  iteration: ${input.iterations}`,
    `  max_iterations: ${input.max_iterations}`,
    '  checkpoint:',
  ];
  if (its.length === 0) lines.push('    completed_steps: []');
  else {
    lines.push('    completed_steps:');
    for (const it of its) lines.push(`      - ${yamlScalar(stepOf(it))}`);
  }
  lines.push(`    current_step: ${yamlScalar(current)}`);
  lines.push('    state_data:');
  lines.push(`      stop_reason: ${input.stop_reason === null ? 'null' : yamlScalar(input.stop_reason)}`);
  lines.push(`      fingerprint: ${last?.fingerprint ? yamlScalar(last.fingerprint) : 'null'}`);
  lines.push(`      checks_passed: ${last ? last.checks.filter((c) => c.passed).length : 0}`);
  lines.push(`      checks_total: ${last ? last.checks.length : 0}`);
  lines.push(`    timestamp: ${yamlScalar(input.now.toISOString())}`);
  return lines;
}

/**
 * What a Rejected task carries for the human (Markdown appended to its body, pure): the
 * failure reason, the retry history (one line per iteration), and the failing output.
 */
export function rejectionSection(loop: LoopState | null, iterations: number, reason: string, detail: string | null, now: Date, eol = '\n'): string {
  const its = loop?.iterations ?? [];
  const out: string[] = ['', `## Rejected by ralf run (${now.toISOString()})`, '', `- Failure reason: ${reason}${detail ? ` — ${detail.split(/\r?\n/)[0]}` : ''}`, `- Iterations: ${loop ? `${its.length} of ${loop.max_iterations}` : iterations}`];
  if (loop?.handoff?.recommendation) out.push(`- Recommendation: ${loop.handoff.recommendation}`);
  if (its.length > 0) {
    out.push('', '### Retry history', '');
    for (const it of its) out.push(`- ${it.finished_at}: ${stepOf(it)}${it.fingerprint ? `, fingerprint ${it.fingerprint}` : ''}${it.files_changed.length ? `, changed ${it.files_changed.join(', ')}` : ''}`);
  }
  const failing = (its[its.length - 1]?.checks ?? []).filter(failed);
  if (failing.length > 0) {
    out.push('', '### Failure output (last iteration)', '');
    for (const c of failing) {
      out.push(`\`${c.command}\` (exit ${c.exit_code ?? c.signal ?? '?'}):`, '', '```text', c.output_tail.replace(/```/g, "'''").trimEnd(), '```', '');
    }
  }
  return out.join(eol) + eol;
}
