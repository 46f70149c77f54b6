/**
 * `decidePlan(parsed, config, projectCommands)`: which work the loop may wrap. Pure: the
 * same plan and config always give the same decisions, each with a specific reason.
 *
 * Tasks: `refuse` checkpoints and human gates (never wrapped, never auto-approved);
 * `skip` untyped/unknown types, TDD tasks unless `apply_to.tdd_tasks`, anything when the
 * loop is disabled, and tasks with no executable check; `loop` the rest.
 * Plan: `refuse` when any task needs a human; `skip` unless `autonomous: true`, the loop and
 * `apply_to.autonomous_plans` are on, and there is a plan-level check.
 */
import { isLongRunning, looksLikeCodeCommand, programResolves, publishesOrDestroys, type ProgramResolver } from './command-like.js';
import { codeSpans } from './criteria.js';
import { echoFallbackSignal } from './echo-fallback.js';
import { firstProgram } from './shell-words.js';
import type { RalfLiteConfig } from '../config/schema.js';
import type { Check, Plan, PlanTask, TaskDecision } from './model.js';
import type { Criterion, NamedCheckKind, ParsedPlan, ParsedTask } from './parsed.js';
import { pipelineWarnings } from './pipelines.js';

/**
 * A `tracker-id` task's content as `gsd_run task resolve-content` gave it (resolved at the
 * edge, see read.ts): `resolved` replaces the task's PLAN.md criteria; `inline` is GSD's own
 * `resolved: false` (no resolver for that tracker: the PLAN.md text is the task); anything
 * else refuses the task, never falling back to the PLAN.md text.
 */
export type TrackerResolution = { kind: 'resolved'; criteria: Criterion[] } | { kind: 'inline'; reason: string } | { kind: 'refused'; why: string };

/** What the pure decision needs from the machine, gathered at the edge. */
export interface DecideContext {
  /** Environment the checks run in (for user_setup env vars and env-var preconditions). */
  env?: Record<string, string | undefined>;
  /** Resolutions by tracker-id. A tracker-id task with no entry is refused (gsd_run unavailable). */
  trackers?: Map<string, TrackerResolution>;
  /** Which program names resolve here (the reader's): a skip reason names a check's missing program. */
  resolves?: ProgramResolver;
}

/** Commands the named criteria run: `ralf_lite.checks.*`, tests falling back to GSD's `workflow.test_command`. */
export interface ProjectCommands {
  tests?: string | undefined;
  typecheck?: string | undefined;
  lint?: string | undefined;
}

const NAMED_KEY: Record<NamedCheckKind, keyof ProjectCommands> = { tests_pass: 'tests', no_type_errors: 'typecheck', lint_clean: 'lint' };
const NAMED_PROSE: Record<NamedCheckKind, string> = { tests_pass: 'tests pass', no_type_errors: 'no type errors', lint_clean: 'lint clean' };

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The project commands from the effective config and the whole `.planning/config.json`. */
export function projectCommands(config: RalfLiteConfig, projectConfig: Record<string, unknown> | null = null): ProjectCommands {
  const workflow = projectConfig?.workflow;
  const gsdTests = typeof workflow === 'object' && workflow !== null ? nonEmpty((workflow as Record<string, unknown>).test_command) : undefined;
  return {
    tests: nonEmpty(config.checks?.tests) ?? gsdTests,
    typecheck: nonEmpty(config.checks?.typecheck),
    lint: nonEmpty(config.checks?.lint),
  };
}

function checkKey(c: Check): string {
  switch (c.kind) {
    case 'file_exists':
      return `file_exists\0${c.path}`;
    case 'contains_text':
      return `contains_text\0${c.path}\0${c.text}`;
    case 'min_lines':
      return `min_lines\0${c.path}\0${c.min_lines}`;
    default:
      return `${c.kind}\0${c.command}`;
  }
}

