/**
 * `ralf run <target>`: decides which front-end a path is and loads it into Plans for the one
 * loop engine. Each format module is imported only when its kind is detected, so a GSD run
 * never loads remark/zod for formats it does not use.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { RalfError } from '../errors.js';
import type { RalfLiteConfig } from '../config/schema.js';
import type { Plan } from '../plan/model.js';
import { itemListKey } from './json-items.js';
import { projectRootFor } from './project-root.js';
import { isVaultNoteFolder, queueFolderIn, waitingFoldersIn } from './vault-folders.js';
import type { FormatOptions, RunTarget, RunTargetKind, TargetLimits } from './target.js';
import { readUserText, readUserTextIfExists } from '../fs/read-user-text.js';

/** Reads one GSD PLAN.md into the model (`readPlan` in src/plan/read.ts; sync or async). */
export type ReadPlan = (path: string, options: { config?: RalfLiteConfig }) => Plan | { plan: Plan } | Promise<Plan | { plan: Plan }>;

export interface LoadRunTargetOptions extends FormatOptions {
  /** The GSD plan reader; defaults to `readPlan` from src/plan/read.ts, imported on first use. */
  readPlan?: ReadPlan;
  /** The effective config: passed to the GSD reader; `checks.tests` is the default `tests_command`. */
  config?: RalfLiteConfig;
  /** Clock for write-back timestamps (tests pass a fixed one). */
  now?: () => Date;
  /** requirements.json: the history file (ralph1's `--history=FILE`); default history.jsonl beside it. */
  historyPath?: string;
}

export interface DetectedTarget {
  kind: RunTargetKind;
  /** Absolute path of the file or directory to load (for `dir/` holding `tasks/`, the tasks dir). */
  path: string;
  /** For gsd-phase: the PLAN.md files in order; for task-files: the task files. */
  files?: string[];
  /** task-files: files of the vault's waiting folders (not run; listed with why). */
  waiting?: Array<{ file: string; why: string }>;
  /** task-files: the vault's queue folder when it takes Approved/'s place (no approval stage). */
  queue?: string;
}

const ACCEPTED =
  'a GSD PLAN.md, a phase directory with *-PLAN.md files, a PRD.md checklist (- [ ] items), ralph.json, requirements.json, or a directory of task files (Markdown with `status:`/`state:` frontmatter, or Approved/ Done/ Rejected/ folders of them)';

const CHECKLIST_ITEM = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX~]\](?:[ \t]|$)/m;
/** A numbered item whose sub-bullets say how it is verified (fix_plan.md's queue without checkboxes). */
const QUEUE_ITEM = /^\d{1,9}[.)][ \t]+\S[^\n]*\n(?:[ \t]*(?:\S[^\n]*)?\n){0,30}?[ \t]+[-*+][ \t]+(?:\*\*|__)?(?:verify|verified by|done when)\b/im;
const hasTasks = (text: string) => CHECKLIST_ITEM.test(text) || QUEUE_ITEM.test(text);
const PLAN_FILE = /PLAN\.md$/i;
/** The PRD checklist's own file name (ralph's PRD.md, copilot_ralf's prd.md). */
const PRD_FILE = /^prd\.(?:md|markdown)$/i;
const PHASE_PLAN_FILE = /(^|-)PLAN\.md$/i;

function unsupported(path: string, message: string): RalfError {
  return new RalfError('target_unsupported', `${path}: ${message}`, { problems: [{ file: path, message, hint: `ralf run takes ${ACCEPTED}.` }] });
}

