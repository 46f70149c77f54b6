/**
 * Builds the shared Plan model for the non-GSD front-ends, and applies the loop's task
 * decisions with the same rules as GSD plans: a human gate is refused (never wrapped or
 * auto-approved), a task without an executable check is skipped (not objectively verifiable).
 */
import { planIdFromPath } from '../engine/shell/paths.js';
import type { Check, Plan, PlanFrontmatter, PlanTask, TaskDecision } from '../plan/model.js';
import type { FormatOptions, RunTargetKind } from './target.js';

/** Everything a format knows about one task before the decision is made. */
export interface TaskDraft {
  name: string;
  line: number;
  end_line: number;
  /** What the agent should do (PlanTask.elements.action). */
  action: string;
  /** Raw criteria text, kept for the agent's prompt (PlanTask.elements.verify). */
  criteria_text?: string;
  checks: Check[];
  manual: string[];
  files?: string[];
  attributes?: Record<string, string>;
  elements?: Record<string, string>;
  /** A human gate: `human-verify`, `human-action`, `decision`, ... (refused). */
  human_gate?: string | null;
  /** Already finished or not approved: skipped with this reason before any other rule. */
  skip_reason?: string | null;
  /** Criteria the user asked for that cannot run (e.g. `tests_pass` with no command). */
  unrunnable?: string[];
}

export const NOT_VERIFIABLE =
  'not objectively verifiable: no executable acceptance criteria (add a command, file or text check, or configure ralf_lite.checks.tests)';

export function emptyFrontmatter(extra: Record<string, unknown> = {}): PlanFrontmatter {
  return {
    phase: null,
    plan: null,
    type: 'execute',
    wave: null,
    depends_on: [],
    files_modified: [],
    autonomous: null,
    requirements: [],
    must_haves: { truths: [], artifacts: [], key_links: [] },
    gap_closure: false,
    extra,
  };
}

/**
 * The plan id (the state file's name, `.planning/ralf/<id>.json`): the engine's own rule
 * (src/engine/paths.ts), so state written through `ralf run <target>` and read back by
 * `ralf status` agree: `PRD.md` → `PRD`, `ralph.json` → `ralph.json`, `tasks/` → `tasks`.
 */
export function planIdForSource(path: string): string {
  return planIdFromPath(path);
}

/** The loop decision for one task (pure). */
export function decideTask(draft: TaskDraft, options: FormatOptions): TaskDecision & { checks: Check[] } {
  // A finished item stays finished, gate or not: a checked-off human gate was answered by the human.
  if (draft.skip_reason) return { decision: 'skip', reason: draft.skip_reason, checks: draft.checks };
  if (draft.human_gate) {
    return {
      decision: 'refuse',
      reason: `checkpoint:${draft.human_gate} tasks need a human; never wrapped or auto-approved`,
      checks: draft.checks,
    };
  }
  if (draft.checks.length > 0) return { decision: 'loop', reason: loopReason(draft.checks), checks: draft.checks };
  if (options.tests_command) {
    const checks: Check[] = [
      { kind: 'tests_pass', command: options.tests_command, source: { element: 'checks.tests', line: draft.line } },
    ];
    return {
      decision: 'loop',
      reason: `no executable criteria in the task; verified by the project test command (${options.tests_command})`,
      checks,
    };
  }
  const unrunnable = draft.unrunnable?.length ? ` (cannot run: ${draft.unrunnable.join('; ')})` : '';
  return { decision: 'skip', reason: `${NOT_VERIFIABLE}${unrunnable}`, checks: [] };
}

function loopReason(checks: Check[]): string {
  return `${checks.length} executable check${checks.length === 1 ? '' : 's'}`;
}

export function buildTask(number: number, draft: TaskDraft, options: FormatOptions): PlanTask {
  const decided = decideTask(draft, options);
  const elements: Record<string, string> = { ...(draft.elements ?? {}), action: draft.action };
  if (draft.criteria_text) elements.verify = draft.criteria_text;
  return {
    number,
    name: draft.name,
    type: draft.human_gate ? `checkpoint:${draft.human_gate}` : 'auto',
    tdd: false,
    gate: null,
    attributes: draft.attributes ?? {},
    line: draft.line,
    end_line: draft.end_line,
    files: draft.files ?? [],
    elements,
    checks: decided.checks,
    manual: draft.manual,
    decision: decided.decision,
    reason: decided.reason,
    ...(draft.skip_reason ? { not_runnable: draft.skip_reason } : {}),
  };
}

export interface PlanDraft {
  kind: RunTargetKind;
  path: string;
  id: string;
  objective: string | null;
  tasks: PlanTask[];
  warnings?: string[];
  extra?: Record<string, unknown>;
  frontmatter_source?: Plan['frontmatter_source'];
}

export function buildPlan(draft: PlanDraft): Plan {
  return {
    path: draft.path,
    id: draft.id,
    frontmatter_source: draft.frontmatter_source ?? 'none',
    frontmatter: emptyFrontmatter({ format: draft.kind, ...(draft.extra ?? {}) }),
    objective: draft.objective,
    tasks: draft.tasks,
    plan_checks: [],
    plan_manual: [],
    // These formats verify per task; there is no plan-level check list for `ralf plan verify`.
    plan_decision: { decision: 'skip', reason: `no plan-level checks: ${draft.kind} targets are verified task by task` },
    warnings: draft.warnings ?? [],
  };
}

/** Human gates written as text: `checkpoint:human-verify`, `(human)`, `[human]`, `#human`, `Human:`. */
export function humanGateInText(text: string): string | null {
  const checkpoint = /\bcheckpoint:\s*(human[-\w]*|decision)\b/i.exec(text);
  if (checkpoint) return checkpoint[1]!.toLowerCase();
  if (/(^|\s)(\(human\)|\[human\]|#human\b)|^\s*human:/im.test(text)) return 'human-verify';
  return null;
}