interface Resolved {
  checks: Check[];
  manual: string[];
  /** Named prose with no configured command (`tests pass` without `checks.tests`). */
  unresolved: NamedCheckKind[];
  placeholders: number;
  /** Each placeholder `<automated>`: its text and line (for the warning). */
  placeholderAt: Array<{ text: string; line: number }>;
  /** Lines of checks the plan expects to fail now (TDD RED), shown and not run. */
  expectedFailureAt: number[];
}

/** Criteria → executable checks (deduplicated, in plan order) and manual criteria. */
export function resolveCriteria(criteria: Criterion[], commands: ProjectCommands): Resolved {
  const out: Resolved = { checks: [], manual: [], unresolved: [], placeholders: 0, placeholderAt: [], expectedFailureAt: [] };
  const seen = new Set<string>();
  const add = (check: Check) => {
    const signal = check.kind === 'command_succeeds' && check.fails_when === undefined ? echoFallbackSignal(check.command) : null;
    const c: Check = signal && check.kind === 'command_succeeds' ? { ...check, fails_when: signal } : check;
    const key = checkKey(c);
    if (seen.has(key)) return;
    seen.add(key);
    out.checks.push(c);
  };
  for (const c of criteria) {
    for (const check of c.checks) add(check);
    let resolved = 0;
    for (const kind of c.named) {
      const command = commands[NAMED_KEY[kind]];
      if (command) {
        add({ kind, command, source: c.source });
        resolved++;
      } else if (!out.unresolved.includes(kind)) out.unresolved.push(kind);
    }
    if (c.placeholder) {
      out.placeholders++;
      out.placeholderAt.push({ text: c.text, line: c.source.line });
    }
    if (c.expects_failure) out.expectedFailureAt.push(c.source.line);
    if (c.manual || (c.checks.length === 0 && resolved === 0)) out.manual.push(c.text);
  }
  return out;
}

