/**
 * The I/O edge of the plan model: read a PLAN.md safely (a missing file, a directory, a
 * FIFO, a file over 10 MB, binary or non-UTF-8 bytes are clear errors, never a hang or a
 * garbled parse), load the effective config from the plan's directory, parse and decide.
 */
import { firstInvalidUtf8 } from '../fs/utf8.js';
import { existsSync } from 'node:fs';
import { readRegularFile } from '../fs/read-regular-file.js';
import { dirname, resolve } from 'node:path';
import { RalfError } from '../errors.js';
import { loadConfig, type LoadConfigOptions } from '../config/load.js';
import type { RalfLiteConfig } from '../config/schema.js';
import type { Plan } from './model.js';
import { decidePlan, projectCommands, type ProjectCommands } from './decide.js';
import { parsePlanText } from './parse.js';
import { machineResolver } from './resolve-programs.js';
import { resolveTrackers } from './tracker.js';
import type { ProgramResolver } from './command-like.js';

/** Plans are Markdown: the largest real one is 149 KB. Anything over this is refused unread. */
export const MAX_PLAN_BYTES = 10 * 1024 * 1024;

export interface ReadPlanOptions {
  maxBytes?: number;
  /** Use this config instead of loading it from the plan's directory. */
  config?: RalfLiteConfig;
  /** With `config`: the commands for named checks (default: from `config.checks`). */
  projectCommands?: ProjectCommands;
  /** Passed to loadConfig (host, configDir, env, home); cwd is the plan's directory. */
  loadConfig?: Omit<LoadConfigOptions, 'cwd'>;
  /** Which program names resolve (default: PATH and node_modules/.bin from the project root). */
  resolves?: ProgramResolver;
  /** The environment checks run in (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** The project root of a plan: the directory holding its `.planning`, else the plan's directory. */
export function projectRootOf(planPath: string): string {
  for (let d = dirname(planPath); ; d = dirname(d)) {
    if (existsSync(resolve(d, '.planning'))) return d;
    if (dirname(d) === d) return dirname(planPath);
  }
}

function lineOfByte(buf: Buffer, offset: number): number {
  let line = 1;
  for (let i = buf.indexOf(10); i !== -1 && i < offset; i = buf.indexOf(10, i + 1)) line++;
  return line;
}

function invalid(path: string, message: string, extra: { line?: number; hint?: string; received?: string } = {}): RalfError {
  const where = extra.line ? `${path}:${extra.line}` : path;
  return new RalfError('plan_invalid', `${where}: ${message}`, { problems: [{ file: path, message, ...extra }] });
}

/** Reads a plan file as text, refusing anything that is not a reasonably sized UTF-8 text file. */
export function readPlanText(path: string, maxBytes = MAX_PLAN_BYTES): string {
  let buf: Buffer | null;
  try {
    // One descriptor, opened non-blocking and fstat'ed: a path swapped to a FIFO after a stat would hang a plain read.
    buf = readRegularFile(path, { maxBytes, what: 'plan', kind: 'plan_invalid' });
  } catch (err) {
    if (err instanceof RalfError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') buf = null;
    else throw invalid(path, `cannot read the file (${code ?? (err as Error).message})`);
  }
  if (buf === null) {
    throw new RalfError('plan_not_found', `${path}: no such file`, { problems: [{ file: path, message: 'no such file', hint: 'Pass the path of a PLAN.md, e.g. .planning/phases/01-foundation/01-01-PLAN.md.' }] });
  }
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) {
    throw invalid(path, 'the file is UTF-16 text, not UTF-8', { line: 1, hint: 'Save the plan as UTF-8.' });
  }
  const nul = buf.indexOf(0);
  if (nul !== -1) throw invalid(path, `binary file: NUL byte at offset ${nul}`, { line: lineOfByte(buf, nul), hint: 'A PLAN.md is UTF-8 Markdown text.' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    const at = firstInvalidUtf8(buf);
    throw invalid(path, `not valid UTF-8: byte 0x${(buf[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at}`, { line: lineOfByte(buf, at), hint: 'Save the plan as UTF-8.' });
  }
}

/** Reads, parses and decides a plan. Config comes from the plan's directory unless given. */
export function readPlan(path: string, options: ReadPlanOptions = {}): Plan {
  const abs = resolve(path);
  return planFromText(readPlanText(abs, options.maxBytes), abs, options);
}

/** Parses and decides a plan's text (the file at `path`, or another version of it). */
export function planFromText(text: string, path: string, options: ReadPlanOptions = {}): Plan {
  const abs = resolve(path);
  const root = projectRootOf(abs);
  const env = options.env ?? process.env;
  const resolves = options.resolves ?? machineResolver(root, env);
  const parsed = parsePlanText(text, abs, { resolves });
  const context = { env, trackers: resolveTrackers(parsed, root, resolves, env), resolves };
  if (options.config) return decidePlan(parsed, options.config, options.projectCommands ?? projectCommands(options.config), context);
  const effective = loadConfig({ ...options.loadConfig, cwd: dirname(abs) });
  return decidePlan(parsed, effective.config, projectCommands(effective.config, effective.project_config), context);
}
