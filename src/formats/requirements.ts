/**
 * Front-end for the `requirements.json` + `history.jsonl` pair (the requirement-harness Ralph
 * loop), and for every JSON list of work items (prd.json's stories, feature lists, ralph-town's
 * criteria: json-items.ts finds them by shape). Each pending item is a task. When its loop ends a
 * line is appended to history.jsonl; an item that passes gets its own state key set (`"passes":
 * true`, `"status": "done"`; only that value is spliced into the file, formatting and unknown
 * keys are kept).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { int, looseObject, minLength, optional, refine, string, trim, union, unknown } from 'zod/mini';
import { RalfError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';
import { AcceptanceCriterion, addTypedCriterion } from './criteria-json.js';
import { addTextCriterion, resolves } from './criteria-text.js';
import { looksLikeBareCommand } from '../plan/command-like.js';
import { setJsonMember } from './json-edit.js';
import { jsonPathKey } from './json-scan.js';
import { slugOf } from './item-identity.js';
import { canonicalItem, itemListKey, keyForm, type ItemKey } from './json-items.js';
import { invalidFile, lineOfPath, readJsonDocument, type JsonDocument } from './json-text.js';
import { buildPlan, buildTask, planIdForSource, type TaskDraft } from './plan-builder.js';
import type { FormatOptions, TargetLimits, TaskResult } from './target.js';
import { zodProblems } from './zod-problems.js';
import { readUserText, readUserTextIfExists } from '../fs/read-user-text.js';

const Requirement = looseObject({
  /** Optional: an item without one is known by its text (its slug), like a PRD checklist item. */
  id: optional(union([string().check(trim(), minLength(1)), int()])),
  description: optional(string()),
  title: optional(string()),
  /** ralph1's key: one declarative outcome statement. */
  requirement: optional(string()),
  status: optional(string()),
  checkpoint: optional(unknown()),
  passes: optional(unknown()),
}).check(refine((r) => (r.requirement ?? r.description ?? r.title ?? '').trim() !== '', { message: 'an item needs a "title", "description" or "requirement" (the agent\'s task)', path: ['title'] }));

/** In a list whose items have ids, every item needs one. */
const RequirementWithId = looseObject({ ...Requirement.def.shape, id: union([string().check(trim(), minLength(1)), int()]) }).check(
  refine((r) => (r.requirement ?? r.description ?? r.title ?? '').trim() !== '', { message: 'an item needs a "title", "description" or "requirement" (the agent\'s task)', path: ['title'] }),
);

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

/** Status values compared without case, spaces, `_` or `-` (`In Progress` = `in_progress`). */
const PENDING = new Set(['pending', 'todo', 'open', 'inprogress', 'failed', 'doing', 'wip', 'started', 'notstarted', 'ready', 'new', '']);
const DONE = new Set(['done', 'complete', 'completed', 'passed', 'passing', 'finished']);

/**
 * Where the requirements are: the root array, `requirements` in a root object, or the root
 * object's one list of items (`userStories`, `stories`, `tasks`, ...: json-items.ts decides by
 * shape, not by name).
 */
function requirementsBase(doc: JsonDocument, path: string): { base: Array<string | number>; list: unknown[] } {
  const found = itemListKey(doc.value);
  const obj = doc.value as Record<string, unknown> | null;
  if (found && 'key' in found) return found.key === null ? { base: [], list: doc.value as unknown[] } : { base: [found.key], list: obj![found.key] as unknown[] };
  const isObject = obj !== null && typeof obj === 'object' && !Array.isArray(obj);
  throw invalidFile('requirements_invalid', path, [
    {
      file: path,
      key: isObject ? (found ? found.ambiguous.join(', ') : 'requirements') : undefined,
      line: isObject && found ? lineOfPath(doc, found.ambiguous[0]!) : 1,
      message: found
        ? `more than one list of items (${found.ambiguous.map((k) => `"${k}"`).join(', ')}); ralf cannot tell which to run`
        : 'expected an array of requirements, or an object with a "requirements" array',
      received: obj === null ? 'null' : isObject ? (found ? 'several lists' : 'an object without a list of items') : typeof obj,
      hint: found ? `Keep the items in one of them, or rename the list to run to "requirements".` : 'Put the items in a "requirements" array (or one array of objects with an "id" and a "title" or "description"): [{ "id": "REQ-1", "title": "...", "verify": ["npm test"] }].',
    },
  ]);
}

/** Keys of a list file's own quality gate beside its items (compared by keyForm). */
const FILE_GATE_KEYS = new Set(['checks', 'qualitychecks', 'qualitygates']);