function summarize(checks: Check[]): string {
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const CHECKPOINT_WHY: Record<string, string> = {
  'checkpoint:human-verify': 'a person must verify the result',
  'checkpoint:decision': 'a person must choose',
  'checkpoint:human-action': 'a person must act',
};

const ENV_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g;
const HUMAN_WORDS = /\buser_setup\b|\bhuman\b|\bmanual(?:ly)?\b|\baccount\b|\bdashboard\b|\bsign(?:ed)?[ -]?(?:up|in)\b|\blog(?:ged)?[ -]?in\b|\bcredentials?\b|\bapprov(?:e|ed|al)\b|\bphysical\b/i;

/** Why a `<precondition>` needs a human before the loop may start, or null. */
function preconditionReason(text: string, env: Record<string, string | undefined>): string | null {
  const names = [...new Set(text.match(ENV_NAME) ?? [])];
  if (names.length > 0) {
    const unset = names.filter((n) => !env[n]);
    return unset.length > 0 ? `<precondition> "${text}" is not met: ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not set; a person must provide ${unset.length === 1 ? 'it' : 'them'} first` : null;
  }
  return HUMAN_WORDS.test(text) ? `<precondition> "${text}" needs a person to establish it; confirm it is done, then run the task by hand or remove the precondition` : null;
}

/** A user_setup item as GSD Core writes it (`service`, `why`, `env_vars[]`, `dashboard_config[]`). */
interface SetupItem {
  service?: unknown;
  why?: unknown;
  env_vars?: unknown;
  dashboard_config?: unknown;
}

/** What a person must do before the plan runs: unset user_setup env vars (with their sources), or null. */
function userSetupReason(fm: ParsedPlan['frontmatter'], env: Record<string, string | undefined>, warnings: string[]): string | null {
  const items = fm.extra.user_setup;
  if (!Array.isArray(items) || items.length === 0) return null;
  const todo: string[] = [];
  const steps: string[] = [];
  for (const raw of items as SetupItem[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const service = typeof raw.service === 'string' ? raw.service : 'setup';
    for (const v of Array.isArray(raw.env_vars) ? raw.env_vars : []) {
      const name = typeof v === 'object' && v !== null ? (v as { name?: unknown }).name : v;
      if (typeof name !== 'string' || env[name]) continue;
      const source = typeof v === 'object' && v !== null && typeof (v as { source?: unknown }).source === 'string' ? ` (${(v as { source: string }).source})` : '';
      todo.push(`set ${name}${source}`);
    }
    for (const d of Array.isArray(raw.dashboard_config) ? raw.dashboard_config : []) {
      const task = typeof d === 'object' && d !== null ? (d as { task?: unknown }).task : d;
      if (typeof task === 'string') steps.push(`${service}: ${task}`);
    }
  }
  if (todo.length === 0) {
    if (steps.length > 0) warnings.push(`user_setup lists steps only a person can do; the loop assumes they are done: ${steps.join('; ')}`);
    return null;
  }
  return `user_setup needs a person first: ${todo.join('; ')}${steps.length > 0 ? `; and ${steps.join('; ')}` : ''}`;
}

/** Why a task must be left to a human, or null. */
function humanReason(task: ParsedTask): string | null {
  if (task.checkpoint_ambiguity) return `${task.checkpoint_ambiguity}; refused as a checkpoint (never wrapped or auto-approved): write one type="checkpoint:..." or one type="auto"`;
  const type = task.type?.toLowerCase() ?? '';
  if (type.startsWith('checkpoint')) {
    return `${task.type} task: ${CHECKPOINT_WHY[type] ?? 'a person must take part'}; never wrapped or auto-approved`;
  }
  if (task.gate && /human/i.test(task.gate)) return `gate="${task.gate}" requires a human; never wrapped or auto-approved`;
  return null;
}

function unresolvedHint(r: Resolved): string {
  const parts: string[] = [];
  if (r.placeholders > 0) parts.push('<automated> is a placeholder (e.g. MISSING)');
  for (const kind of r.unresolved) parts.push(`"${NAMED_PROSE[kind]}" needs ralf_lite.checks.${NAMED_KEY[kind]} set`);
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

/**
 * A check the reader left as a manual criterion only because its program is not installed here
 * (`mix test …` on a machine without Elixir): the reader runs only what resolves, so the task is
 * not looped, and the reason says which program to install instead of leaving the user to guess.
 * Only spans that would be a check with the program installed (arguments, not prose, not a
 * server or a publishing step) are named.
 */
function missingProgramHint(manual: string[], resolves: ProgramResolver | undefined): string {
  if (!resolves) return '';
  const missing = new Map<string, string>();
  for (const text of manual) {
    for (const { content } of text.split('\n').flatMap(codeSpans)) {
      const span = content.trim();
      const first = firstProgram(span);
      if (!first || first.args.length === 0 || first.program.includes('/') || missing.has(first.program)) continue;
      if (programResolves(first.program, true, resolves) || !looksLikeCodeCommand(span, () => true)) continue;
      if (isLongRunning(span) || publishesOrDestroys(span)) continue;
      missing.set(first.program, span);
    }
  }
  if (missing.size === 0) return '';
  const named = [...missing].slice(0, 3).map(([program, span]) => `\`${program}\` (\`${span.length > 60 ? `${span.slice(0, 59)}…` : span}\`)`);
  return `; ${named.join(', ')} ${missing.size === 1 ? 'is' : 'are'} not installed here (not on PATH or in node_modules/.bin), so the check is read as a manual criterion: install it and run ralf again`;
}

function decideTask(task: ParsedTask, r: Resolved, config: RalfLiteConfig, before: string | null, resolves: ProgramResolver | undefined): TaskDecision {
  const human = humanReason(task);
  if (human) return { decision: 'refuse', reason: human };
  if (before) return { decision: 'refuse', reason: before };
  if (task.type === null) {
    const id = task.attributes.id !== undefined ? ` id="${task.attributes.id}"` : '';
    return { decision: 'skip', reason: `no type attribute (<task${id}>); only type="auto" tasks are wrapped` };
  }
  if (!config.enabled) return { decision: 'skip', reason: 'loop disabled (ralf_lite.enabled: false); the task runs once without the loop' };
  const type = task.type.toLowerCase();
  if (type !== 'auto' && type !== 'tdd' && type !== 'tracer') return { decision: 'skip', reason: `type="${task.type}" is not a task type the loop wraps (auto, tracer${config.apply_to.tdd_tasks ? ', tdd' : ''})` };
  if (task.tdd && !config.apply_to.tdd_tasks) {
    const how = type === 'tdd' ? 'type="tdd"' : 'tdd="true"';
    return { decision: 'skip', reason: `TDD task (${how}) and apply_to.tdd_tasks is false: its RED step must fail first, so it is not retried until green` };
  }
  if ((type === 'auto' || type === 'tracer') && !config.apply_to.auto_tasks) return { decision: 'skip', reason: 'apply_to.auto_tasks is false' };
  if (r.checks.length === 0) {
    const where = 'verify' in task.elements ? '<verify>/<done>' : 'the task (it has no <verify>)';
    return { decision: 'skip', reason: `not objectively verifiable: no executable check in ${where}${unresolvedHint(r)}${missingProgramHint(r.manual, resolves)}` };
  }
  const what = task.tdd ? `TDD task (apply_to.tdd_tasks is true)` : type === 'tracer' ? 'type="tracer" (looped like auto)' : `type="auto"`;
  return { decision: 'loop', reason: `${what} with ${plural(r.checks.length, 'executable check')} (${summarize(r.checks)})` };
}

function decidePlanLevel(parsed: ParsedPlan, tasks: PlanTask[], r: Resolved, config: RalfLiteConfig, warnings: string[], setup: string | null): TaskDecision {
  const fm = parsed.frontmatter;
  if (setup) return { decision: 'refuse', reason: setup };
  const human = tasks.filter((t) => t.decision === 'refuse');
  if (human.length > 0) {
    const label = (t: PlanTask) =>
      t.type?.toLowerCase().startsWith('checkpoint') && !/mention a checkpoint/.test(t.reason) ? t.type : t.gate && /human/i.test(t.gate) ? `gate="${t.gate}"` : t.reason.split(/[:;]/)[0];
    const list = human.map((t) => `task ${t.number} ${label(t)}`).join(', ');
    if (fm.autonomous === true) {
      warnings.push(`autonomous: true contradicts ${human.length === 1 ? '1 task that needs' : `${human.length} tasks that need`} a human (${list}); GSD requires autonomous: false when a plan has checkpoints`);
    }
    return { decision: 'refuse', reason: `${human.length === 1 ? '1 task needs' : `${human.length} tasks need`} a human (${list}); the plan-level loop never runs across checkpoints` };
  }
  if (!config.enabled) return { decision: 'skip', reason: 'loop disabled (ralf_lite.enabled: false)' };
  if (!config.apply_to.autonomous_plans) return { decision: 'skip', reason: 'apply_to.autonomous_plans is false' };
  if (fm.autonomous !== true) {
    const why =
      fm.autonomous === false
        ? 'the plan is autonomous: false'
        : parsed.frontmatter_source === 'none'
          ? 'the plan has no frontmatter, so no autonomous: true'
          : 'the frontmatter has no autonomous: true (GSD reads a missing key as true; the plan-level loop needs it explicit)';
    return { decision: 'skip', reason: `${why}; only autonomous: true plans get the plan-level loop` };
  }
  if (fm.type?.toLowerCase() === 'tdd' && !config.apply_to.tdd_tasks) {
    return { decision: 'skip', reason: 'plan type: tdd and apply_to.tdd_tasks is false' };
  }
  if (r.checks.length === 0) {
    return { decision: 'skip', reason: `no executable plan-level check in <verification> or must_haves.artifacts${unresolvedHint(r)}` };
  }
  return { decision: 'loop', reason: `autonomous: true with ${plural(r.checks.length, 'plan-level check')} (${summarize(r.checks)})` };
}

/** The task's criteria after tracker resolution, or why it cannot run. */
function trackerCriteria(task: ParsedTask, ctx: DecideContext): { criteria: Criterion[]; refused?: string; note?: string } {
  const id = task.attributes['tracker-id'];
  if (id === undefined || task.type?.toLowerCase().startsWith('checkpoint')) return { criteria: task.criteria };
  const r = ctx.trackers?.get(id);
  if (!r) {
    return {
      criteria: [],
      refused: `tracker-id="${id}": the task's content lives in an external tracker and gsd_run (GSD Core, @opengsd/gsd-core) is not available to resolve it; the PLAN.md text is never used instead. Install GSD Core so \`gsd_run task resolve-content\` runs here`,
    };
  }
  if (r.kind === 'refused') return { criteria: [], refused: `tracker-id="${id}": ${r.why}; the PLAN.md text is never used instead` };
  if (r.kind === 'inline') return { criteria: task.criteria, note: `tracker-id="${id}": not resolved (${r.reason}); GSD reads the task's PLAN.md content, and so does the loop` };
  return { criteria: r.criteria, note: `tracker-id="${id}": checks from the tracker (gsd_run task resolve-content)` };
}

export function decidePlan(parsed: ParsedPlan, config: RalfLiteConfig, commands: ProjectCommands = {}, context: DecideContext = {}): Plan {
  const warnings = [...parsed.warnings];
  const env = context.env ?? {};
  // Tasks repeat the same commands (a gate line in every task): each distinct one is read once.
  const pipelineNotes = new Map<string, string[]>();
  const pipelineWarningsOf = (command: string): string[] => {
    let notes = pipelineNotes.get(command);
    if (notes === undefined) pipelineNotes.set(command, (notes = pipelineWarnings(command)));
    return notes;
  };
  const setup = userSetupReason(parsed.frontmatter, env, warnings);
  const tasks: PlanTask[] = parsed.tasks.map((t) => {
    const tracked = trackerCriteria(t, context);
    const r = resolveCriteria(tracked.criteria, commands);
    for (const ph of r.placeholderAt) warnings.push(`task ${t.number} (line ${ph.line}): <automated> holds a placeholder (${JSON.stringify(ph.text.length > 60 ? `${ph.text.slice(0, 60)}…` : ph.text)}), not a command; it is no check`);
    for (const line of r.expectedFailureAt) warnings.push(`task ${t.number} (line ${line}): the plan expects this check to fail now (a TDD RED step); it is shown as a manual criterion, not run`);
    if (t.checkpoint_ambiguity) warnings.push(`task ${t.number} (line ${t.line}): ${t.checkpoint_ambiguity}; refused`);
    if (tracked.note) warnings.push(`task ${t.number} (line ${t.line}): ${tracked.note}`);
    const precondition = t.elements.precondition ? preconditionReason(t.elements.precondition.replace(/\s+/g, ' ').trim(), env) : null;
    const d = decideTask(t, r, config, tracked.refused ?? precondition ?? (setup && !t.type?.toLowerCase().startsWith('checkpoint') ? setup : null), context.resolves);
    const checkWarnings = r.checks.flatMap((c) => (c.kind === 'command_succeeds' ? pipelineWarningsOf(c.command) : []));
    for (const w of checkWarnings) warnings.push(`task ${t.number} (line ${t.line}): ${w}`);
    const { criteria: _criteria, checkpoint_ambiguity: _a, ...rest } = t;
    return { ...rest, checks: r.checks, manual: r.manual, decision: d.decision, reason: d.reason, ...(checkWarnings.length > 0 ? { check_warnings: checkWarnings } : {}) };
  });
  const pr = resolveCriteria(parsed.plan_criteria, commands);
  for (const c of pr.checks) if (c.kind === 'command_succeeds') for (const w of pipelineWarningsOf(c.command)) warnings.push(`plan check (line ${c.source.line}): ${w}`);
  const planDecision = decidePlanLevel(parsed, tasks, pr, config, warnings, setup);
  const { plan_criteria: _pc, features: _f, tasks: _t, warnings: _w, ...base } = parsed;
  return { ...base, tasks, plan_checks: pr.checks, plan_manual: pr.manual, plan_decision: planDecision, warnings };
}
