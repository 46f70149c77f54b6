/**
 * Front-end for task files: a directory of Markdown files whose YAML frontmatter carries the
 * task's state (`status: Approved` → `Done` / `Rejected`), `verify:` commands and `checkpoint:`
 * metadata for human gates. Only Approved tasks run. Write-back rewrites only the frontmatter
 * lines it changes; the body keeps its bytes.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import matter from 'gray-matter';
import { RalfError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';
import { AcceptanceCriterion, addTypedCriterion } from './criteria-json.js';
import { findKeyLine, setFrontmatterBlock, splitFrontmatter, updateFrontmatter, type FrontmatterBlock } from './frontmatter-lines.js';
import { uniqueIds } from './item-identity.js';
import { addTextCriterion } from './criteria-text.js';
import { keyForm } from './json-items.js';
import { bodyCriteria } from './markdown-criteria.js';
import { persistenceBlock, rejectionSection } from './persistence-loop.js';
import { buildPlan, buildTask, planIdForSource, type TaskDraft } from './plan-builder.js';
import type { FormatOptions, TaskResult } from './target.js';
import { readUserText } from '../fs/read-user-text.js';

export interface TaskFile {
  /** Absolute path. */
  path: string;
  text: string;
  /** In the vault's queue folder (`Needs_Action/` of a vault without an approval stage): it runs like an approved task. */
  queue?: boolean;
  /** In another folder beside the lifecycle ones (`Blocked/`): listed, never run; the folder's name. */
  held?: string;
}

/** The Persistence Loop's lifecycle folders: a task moves from `Approved/` to `Done/` or `Rejected/`. */
export type LifecycleFolder = 'Approved' | 'Done' | 'Rejected';

/** The lifecycle folder a task file sits in (by its parent directory's name), or null. */
export function lifecycleFolderOf(path: string): LifecycleFolder | null {
  const parent = basename(dirname(path)).toLowerCase();
  return parent === 'approved' ? 'Approved' : parent === 'done' ? 'Done' : parent === 'rejected' ? 'Rejected' : null;
}

/**
 * A frontmatter key as the file spells it, looked up by meaning without case, `_` or `-`
 * (`Status:`, `acceptanceCriteria:`): hand-written files spell keys their own way, and
 * write-back must replace the line the file has, not add a second one.
 */
function spelledKey(data: Record<string, unknown>, ...names: string[]): string | null {
  const keys = Object.keys(data);
  for (const name of names) {
    const found = keys.find((k) => keyForm(k) === keyForm(name) && data[k] !== undefined && data[k] !== null);
    if (found !== undefined) return found;
  }
  return null;
}

function field(data: Record<string, unknown>, ...names: string[]): unknown {
  const key = spelledKey(data, ...names);
  return key === null ? undefined : data[key];
}

/** The key holding a task's state (`status`, the Persistence Loop's `state`, any case), as spelled. */
function stateKeyOf(data: Record<string, unknown>): string | null {
  return spelledKey(data, 'status', 'state');
}

/** A task file's identity: its `id`, else its file name without `.md` (moving between folders keeps it). */
export function taskFileId(path: string, data: Record<string, unknown>): string {
  const id = field(data, 'id');
  if ((typeof id === 'string' && id.trim() !== '') || typeof id === 'number') return String(id).trim();
  return basename(path).replace(/\.(md|markdown)$/i, '');
}

/** Gates that need a human; `none`/`auto`/`false` mean no gate. */
function checkpointGate(value: unknown): string | null {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return 'human-verify';
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase().replace(/^checkpoint:/, '');
    return v === '' || v === 'none' || v === 'auto' || v === 'false' || v === 'no' ? null : v;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const type = (value as Record<string, unknown>).type ?? (value as Record<string, unknown>).kind;
    return type === undefined ? 'human-verify' : checkpointGate(type);
  }
  return 'human-verify';
}

/** 1-based file lines of a key and of its block-list items (`- ...`) in the frontmatter. */
function keyLines(block: FrontmatterBlock | null, key: string): { line: number; items: number[] } {
  if (!block) return { line: 1, items: [] };
  const at = findKeyLine(block, key);
  if (at < 0) return { line: 1, items: [] };
  const items: number[] = [];
  let itemIndent = -1;
  for (let j = at + 1; j < block.close; j++) {
    const l = block.lines[j]!;
    if (!/^\s/.test(l) && !/^-(\s|$)/.test(l)) break;
    const m = /^(\s*)-(\s|$)/.exec(l);
    if (!m) continue;
    if (itemIndent < 0) itemIndent = m[1]!.length;
    if (m[1]!.length === itemIndent) items.push(j + 1);
  }
  return { line: at + 1, items };
}