/**
 * The file's own quality gate beside its list of items (`"checks": ["npm run lint", "npm run
 * typecheck"]`): commands the author wrote for every item, run after an item's own checks, like
 * the project's test command. Only a string or an array of strings counts. Pure.
 */
function fileGate(doc: JsonDocument, base: Array<string | number>): Array<Extract<Check, { kind: 'command_succeeds' }>> {
  const obj = doc.value;
  if (base.length === 0 || obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [];
  const key = Object.keys(obj).find((k) => FILE_GATE_KEYS.has(keyForm(k)));
  if (key === undefined) return [];
  const value = (obj as Record<string, unknown>)[key];
  const commands = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((c) => typeof c === 'string') ? (value as string[]) : [];
  return commands.flatMap((command, i) =>
    command.trim() === '' ? [] : [{ kind: 'command_succeeds' as const, command: command.trim(), source: { element: key, line: lineOfPath(doc, jsonPathKey(typeof value === 'string' ? [key] : [key, i])) } }],
  );
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

/**
 * Test commands under their own key (`testSteps`): each string written as a command (its first
 * word resolves: `grep -q X f`, `source x; [[ ... ]]`) is a check; anything else is read like an
 * acceptance sentence (`\`npm test\` passes`, prose → a criterion to confirm).
 */
function readTestCommands(
  value: unknown,
  keyPath: Array<string | number>,
  doc: JsonDocument,
  options: FormatOptions,
  out: { checks: Check[]; manual: string[]; unrunnable: string[]; text: string[] },
): void {
  stringsOf(value).forEach((item, i) => {
    const key = jsonPathKey(Array.isArray(value) ? [...keyPath, i] : keyPath);
    const source = { element: key, line: lineOfPath(doc, key) };
    out.text.push(item);
    if (looksLikeBareCommand(item, resolves)) out.checks.push({ kind: 'command_succeeds', command: item.trim(), source });
    else addTextCriterion(out, item, source, options.tests_command);
  });
}

/** The texts of a value that is a list of strings or one string (`steps`, `testSteps`); other entries are left out. */
function stringsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
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
      addTextCriterion(out, item, source, options.tests_command);
      continue;
    }
    const parsed = AcceptanceCriterion.safeParse(item);
    if (!parsed.success) {
      out.problems.push(...zodProblems(parsed.error.issues, path, doc, itemPath, item));
      continue;
    }
    out.text.push(JSON.stringify(item));
    addTypedCriterion(out, parsed.data, source, options.tests_command);
  }
}

/** The text an item is about: its requirement, description or title (the first that says something). */
function itemText(v: { requirement?: string | undefined; description?: string | undefined; title?: string | undefined }): string {
  return [v.title, v.requirement, v.description].map((t) => (t ?? '').trim()).find((t) => t !== '') ?? '';
}

/** An item's identity: its id as written, else the slug of its text (an item without an id is its text). */
function identityOf(item: Map<ItemKey, { key: string; value: unknown }>): string | null {
  const id = item.get('id')?.value;
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  const text = (['title', 'requirement', 'description'] as const).map((k) => item.get(k)?.value).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return text ? slugOf(text.trim()) : null;
}

/**
 * What a person is asked, when an item needs one (`"human_blocker": {why, question, options,
 * unblock_steps}` beside `"needs_human_decision": true`: any object member whose name starts with
 * "human"): the checkpoint's decision (with the steps that unblock it) and options, so the refused
 * item says what to do.
 */