function isTaskFileText(text: string): boolean {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(t);
  return m !== null && /^(?:status|state)[ \t]*:/im.test(m[1]!);
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.(md|markdown)$/i.test(e.name))
    .map((e) => join(dir, e.name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * Task files of one directory. In a lifecycle folder (Approved/, Done/, Rejected/) every Markdown
 * file but a README is a task: the folder is its state when its frontmatter names none.
 */
function taskFilesIn(dir: string): string[] {
  if (LIFECYCLE.includes(basename(dir).toLowerCase()) || queueFolderIn(dirname(dir)) === dir) return markdownFiles(dir).filter(isNotReadme);
  return markdownFiles(dir).filter((f) => isTaskFileText(readUserText(f, { what: 'task file' })));
}

const LIFECYCLE = ['approved', 'done', 'rejected'];
/** A folder's README describes the folder; it is no task. */
const isNotReadme = (file: string) => !/^readme\b/i.test(basename(file));

/**
 * The Persistence Loop's lifecycle folders under `dir` (`Approved/`, `Done/`, `Rejected/`, any
 * case), Approved first; in a vault without an approval stage, its action folder takes
 * Approved's place (vault-folders.ts).
 */
function lifecycleDirs(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
  const queue = queueFolderIn(dir);
  if (!entries.some((n) => n.toLowerCase() === 'approved') && queue === null) return [];
  const lifecycle = entries.filter((n) => LIFECYCLE.includes(n.toLowerCase())).sort((a, b) => LIFECYCLE.indexOf(a.toLowerCase()) - LIFECYCLE.indexOf(b.toLowerCase())).map((n) => join(dir, n));
  return queue === null ? lifecycle : [queue, ...lifecycle];
}

/**
 * Task files of a directory: its own, plus those in its lifecycle folders (Approved/ first), and
 * after the approved ones those held in another folder beside them (`Blocked/`, `On_Hold/`):
 * listed, never run (readTaskFile), so the person sees them.
 */
function taskFilesWithLifecycle(dir: string): string[] {
  const dirs = lifecycleDirs(dir);
  const approved = dirs.filter((d) => !['done', 'rejected'].includes(basename(d).toLowerCase()));
  const finished = dirs.filter((d) => !approved.includes(d));
  return [...taskFilesIn(dir), ...approved.flatMap(taskFilesIn), ...heldFolders(dir, dirs).flatMap(heldTaskFiles), ...finished.flatMap(taskFilesIn)];
}

/** Folders beside the lifecycle ones that hold task files (not the vault's waiting folders, listed apart, nor its notes). */
function heldFolders(dir: string, lifecycle: string[]): string[] {
  if (lifecycle.length === 0) return [];
  const waiting = new Set(waitingFoldersIn(dir).map((w) => w.dir));
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !isVaultNoteFolder(e.name))
    .map((e) => join(dir, e.name))
    .filter((d) => !lifecycle.includes(d) && !waiting.has(d) && heldTaskFiles(d).length > 0)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** A held folder's task files: Markdown with a `status:`/`state:` key (the folder says nothing by itself). */
function heldTaskFiles(dir: string): string[] {
  return markdownFiles(dir).filter((f) => isNotReadme(f) && isTaskFileText(readUserText(f, { what: 'task file' })));
}

/** Files of the vault's waiting folders (`Needs_Action/`, `Pending_Approval/`), each with why it does not run. */
function waitingFiles(dir: string): Array<{ file: string; why: string }> {
  return waitingFoldersIn(dir).flatMap(({ dir: folder, why }) =>
    markdownFiles(folder)
      .filter(isNotReadme)
      .map((file) => ({ file, why })),
  );
}

/** Which front-end a path is (reads only what it must to decide). Throws RalfError (exit 2). */
export function detectRunTarget(path: string): DetectedTarget {
  const abs = resolve(path);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new RalfError('target_not_found', `${path}: no such file or directory`, { problems: [{ file: path, message: 'not found', hint: `ralf run takes ${ACCEPTED}.` }] });
  }
  if (isDir) {
    const plans = markdownFiles(abs).filter((f) => PHASE_PLAN_FILE.test(basename(f)));
    if (plans.length > 0) return { kind: 'gsd-phase', path: abs, files: plans };
    // `ralf run Approved/` runs that folder; its Done/ and Rejected/ siblings take the finished tasks.
    const tasks = LIFECYCLE.includes(basename(abs).toLowerCase()) ? taskFilesIn(abs) : taskFilesWithLifecycle(abs);
    // The vault's queue folder: named as the target (`ralf run Need_Action/`), or inside the vault.
    const queue = queueFolderIn(dirname(abs)) === abs ? abs : queueFolderIn(abs);
    const waiting = waitingFiles(abs);
    if (tasks.length > 0) return { kind: 'task-files', path: abs, files: tasks, ...(waiting.length > 0 ? { waiting } : {}), ...(queue !== null ? { queue } : {}) };
    if (waiting.length > 0) {
      // A vault whose every task waits for a person: say so, naming them, rather than "no task files".
      const first = waiting.slice(0, 3).map((w) => `${relative(abs, w.file)} ${w.why}`).join('; ');
      throw new RalfError('target_unsupported', `${path}: nothing approved to run: ${first}${waiting.length > 3 ? `; and ${waiting.length - 3} more` : ''}`, {
        problems: [{ file: path, message: `nothing approved to run (${waiting.length} file(s) wait in ${[...new Set(waiting.map((w) => relative(abs, dirname(w.file))))].join(', ')})`, hint: 'Move a task file into Approved/ to run it.' }],
      });
    }
    const sub = join(abs, 'tasks');
    if (existsSync(sub) && statSync(sub).isDirectory()) {
      const subTasks = taskFilesWithLifecycle(sub);
      if (subTasks.length > 0) return { kind: 'task-files', path: sub, files: subTasks };
    }
    throw unsupported(path, 'directory has no *-PLAN.md files and no task files (Markdown with `status:` or `state:` in the frontmatter, or an Approved/ folder of them)');
  }
  const name = basename(abs);
  const ext = extname(name).toLowerCase();
  if (PLAN_FILE.test(name)) {
    // `fix_plan.md`, `IMPLEMENTATION_PLAN.md`: Ralph loops' checklists end in PLAN.md too. A file
    // with checklist items and no GSD <task> element is a PRD checklist.
    const text = readUserText(abs, { what: 'plan' });
    return !/<task[\s>]/i.test(text) && hasTasks(text) ? { kind: 'prd', path: abs } : { kind: 'gsd-plan', path: abs };
  }
  if (ext === '.json') {
    if (/requirements\.json$/i.test(name)) return { kind: 'requirements', path: abs };
    const isRalphJson = /^ralph\.json$/i.test(name);
    // Other names: decide by shape (a syntax error is reported by the format's own reader).
    let value: unknown;
    try {
      value = JSON.parse(readUserText(abs, { what: 'JSON target' }).replace(/^\uFEFF/, ''));
    } catch {
      if (isRalphJson) return { kind: 'ralph-json', path: abs };
      throw unsupported(path, 'a .json target must be ralph.json or requirements.json (or valid JSON shaped like one)');
    }
    if (isRalphJson) {
      // A ralph.json with no `task` whose criteria are work items of their own ({id, description,
      // steps, backpressure, passes}: ralph-town runs each one as its own loop) is a list of items.
      const noTask = value !== null && typeof value === 'object' && !Array.isArray(value) && !('task' in value);
      const list = noTask ? itemListKey(value) : null;
      return list !== null && 'key' in list && list.key !== null ? { kind: 'requirements', path: abs } : { kind: 'ralph-json', path: abs };
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && 'task' in value && 'acceptance_criteria' in value) return { kind: 'ralph-json', path: abs };
    // A list of items however it is named (`requirements`, `userStories`, `stories`, ...): decided by shape.
    if (itemListKey(value) !== null) return { kind: 'requirements', path: abs };
    throw unsupported(
      path,
      'JSON is neither a ralph.json ({ "task", "acceptance_criteria" }) nor a list of items ([...], { "requirements": [...] }, or one array of objects with an "id" and a "title" or "description", like prd.json\'s "userStories")',
    );
  }
  if (ext === '.md' || ext === '.markdown') {
    const text = readUserText(abs, { what: 'Markdown target' });
    if (LIFECYCLE.includes(basename(dirname(abs)).toLowerCase())) return { kind: 'task-files', path: abs, files: [abs] };
    // The checklist format's own name wins over a front matter `status:`: in a PRD.md it is the
    // document's status (`draft`, `approved`), not a task file's lifecycle.
    if (isTaskFileText(text) && !(PRD_FILE.test(basename(abs)) && hasTasks(text))) return { kind: 'task-files', path: abs, files: [abs] };
    if (hasTasks(text)) return { kind: 'prd', path: abs };
    throw unsupported(path, 'Markdown file has no checklist items (- [ ] ...) and no `status:`/`state:` frontmatter');
  }
  throw unsupported(path, `unsupported file type "${ext || name}"`);
}

/** A task file of a directory target held in a folder that is neither the directory, a lifecycle folder nor the queue. */
function heldIn(detected: DetectedTarget, file: string): boolean {
  const parent = dirname(file);
  return parent !== detected.path && parent !== detected.queue && !LIFECYCLE.includes(basename(parent).toLowerCase()) && dirname(parent) === detected.path;
}

async function defaultReadPlan(): Promise<ReadPlan> {
  // The GSD reader (src/plan/read.ts) loads remark and the config layers: imported only for GSD targets.
  const { readPlan } = await import('../plan/read.js');
  return readPlan;
}

async function readGsdPlan(readPlan: ReadPlan, path: string, config: RalfLiteConfig | undefined): Promise<Plan> {
  const result = await readPlan(path, config ? { config } : {});
  return 'plan' in result && !('tasks' in result) ? result.plan : (result as Plan);
}

/**
 * Loads what `ralf run <path>` should loop over. Async because the format modules (and the
 * GSD reader) are imported on first use.
 */
export async function loadRunTarget(path: string, options: LoadRunTargetOptions = {}): Promise<RunTarget> {
  const detected = detectRunTarget(path);
  const now = options.now ?? (() => new Date());
  const formatOptions: FormatOptions = { tests_command: options.tests_command ?? options.config?.checks?.tests };
  const base = { source: resolve(path), project_root: projectRootFor(detected.kind, detected.path) };

  switch (detected.kind) {
    case 'gsd-plan':
    case 'gsd-phase': {
      const readPlan = options.readPlan ?? (await defaultReadPlan());
      const files = detected.files ?? [detected.path];
      const plans: Plan[] = [];
      for (const file of files) plans.push(await readGsdPlan(readPlan, file, options.config));
      return { kind: detected.kind, plans, ...base };
    }
    case 'prd': {
      const { parsePrdChecklist, writePrdResult, prdItemMarked } = await import('./prd-checklist.js');
      const { prdContext } = await import('./copilot-ralf.js');
      const plan = parsePrdChecklist(readUserText(detected.path, { what: 'PRD checklist' }), detected.path, formatOptions);
      const taskOf = (p: Plan, n: number) => p.tasks.find((t) => t.number === n);
      return {
        kind: 'prd',
        plans: [plan],
        onTaskResult: (p, n, r) => writePrdResult(p, n, r, now()),
        iterationContext: (p) => prdContext(p.path, base.project_root),
        markedByAgent: (p, n) => {
          const t = taskOf(p, n);
          return t ? prdItemMarked(p.path, t) : false;
        },
        ...base,
      };
    }
    case 'ralph-json': {
      const { parseRalphJsonTarget } = await import('./ralph-json.js');
      const { plan, limits } = parseRalphJsonTarget(readUserText(detected.path, { what: 'ralph.json' }), detected.path, formatOptions);
      return { kind: 'ralph-json', plans: [plan], limits, ...base };
    }
    case 'requirements': {
      const { parseRequirements, writeRequirementResult, historyPathFor } = await import('./requirements.js');
      const historyPath = options.historyPath ?? historyPathFor(detected.path);
      const history = readUserTextIfExists(historyPath, { what: 'requirements history' }) ?? undefined;
      const plan = parseRequirements(readUserText(detected.path, { what: 'requirements file' }), detected.path, { ...formatOptions, history, historyPath });
      const { recentHistory } = await import('./requirements.js');
      const { progressLearnings } = await import('./copilot-ralf.js');
      const limits = plan.frontmatter.extra.limits as TargetLimits | undefined;
      return {
        kind: 'requirements',
        plans: [plan],
        ...(limits ? { limits } : {}),
        onTaskResult: (p, n, r) => writeRequirementResult(p, n, r, now()),
        // ralph1's work agent learns from past attempts: the history is read fresh for every iteration.
        iterationContext: (p, n): Record<string, string> => {
          const id = p.tasks.find((t) => t.number === n)?.attributes.id;
          const history = id !== undefined ? readUserTextIfExists(historyPath, { what: 'requirements history' }) : null;
          const text = id !== undefined && history !== null ? recentHistory(history, historyPath, id) : '';
          // snarktank's progress.txt beside prd.json: what earlier iterations learned (read fresh).
          return { ...progressLearnings(dirname(p.path)), ...(text ? { history: text } : {}) };
        },
        ...base,
      };
    }
    case 'task-files': {
      const { parseTaskFiles, writeTaskFileResult, lifecycleFolderOf } = await import('./task-files.js');
      const files = (detected.files ?? []).map((f) => ({ path: f, text: readUserText(f, { what: 'task file' }), ...(detected.queue !== undefined && dirname(f) === detected.queue ? { queue: true } : {}), ...(heldIn(detected, f) ? { held: basename(dirname(f)) } : {}) }));
      const plan = parseTaskFiles(files, detected.path, formatOptions);
      // Work nobody approved yet is listed, never run: the person sees what waits for them.
      for (const w of detected.waiting ?? []) plan.warnings.push(`${relative(detected.path, w.file)}: not run: ${w.why} (move it to Approved/ to run it)`);
      // The Persistence Loop: its lifecycle folders, its `state:` key, or its persistence.yaml.
      const { findPersistenceConfig, readPersistenceConfig } = await import('./persistence-loop.js');
      const start = statSync(detected.path).isDirectory() ? detected.path : dirname(detected.path);
      const persistence =
        files.some((f) => lifecycleFolderOf(f.path) !== null || /^---[ \t]*\r?\n(?:[^\n]*\n)*?state[ \t]*:/.test(f.text.replace(/^\uFEFF/, ''))) || findPersistenceConfig(start, base.project_root) !== null
          ? readPersistenceConfig(start, base.project_root)
          : null;
      const limits: TargetLimits | undefined = persistence
        ? {
            max_iterations: persistence.max_iterations,
            warn_threshold: persistence.warn_threshold,
            backoff_seconds: persistence.backoff_seconds,
            backoff_jitter: persistence.jitter,
            ...(persistence.per_step_seconds !== null ? { iteration_timeout_seconds: persistence.per_step_seconds } : {}),
            ...(persistence.total_seconds !== null ? { time_budget_seconds: persistence.total_seconds } : {}),
            source: persistence.file ?? 'Persistence Loop defaults',
          }
        : undefined;
      return { kind: 'task-files', plans: [plan], ...(limits ? { limits } : {}), onTaskResult: (p, n, r) => writeTaskFileResult(p, n, r, now()), ...base };
    }
  }
}
