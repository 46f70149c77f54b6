/**
 * Front-end for the `requirements.json` + `history.jsonl` pair (the requirement-harness Ralph
 * loop). Each pending requirement is a task. When its loop ends a line is appended to
 * history.jsonl; a requirement that passes gets `"status": "done"` (only that value is
 * spliced into the file; formatting and unknown keys are kept).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { int, looseObject, minLength, optional, refine, string, trim, union, unknown } from 'zod/mini';
import { RalfError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';
import { AcceptanceCriterion, criterionToCheck } from './criteria-json.js';
import { readCriterionText } from './criteria-text.js';
import { setJsonMember } from './json-edit.js';
import { jsonPathKey } from './json-scan.js';
import { invalidFile, lineOfPath, readJsonDocument, type JsonDocument } from './json-text.js';
import { buildPlan, buildTask, planIdForSource, type TaskDraft } from './plan-builder.js';
import type { FormatOptions, TaskResult } from './target.js';
import { zodProblems } from './zod-problems.js';
import { readUserText, readUserTextIfExists } from '../fs/read-user-text.js';

const Requirement = looseObject({
  id: union([string().check(trim(), minLength(1)), int()]),
  description: optional(string()),
  title: optional(string()),
  /** ralph1's key: one declarative outcome statement. */
  requirement: optional(string()),
  status: optional(string()),
  checkpoint: optional(unknown()),
}).check(refine((r) => (r.requirement ?? r.description ?? r.title ?? '').trim() !== '', { message: 'a requirement needs "requirement", "description" or "title"', path: ['requirement'] }));

export interface HistoryEntry {
  timestamp: string;
  requirement_id: string;
  success: boolean;
  message: string;
  /** 1-based line in history.jsonl. */
  line: number;
}

export interface RequirementsOptions extends FormatOptions {
  /** Text of the history.jsonl beside the file, when it exists (recent attempts go to the agent). */
  history?: string | undefined;
  /** Where the history is (ralph1's `--history=FILE`); default history.jsonl beside the file. */
  historyPath?: string | undefined;
}

const PENDING = new Set(['pending', 'todo', 'open', 'in_progress', 'in-progress', 'failed', '']);
const DONE = new Set(['done', 'complete', 'completed', 'passed', 'passing']);

/** Where the requirements array is: the root array, or `requirements` in a root object. */
function requirementsBase(doc: JsonDocument, path: string): { base: Array<string | number>; list: unknown[] } {
  if (Array.isArray(doc.value)) return { base: [], list: doc.value };
  const obj = doc.value as Record<string, unknown> | null;
  if (obj && typeof obj === 'object' && Array.isArray(obj.requirements)) return { base: ['requirements'], list: obj.requirements };
  throw invalidFile('requirements_invalid', path, [
    {
      file: path,
      key: obj && typeof obj === 'object' ? 'requirements' : undefined,
      line: obj && typeof obj === 'object' ? lineOfPath(doc, 'requirements') : 1,
      message: 'expected an array of requirements, or an object with a "requirements" array',
      received: Array.isArray(obj) ? 'an array' : obj === null ? 'null' : typeof obj === 'object' ? 'an object without "requirements"' : typeof obj,
    },
  ]);
}

/** Parses history.jsonl leniently (it is a log): bad lines become warnings. Pure. */
export function parseHistory(text: string, path: string): { entries: HistoryEntry[]; warnings: string[] } {
  const entries: HistoryEntry[] = [];
  const warnings: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      if (!v || typeof v !== 'object' || v.requirement_id === undefined) throw new Error('no requirement_id');
      entries.push({
        timestamp: String(v.timestamp ?? ''),
        requirement_id: String(v.requirement_id),
        success: v.success === true,
        message: typeof v.message === 'string' ? v.message : '',
        line: i + 1,
      });
    } catch (err) {
      warnings.push(`${path}:${i + 1}: ignored history line (${(err as Error).message})`);
    }
  });
  return { entries, warnings };
}