function yamlError(file: string, err: unknown): RalfError {
  const e = err as { reason?: string; message?: string; mark?: { line?: number; column?: number } };
  const line = (e.mark?.line ?? 0) + 1;
  const message = `invalid YAML frontmatter: ${e.reason ?? e.message ?? String(err)}`;
  return new RalfError('task_file_invalid', `${file}:${line}: ${message}`, {
    problems: [{ file, line, column: (e.mark?.column ?? 0) + 1, message, hint: 'Fix the YAML between the --- lines (quote values with : or # in them).' }],
  });
}

const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).filter((x) => typeof x === 'string' || typeof x === 'number').map((x) => String(x).trim()).filter((s) => s !== '');

/** Reads one task file's frontmatter (pure). Returns null for Markdown files without a `status` key. */
export function readTaskFile(file: TaskFile, options: FormatOptions): TaskDraft | null {
  let data: Record<string, unknown>;
  let content: string;
  try {
    const parsed = matter(file.text, {});
    data = (parsed.data ?? {}) as Record<string, unknown>;
    content = parsed.content;
  } catch (err) {
    throw yamlError(file.path, err);
  }
  const folder = lifecycleFolderOf(file.path) ?? (file.queue ? 'Approved' : null);
  // In a lifecycle folder the folder is the state when the file names none (the Persistence
  // Loop moves files between folders; many of its files have no frontmatter at all).
  const spelledState = stateKeyOf(data);
  if (spelledState === null && folder === null) return null;
  const stateKey = spelledState ?? 'state';
  const block = splitFrontmatter(file.text);
  const problems: Problem[] = [];
  const checks: Check[] = [];
  const manual: string[] = [];
  const unrunnable: string[] = [];
  const sink = { checks, manual, unrunnable };
  const criteria: string[] = [];

  const verifyKey = spelledKey(data, 'verify', 'verification');
  const verify = keyLines(block, verifyKey ?? 'verify');
  strings(verifyKey === null ? undefined : data[verifyKey]).forEach((command, i) => {
    criteria.push(`verify: ${command}`);
    checks.push({ kind: 'command_succeeds', command, source: { element: 'verify', line: verify.items[i] ?? verify.line } });
  });
  const acKey = spelledKey(data, 'acceptance_criteria', 'acceptance', 'criteria');
  if (acKey !== null) {
    const ac = keyLines(block, acKey);
    const value = data[acKey];
    const list = Array.isArray(value) ? value : [value];
    list.forEach((item, i) => {
      const key = `${acKey}[${i}]`;
      const line = ac.items[i] ?? ac.line;
      // A criterion written as text is read like a PRD sub-bullet: `cmd` passes, `path` exists, else prose.
      if (typeof item === 'string') {
        criteria.push(item);
        addTextCriterion(sink, item, { element: key, line }, options.tests_command);
        return;
      }
      const parsed = AcceptanceCriterion.safeParse(item);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const options = (issue as { options?: unknown[] }).options;
          problems.push({
            file: file.path,
            key: [key, ...issue.path.map(String)].join('.'),
            line,
            message: options ? 'unknown acceptance criterion type' : issue.message,
            ...(options ? { expected: `one of ${options.map(String).join(', ')}`, hint: `valid types: ${options.map(String).join(', ')}` } : { hint: 'Write a typed criterion ({ type: command_succeeds, command: ... }) or a sentence such as "`npm test` passes".' }),
          });
        }
        return;
      }
      criteria.push(JSON.stringify(item));
      addTypedCriterion(sink, parsed.data, { element: key, line }, options.tests_command);
    });
  }
  // The body's criteria sections (`## Acceptance criteria` bullets, a `## Verification` fence): the
  // task's own words about how it is accepted, read like PRD sub-bullets.
  const body = block ? block.rest : file.text.replace(/^\uFEFF/, '');
  const fromBody = bodyCriteria(body, block ? block.close + 2 : 1, options.tests_command);
  checks.push(...fromBody.checks);
  manual.push(...fromBody.manual);
  unrunnable.push(...fromBody.unrunnable);
  criteria.push(...fromBody.text);
  if (problems.length > 0) {
    throw new RalfError('task_file_invalid', `${file.path}:${problems[0]!.line}: ${problems[0]!.key}: ${problems[0]!.message}`, { problems });
  }

  const status = spelledState !== null ? String(data[spelledState]).trim() : folder!;
  const lower = status.toLowerCase();
  const name = basename(file.path);
  const stopReason = field(data, 'stop_reason');
  // In a lifecycle folder the folder is the state (the Persistence Loop's rule: a human approves by
  // moving the file, and the state key may still say Pending_Approval or Rejected). Only a file that
  // says Done while still in Approved/ (its move failed) is not run again.
  const skip = file.held
    ? `in ${file.held}/, not Approved/ (${name}); move it to Approved/ to run it`
    : folder === 'Done'
      ? `already done (in Done/: ${name})`
      : folder === 'Rejected'
        ? `Rejected${typeof stopReason === 'string' ? ` (${stopReason})` : ''} (in Rejected/: ${name}); move it to Approved/ to retry`
        : folder === 'Approved'
          ? lower === 'done'
            ? `${stateKey} says Done but it is in Approved/ (${name}); move it to Done/, or set ${stateKey}: Approved to run it again`
            : null
        : lower === 'approved'
          ? null
          : lower === 'done'
            ? `already Done (${name})`
            : lower === 'rejected'
              ? `Rejected${typeof stopReason === 'string' ? ` (${stopReason})` : ''}; set ${stateKey}: Approved to retry`
              : `${stateKey} "${status}"; only Approved tasks run`;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(content)?.[1];
  const title = String(field(data, 'title', 'name') ?? heading ?? basename(file.path).replace(/\.md$/i, '')).trim();
  const lineCount = file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
  const attributes: Record<string, string> = { file: file.path, status, state_key: stateKey, id: taskFileId(file.path, data) };
  if (folder) attributes.folder = folder;
  const elements: Record<string, string> = {};
  const checkpoint = persistenceCheckpointText(field(data, 'persistence_loop'));
  if (checkpoint) elements.checkpoint = checkpoint;
  return {
    name: title,
    line: 1,
    end_line: Math.max(1, lineCount),
    action: content.trim() || title,
    criteria_text: criteria.join('\n'),
    checks,
    manual,
    unrunnable,
    files: strings(field(data, 'files')),
    human_gate: checkpointGate(field(data, 'checkpoint')),
    skip_reason: skip,
    attributes,
    elements,
  };
}