function humanBlockerElements(raw: Record<string, unknown>): Record<string, string> {
  const entry = Object.entries(raw).find(([k, v]) => keyForm(k).startsWith('human') && v !== null && typeof v === 'object' && !Array.isArray(v));
  if (!entry) return {};
  const b = Object.fromEntries(Object.entries(entry[1] as Record<string, unknown>).map(([k, v]) => [keyForm(k), v]));
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const list = (v: unknown) => (Array.isArray(v) ? v.map(text).filter((t) => t !== '').map((t) => `- ${t}`).join('\n') : text(v));
  const out: Record<string, string> = {};
  const unblock = list(b.unblocksteps ?? b.steps);
  const decision = [text(b.why ?? b.reason), text(b.question ?? b.decision), unblock ? `To unblock:\n${unblock}` : ''].filter((t) => t !== '').join('\n');
  if (decision) out.decision = decision;
  const options = [list(b.options), text(b.recommended) ? `Recommended: ${text(b.recommended)}` : ''].filter((t) => t !== '').join('\n');
  if (options) out.options = options;
  return out;
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
  const gate = fileGate(doc, base);
  const listHasIds = list.some((raw) => raw !== null && typeof raw === 'object' && !Array.isArray(raw) && canonicalItem(raw as Record<string, unknown>).has('id'));

  list.forEach((raw, i) => {
    const reqPath = [...base, i];
    const reqKey = jsonPathKey(reqPath);
    // Keys by meaning, however the file spells them (`acceptanceCriteria`, `Status`, `passes`).
    const item = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? canonicalItem(raw as Record<string, unknown>) : null;
    const canon: Record<string, unknown> | unknown = item ? Object.fromEntries([...item].map(([k, v]) => [k, v.value])) : raw;
    const spelled = (k: ItemKey) => item?.get(k)?.key ?? k;
    // Ids are the list's convention or not at all: where other items have one, a missing id is a slip.
    const parsed = (listHasIds ? RequirementWithId : Requirement).safeParse(canon);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => (issue.path.length > 0 && typeof issue.path[0] === 'string' ? { ...issue, path: [spelled(issue.path[0] as ItemKey), ...issue.path.slice(1)] } : issue));
      problems.push(...zodProblems(issues, path, doc, reqPath, raw));
      return;
    }
    const req = parsed.data;
    const id = req.id !== undefined ? String(req.id) : slugOf(itemText(req));
    const idKey = req.id !== undefined ? `${reqKey}.${spelled('id')}` : reqKey;
    if (seen.has(id)) {
      const what = req.id !== undefined ? `duplicate requirement id "${id}"` : `duplicate item "${itemText(req).slice(0, 60)}" (items without an id are known by their text)`;
      problems.push({ file: path, key: idKey, line: lineOfPath(doc, idKey), message: `${what} (first at ${seen.get(id)})`, hint: 'Give every item its own id: results are filed by id.' });
    } else seen.set(id, reqKey);
    const out = { checks: [] as Check[], manual: [] as string[], unrunnable: [] as string[], text: [] as string[], problems };
    readAcceptance(item?.get('verify')?.value, [...reqPath, spelled('verify')], doc, path, options, out, true);
    readAcceptance(item?.get('acceptance')?.value, [...reqPath, spelled('acceptance')], doc, path, options, out, false);
    readTestCommands(item?.get('tests')?.value, [...reqPath, spelled('tests')], doc, options, out);
    // Steps say how to do the item, or how to check it: with no criteria of its own (a feature
    // list's "verification steps"), they are its criteria; beside criteria, the agent's instructions.
    const steps = item?.get('steps');
    const stepsAreCriteria = steps !== undefined && out.checks.length === 0 && out.manual.length === 0 && out.unrunnable.length === 0;
    if (stepsAreCriteria) readAcceptance(stringsOf(steps.value), [...reqPath, steps.key], doc, path, options, out, false);
    // The file's own gate holds for every item with checks of its own (it never makes an item
    // that has none verifiable: lint passing says nothing about a prose criterion).
    if (out.checks.length > 0) for (const c of gate) if (!out.checks.some((x) => x.kind === 'command_succeeds' && x.command === c.command)) out.checks.push(c);
    // ralph1's quality gate: after every success the project's checks run, also for a
    // requirement with checks of its own (without any, decideTask makes it the only check).
    if (options.tests_command && out.checks.length > 0 && !out.checks.some((c) => c.kind === 'tests_pass' && c.command === options.tests_command)) {
      out.checks.push({ kind: 'tests_pass', command: options.tests_command, source: { element: 'checks.tests', line: lineOfPath(doc, reqKey) } });
    }

    // A boolean `passes` (snarktank-style prd.json) is the state when it says true, or when there is no status.
    const passes = item?.get('passes');
    const status = passes?.value === true ? 'done' : (req.status ?? 'pending').trim();
    const stateWord = passes?.value === true ? `"${passes.key}": true` : `status "${status}"`;
    const form = keyForm(status);
    const skip = DONE.has(form)
      ? `already done (${stateWord} in ${basename(path)})`
      : PENDING.has(form)
        ? null
        : `status "${status}"; only pending requirements run (set "${spelled('status')}": "pending" to retry)`;
    const title = (req.title ?? '').trim();
    const description = [req.requirement, req.description].map((t) => (t ?? '').trim()).filter((t) => t !== '').join('\n\n');
    const stepsText = !stepsAreCriteria && steps !== undefined ? stringsOf(steps.value).map((s, n) => `${n + 1}. ${s.trim()}`).join('\n') : '';
    const line = lineOfPath(doc, reqKey);
    const loc = doc.locations.get(reqKey);
    const endLine = loc ? doc.text.slice(0, loc.end).split('\n').length : line;
    const recent = history.entries.filter((e) => e.requirement_id === id).slice(-3);
    const elements: Record<string, string> = {};
    if (item?.get('human')?.value === true) Object.assign(elements, humanBlockerElements(raw as Record<string, unknown>));
    if (recent.length > 0) {
      elements.history = recent.map((e) => `${e.timestamp} ${e.success ? 'success' : 'failure'}: ${e.message}`).join('\n');
    }
    const firstLine = (title || description).split(/\r?\n/)[0]!.trim();
    const human = item?.get('human');
    drafts.push({
      name: req.id !== undefined ? `${id}: ${firstLine}` : firstLine,
      line,
      end_line: endLine,
      action: [title, description, stepsText ? `Steps:\n${stepsText}` : ''].filter((s) => s !== '').join('\n\n'),
      criteria_text: out.text.join('\n'),
      checks: out.checks,
      manual: out.manual,
      unrunnable: out.unrunnable,
      // `"needs_human_decision": true`: a person decides; the loop never stands in for them.
      human_gate: checkpointGate(req.checkpoint) ?? (human?.value === true ? 'decision' : null),
      skip_reason: skip,
      attributes: { id, status, index: String(i) },
      elements,
    });
  });

  if (problems.length > 0) throw invalidFile('requirements_invalid', path, problems);
  const tasks: PlanTask[] = drafts.map((d, i) => buildTask(i + 1, d, options));
  const root = doc.value as Record<string, unknown>;
  const objective = Array.isArray(doc.value) ? null : (['project', 'title', 'feature', 'description'].map((k) => root[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? null);
  const warnings = [...history.warnings];
  if (tasks.length === 0) warnings.push(`${path}: no requirements`);
  const limits = Array.isArray(doc.value) ? null : listLimits(root, path);
  return buildPlan({ kind: 'requirements', path, id: planIdForSource(path), objective, tasks, warnings, extra: { history_path: historyFile, ...(limits ? { limits } : {}) } });
}

/**
 * The list's own limits, where its tool keeps them beside the items: iterations per item
 * (ralph-town's `max_iterations_per_criterion`, `_per_feature`, `_per_story`, `_per_item`) and
 * `budget.max_tokens`. A bare `max_iterations` beside a list is left alone: tools mean the whole
 * run by it, not one item.
 */
function listLimits(root: Record<string, unknown>, path: string): TargetLimits | null {
  const limits: TargetLimits = {};
  for (const [key, value] of Object.entries(root)) {
    if (/^maxiterationsper(?:criterion|feature|story|item|task|requirement)$/.test(keyForm(key)) && Number.isInteger(value) && (value as number) >= 1) limits.max_iterations = Math.min(value as number, 100);
  }
  const budget = root.budget as { max_tokens?: unknown } | undefined;
  if (budget && typeof budget === 'object' && Number.isInteger(budget.max_tokens) && (budget.max_tokens as number) >= 1) limits.max_tokens = budget.max_tokens as number;
  return Object.keys(limits).length > 0 ? { ...limits, source: path } : null;
}

/**
 * Sets `"status": "done"` on one requirement, found again by id in the current text (pure).
 * Only that value changes (or one member is added when the key is absent).
 */
export function markRequirementDone(text: string, path: string, requirementId: string): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const doc = readJsonDocument(text, path, 'requirements_invalid');
  const { base, list } = requirementsBase(doc, path);
  const items = list.map((r) => (r !== null && typeof r === 'object' && !Array.isArray(r) ? canonicalItem(r as Record<string, unknown>) : null));
  const index = items.findIndex((item) => item !== null && identityOf(item) === requirementId);
  if (index < 0) {
    throw new RalfError('writeback_failed', `${path}: requirement "${requirementId}" not found; cannot mark it done`, {
      problems: [{ file: path, message: `requirement "${requirementId}" not found (renamed or removed)`, hint: 'Mark it done by hand.' }],
    });
  }
  // The file's own state key: a boolean `passes` becomes true, a status "done"; with neither, "status" is added.
  const item = items[index]!;
  const passes = item.get('passes');
  const status = item.get('status');
  let out = doc.text;
  if (passes) out = setJsonMember(out, [...base, index], passes.key, true);
  if (status || !passes) out = setJsonMember(out, [...base, index], status?.key ?? 'status', 'done');
  return bom + out;
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