function readAcceptance(
  value: unknown,
  keyPath: Array<string | number>,
  doc: JsonDocument,
  path: string,
  options: FormatOptions,
  out: { checks: Check[]; manual: string[]; unrunnable: string[]; text: string[]; problems: Problem[] },
  isVerify: boolean,
): void {
  if (value === undefined || value === null) return;
  const items = Array.isArray(value) ? value.map((v, i) => [v, [...keyPath, i]] as const) : [[value, keyPath] as const];
  for (const [item, itemPath] of items) {
    const key = jsonPathKey(itemPath);
    const source = { element: key, line: lineOfPath(doc, key) };
    if (typeof item === 'string') {
      out.text.push(item);
      if (isVerify) {
        if (item.trim()) out.checks.push({ kind: 'command_succeeds', command: item.trim(), source });
        continue;
      }
      const reading = readCriterionText(item, source, options.tests_command);
      if (reading.kind === 'checks') out.checks.push(...reading.checks);
      else {
        out.manual.push(item);
        if (reading.kind === 'unrunnable') out.unrunnable.push(reading.why);
      }
      continue;
    }
    const parsed = AcceptanceCriterion.safeParse(item);
    if (!parsed.success) {
      out.problems.push(...zodProblems(parsed.error.issues, path, doc, itemPath, item));
      continue;
    }
    out.text.push(JSON.stringify(item));
    const check = criterionToCheck(parsed.data, source, options.tests_command);
    if ('unrunnable' in check) {
      out.unrunnable.push(check.unrunnable);
      out.manual.push(check.unrunnable);
    } else out.checks.push(check);
  }
}

function checkpointGate(value: unknown): string | null {
  if (value === undefined || value === null || value === false) return null;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase().replace(/^checkpoint:/, '');
    return v === '' || v === 'none' || v === 'auto' || v === 'false' ? null : v;
  }
  if (typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') return checkpointGate((value as { type: string }).type);
  return 'human-verify';
}

/** The last three history entries of a requirement, one line each (pure): what the agent learns from. */
export function recentHistory(text: string, path: string, requirementId: string): string {
  return parseHistory(text, path)
    .entries.filter((e) => e.requirement_id === requirementId)
    .slice(-3)
    .map((e) => `${e.timestamp} ${e.success ? 'success' : 'failure'}: ${e.message}`)
    .join('\n');
}

/** Parses requirements.json into the plan model (pure). Throws RalfError (exit 2) naming file, key path, line. */
export function parseRequirements(text: string, path: string, options: RequirementsOptions = {}): Plan {
  const doc = readJsonDocument(text, path, 'requirements_invalid');
  const { base, list } = requirementsBase(doc, path);
  const historyFile = options.historyPath ?? historyPathFor(path);
  const history = options.history !== undefined ? parseHistory(options.history, historyFile) : { entries: [], warnings: [] };
  const problems: Problem[] = [];
  const drafts: TaskDraft[] = [];
  const seen = new Map<string, string>();

  list.forEach((raw, i) => {
    const reqPath = [...base, i];
    const reqKey = jsonPathKey(reqPath);
    const parsed = Requirement.safeParse(raw);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error.issues, path, doc, reqPath, raw));
      return;
    }
    const req = parsed.data;
    const id = String(req.id);
    if (seen.has(id)) {
      problems.push({ file: path, key: `${reqKey}.id`, line: lineOfPath(doc, `${reqKey}.id`), message: `duplicate requirement id "${id}" (first at ${seen.get(id)})` });
    } else seen.set(id, reqKey);
    const out = { checks: [] as Check[], manual: [] as string[], unrunnable: [] as string[], text: [] as string[], problems };
    const r = raw as Record<string, unknown>;
    readAcceptance(r.verify, [...reqPath, 'verify'], doc, path, options, out, true);
    readAcceptance(r.acceptance, [...reqPath, 'acceptance'], doc, path, options, out, false);
    // ralph1's quality gate: after every success the project's checks run, also for a
    // requirement with checks of its own (without any, decideTask makes it the only check).
    if (options.tests_command && out.checks.length > 0 && !out.checks.some((c) => c.kind === 'tests_pass' && c.command === options.tests_command)) {
      out.checks.push({ kind: 'tests_pass', command: options.tests_command, source: { element: 'checks.tests', line: lineOfPath(doc, reqKey) } });
    }

    const status = (req.status ?? 'pending').trim();
    const lower = status.toLowerCase();
    const skip = DONE.has(lower)
      ? `already done (status "${status}" in ${basename(path)})`
      : PENDING.has(lower)
        ? null
        : `status "${status}"; only pending requirements run (set "status": "pending" to retry)`;
    const title = (req.title ?? '').trim();
    const description = [req.requirement, req.description].map((t) => (t ?? '').trim()).filter((t) => t !== '').join('\n\n');
    const line = lineOfPath(doc, reqKey);
    const loc = doc.locations.get(reqKey);
    const endLine = loc ? doc.text.slice(0, loc.end).split('\n').length : line;
    const recent = history.entries.filter((e) => e.requirement_id === id).slice(-3);
    const elements: Record<string, string> = {};
    if (recent.length > 0) {
      elements.history = recent.map((e) => `${e.timestamp} ${e.success ? 'success' : 'failure'}: ${e.message}`).join('\n');
    }
    drafts.push({
      name: `${id}: ${(title || description).split(/\r?\n/)[0]!.trim()}`,
      line,
      end_line: endLine,
      action: [title, description].filter((s) => s !== '').join('\n\n'),
      criteria_text: out.text.join('\n'),
      checks: out.checks,
      manual: out.manual,
      unrunnable: out.unrunnable,
      human_gate: checkpointGate(req.checkpoint),
      skip_reason: skip,
      attributes: { id, status, index: String(i) },
      elements,
    });
  });

  if (problems.length > 0) throw invalidFile('requirements_invalid', path, problems);
  const tasks: PlanTask[] = drafts.map((d, i) => buildTask(i + 1, d, options));
  const root = doc.value as Record<string, unknown>;
  const objective =
    !Array.isArray(doc.value) && typeof root.project === 'string' ? root.project : !Array.isArray(doc.value) && typeof root.title === 'string' ? root.title : null;
  const warnings = [...history.warnings];
  if (tasks.length === 0) warnings.push(`${path}: no requirements`);
  return buildPlan({ kind: 'requirements', path, id: planIdForSource(path), objective, tasks, warnings, extra: { history_path: historyFile } });
}