/** The Persistence Loop checkpoint a file carries, as text for the agent's prompt (resume context). */
function persistenceCheckpointText(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const cp = (v.checkpoint && typeof v.checkpoint === 'object' ? v.checkpoint : {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (v.iteration !== undefined) parts.push(`iteration ${String(v.iteration)}${v.max_iterations !== undefined ? ` of ${String(v.max_iterations)}` : ''}`);
  if (Array.isArray(cp.completed_steps) && cp.completed_steps.length > 0) parts.push(`completed steps: ${cp.completed_steps.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join('; ')}`);
  if (cp.current_step !== undefined) parts.push(`current step: ${String(cp.current_step)}`);
  if (cp.state_data && typeof cp.state_data === 'object') parts.push(`state: ${JSON.stringify(cp.state_data)}`);
  return parts.length > 0 ? `Persistence Loop checkpoint: ${parts.join('; ')}` : null;
}

const byName = (a: TaskFile, b: TaskFile) => a.path.localeCompare(b.path, 'en', { numeric: true });

/**
 * Parses task files into one plan (pure). `source` is the directory (or the single file) the
 * user named; Markdown files without a `status` key (a README, notes) are ignored with a warning.
 */
export function parseTaskFiles(files: TaskFile[], source: string, options: FormatOptions = {}): Plan {
  const warnings: string[] = [];
  const tasks: PlanTask[] = [];
  for (const file of [...files].sort(byName)) {
    const draft = readTaskFile(file, options);
    if (!draft) {
      warnings.push(`${basename(file.path)}: no \`status:\` or \`state:\` in the frontmatter; not a task file (ignored)`);
      continue;
    }
    tasks.push(buildTask(tasks.length + 1, draft, options));
  }
  const ids = uniqueIds(tasks.map((t) => t.attributes.id!));
  tasks.forEach((t, i) => (t.attributes.id = ids[i]!));
  const single = files.length === 1 && files[0]!.path === source;
  return buildPlan({
    kind: 'task-files',
    path: source,
    id: planIdForSource(source),
    objective: null,
    tasks,
    warnings,
    frontmatter_source: 'yaml',
  });
}

/** The frontmatter changes for a finished task (pure): Approved → Done / Rejected. */
export function taskFileUpdates(result: TaskResult, now: Date, stateKey = 'status'): Array<readonly [string, string | number | null]> {
  const at = now.toISOString();
  if (result.verdict === 'pass') {
    return [[stateKey, 'Done'], ['completed_at', at], ['iterations', result.iterations], ['stop_reason', null], ['rejected_at', null], ['failure_reason', null]];
  }
  const reason = result.stop_reason ?? 'unknown';
  return [
    [stateKey, 'Rejected'],
    ['rejected_at', at],
    ['stop_reason', reason],
    ['failure_reason', (result.detail ?? reason).split(/\r?\n/)[0]!.slice(0, 300)],
    ['iterations', result.iterations],
    ['completed_at', null],
  ];
}

/**
 * Write-back when a task's loop ends: rewrite only the changed frontmatter lines (and the
 * Persistence Loop's `persistence_loop:` checkpoint when the file has one or lives in a
 * lifecycle folder), append the failure context to a rejected task, and move a task in
 * `Approved/` to `Done/` or `Rejected/`. Atomic per file. Returns the paths it changed.
 */
export function writeTaskFileResult(plan: Plan, taskNumber: number, result: TaskResult, now: Date = new Date()): string[] {
  const task = plan.tasks.find((t) => t.number === taskNumber);
  const file = task?.attributes.file;
  if (!task || !file) throw new RalfError('writeback_failed', `${plan.path}: no task file for task ${taskNumber}`);
  if (!existsSync(file)) {
    throw new RalfError('writeback_failed', `${file}: the task file is gone; cannot record ${result.verdict === 'pass' ? 'Done' : 'Rejected'}`, {
      problems: [{ file, message: 'the task file was moved or deleted during the run', hint: `Set its state to ${result.verdict === 'pass' ? 'Done' : 'Rejected'} by hand.` }],
    });
  }
  const stateKey = task.attributes.state_key ?? 'status';
  // A queue folder's task (read as Approved) moves to Done/ or Rejected/ like one in Approved/.
  const folder = lifecycleFolderOf(file) ?? (task.attributes.folder === 'Approved' ? 'Approved' : null);
  const before = readUserText(file, { what: 'task file' });
  let after: string;
  try {
    after = updateFrontmatter(withFrontmatter(before), taskFileUpdates(result, now, stateKey), stateKey);
    const existing = (matter(before, {}).data as Record<string, unknown>).persistence_loop;
    if (existing !== undefined || folder !== null) {
      const block = persistenceBlock({
        existing: existing && typeof existing === 'object' ? (existing as Record<string, unknown>) : null,
        loop: result.loop ?? null,
        iterations: result.iterations,
        max_iterations: result.loop?.max_iterations ?? result.iterations,
        outcome: result.verdict === 'pass' ? 'done' : 'rejected',
        stop_reason: result.verdict === 'pass' ? null : (result.stop_reason ?? 'unknown'),
        now,
      });
      after = setFrontmatterBlock(after, 'persistence_loop', block);
    }
  } catch (err) {
    throw new RalfError('writeback_failed', `${file}: cannot update the frontmatter: ${(err as Error).message}`, {
      problems: [{ file, message: (err as Error).message, hint: `Set ${stateKey}: ${result.verdict === 'pass' ? 'Done' : 'Rejected'} by hand.` }],
    });
  }
  if (result.verdict === 'stop') {
    const eol = before.includes('\r\n') ? '\r\n' : '\n';
    after = (after.endsWith('\n') ? after : after + eol) + rejectionSection(result.loop ?? null, result.iterations, result.stop_reason ?? 'unknown', result.detail ?? null, now, eol);
  }
  if (after !== before) writeFileAtomic(file, after);
  if (folder !== 'Approved') return [file];
  // The Persistence Loop's lifecycle: Approved/x.md → Done/x.md or Rejected/x.md beside it.
  const targetDir = join(dirname(dirname(file)), result.verdict === 'pass' ? siblingName(file, 'Done') : siblingName(file, 'Rejected'));
  const target = join(targetDir, basename(file));
  if (existsSync(target)) {
    throw new RalfError('writeback_failed', `${file}: cannot move it to ${target}: a file of that name is already there`, {
      problems: [{ file, message: `${target} exists`, hint: 'Rename one of them, then move the task file by hand.' }],
    });
  }
  mkdirSync(targetDir, { recursive: true });
  renameSync(file, target);
  task.attributes.file = target;
  return [file, target];
}

/** The text with an empty frontmatter block first when it has none (a lifecycle-folder task file), so its state can be written. */
function withFrontmatter(text: string): string {
  if (splitFrontmatter(text)) return text;
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return `${bom}---${eol}---${eol}${bom ? text.slice(1) : text}`;
}

/** `Done`/`Rejected` as the sibling folder is spelled on disk (`done/` stays lower case). */
function siblingName(file: string, wanted: 'Done' | 'Rejected'): string {
  const approved = basename(dirname(file));
  return approved === approved.toLowerCase() ? wanted.toLowerCase() : approved === approved.toUpperCase() ? wanted.toUpperCase() : wanted;
}
