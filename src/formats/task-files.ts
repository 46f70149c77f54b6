/**
 * Front-end for task files: a directory of Markdown files whose YAML frontmatter carries the
 * task's state (`status: Approved` → `Done` / `Rejected`), `verify:` commands and `checkpoint:`
 * metadata for human gates. Only Approved tasks run. Write-back rewrites only the frontmatter
 * lines it changes; the body keeps its bytes.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import matter from 'gray-matter';
import { RalfError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';
import { AcceptanceCriterion, criterionToCheck } from './criteria-json.js';
import { findKeyLine, splitFrontmatter, updateFrontmatter, type FrontmatterBlock } from './frontmatter-lines.js';
import { buildPlan, buildTask, planIdForSource, type TaskDraft } from './plan-builder.js';
import type { FormatOptions, TaskResult } from './target.js';

export interface TaskFile {
  /** Absolute path. */
  path: string;
  text: string;
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
  if (data.status === undefined) return null;
  const block = splitFrontmatter(file.text);
  const problems: Problem[] = [];
  const checks: Check[] = [];
  const unrunnable: string[] = [];
  const criteria: string[] = [];

  const verify = keyLines(block, 'verify');
  strings(data.verify).forEach((command, i) => {
    criteria.push(`verify: ${command}`);
    checks.push({ kind: 'command_succeeds', command, source: { element: 'verify', line: verify.items[i] ?? verify.line } });
  });
  if (data.acceptance_criteria !== undefined) {
    const ac = keyLines(block, 'acceptance_criteria');
    const list = Array.isArray(data.acceptance_criteria) ? data.acceptance_criteria : [data.acceptance_criteria];
    list.forEach((item, i) => {
      const key = `acceptance_criteria[${i}]`;
      const line = ac.items[i] ?? ac.line;
      const parsed = AcceptanceCriterion.safeParse(item);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const options = (issue as { options?: unknown[] }).options;
          problems.push({
            file: file.path,
            key: [key, ...issue.path.map(String)].join('.'),
            line,
            message: options ? 'unknown acceptance criterion type' : issue.message,
            ...(options ? { expected: `one of ${options.map(String).join(', ')}`, hint: `valid types: ${options.map(String).join(', ')}` } : {}),
          });
        }
        return;
      }
      criteria.push(JSON.stringify(item));
      const check = criterionToCheck(parsed.data, { element: key, line }, options.tests_command);
      if ('unrunnable' in check) unrunnable.push(check.unrunnable);
      else checks.push(check);
    });
  }
  if (problems.length > 0) {
    throw new RalfError('task_file_invalid', `${file.path}:${problems[0]!.line}: ${problems[0]!.key}: ${problems[0]!.message}`, { problems });
  }

  const status = String(data.status).trim();
  const lower = status.toLowerCase();
  const name = basename(file.path);
  const skip =
    lower === 'approved'
      ? null
      : lower === 'done'
        ? `already Done (${name})`
        : lower === 'rejected'
          ? `Rejected${typeof data.stop_reason === 'string' ? ` (${data.stop_reason})` : ''}; set status: Approved to retry`
          : `status "${status}"; only Approved tasks run`;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(content)?.[1];
  const title = String(data.title ?? data.name ?? heading ?? basename(file.path).replace(/\.md$/i, '')).trim();
  const lineCount = file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
  const attributes: Record<string, string> = { file: file.path, status };
  if (data.id !== undefined) attributes.id = String(data.id);
  return {
    name: title,
    line: 1,
    end_line: Math.max(1, lineCount),
    action: content.trim() || title,
    criteria_text: criteria.join('\n'),
    checks,
    manual: unrunnable,
    unrunnable,
    files: strings(data.files),
    human_gate: checkpointGate(data.checkpoint),
    skip_reason: skip,
    attributes,
  };
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
      warnings.push(`${basename(file.path)}: no \`status:\` in the frontmatter; not a task file (ignored)`);
      continue;
    }
    tasks.push(buildTask(tasks.length + 1, draft, options));
  }
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
export function taskFileUpdates(result: TaskResult, now: Date): Array<readonly [string, string | number | null]> {
  const at = now.toISOString();
  if (result.verdict === 'pass') {
    return [['status', 'Done'], ['completed_at', at], ['iterations', result.iterations], ['stop_reason', null], ['rejected_at', null]];
  }
  return [['status', 'Rejected'], ['rejected_at', at], ['stop_reason', result.stop_reason ?? 'unknown'], ['iterations', result.iterations], ['completed_at', null]];
}

/** Write-back when a task's loop ends: rewrite only the changed frontmatter lines, atomically. */
export function writeTaskFileResult(plan: Plan, taskNumber: number, result: TaskResult, now: Date = new Date()): void {
  const task = plan.tasks.find((t) => t.number === taskNumber);
  const file = task?.attributes.file;
  if (!task || !file) throw new RalfError('writeback_failed', `${plan.path}: no task file for task ${taskNumber}`);
  const before = readFileSync(file, 'utf8');
  let after: string;
  try {
    after = updateFrontmatter(before, taskFileUpdates(result, now));
  } catch (err) {
    throw new RalfError('writeback_failed', `${file}: cannot update the frontmatter: ${(err as Error).message}`, {
      problems: [{ file, message: (err as Error).message, hint: `Set status: ${result.verdict === 'pass' ? 'Done' : 'Rejected'} by hand.` }],
    });
  }
  if (after !== before) writeFileAtomic(file, after);
}