/**
 * Sets `"status": "done"` on one requirement, found again by id in the current text (pure).
 * Only that value changes (or one member is added when the key is absent).
 */
export function markRequirementDone(text: string, path: string, requirementId: string): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const doc = readJsonDocument(text, path, 'requirements_invalid');
  const { base, list } = requirementsBase(doc, path);
  const index = list.findIndex((r) => r !== null && typeof r === 'object' && String((r as { id?: unknown }).id) === requirementId);
  if (index < 0) {
    throw new RalfError('writeback_failed', `${path}: requirement "${requirementId}" not found; cannot set "status": "done"`, {
      problems: [{ file: path, message: `requirement "${requirementId}" not found (renamed or removed)`, hint: 'Set its status by hand.' }],
    });
  }
  return bom + setJsonMember(doc.text, [...base, index], 'status', 'done');
}

/** One history.jsonl line (pure). Extra keys (`iterations`, `stop_reason`, `source`) are additive. */
export function historyLine(requirementId: string, result: TaskResult, now: Date): string {
  const plural = result.iterations === 1 ? '' : 's';
  const message =
    result.verdict === 'pass'
      ? `passed after ${result.iterations} iteration${plural}`
      : `stopped (${result.stop_reason ?? 'unknown'}) after ${result.iterations} iteration${plural}${result.detail ? `: ${result.detail.split(/\r?\n/)[0]!.slice(0, 200)}` : ''}`;
  return JSON.stringify({
    timestamp: now.toISOString(),
    requirement_id: requirementId,
    success: result.verdict === 'pass',
    message,
    iterations: result.iterations,
    stop_reason: result.stop_reason,
    source: 'ralf',
  });
}

export function historyPathFor(requirementsPath: string): string {
  return join(dirname(requirementsPath), 'history.jsonl');
}

/** Write-back when a task's loop ends: append to history.jsonl; on pass, `"status": "done"`. */
export function writeRequirementResult(plan: Plan, taskNumber: number, result: TaskResult, now: Date = new Date()): string[] {
  const task = plan.tasks.find((t) => t.number === taskNumber);
  const id = task?.attributes.id;
  if (!task || id === undefined) throw new RalfError('writeback_failed', `${plan.path}: no requirement for task ${taskNumber}`);
  if (result.verdict === 'pass') {
    const before = readUserText(plan.path, { what: 'requirements file' });
    const after = markRequirementDone(before, plan.path, id);
    if (after !== before) writeFileAtomic(plan.path, after);
  }
  const history = typeof plan.frontmatter.extra.history_path === 'string' ? plan.frontmatter.extra.history_path : historyPathFor(plan.path);
  let prefix = '';
  const current = readUserTextIfExists(history, { what: 'requirements history' });
  if (current !== null && current.length > 0 && !current.endsWith('\n')) prefix = '\n';
  mkdirSync(dirname(history), { recursive: true });
  appendFileSync(history, `${prefix}${historyLine(id, result, now)}\n`);
  return result.verdict === 'pass' ? [plan.path, history] : [history];
}
