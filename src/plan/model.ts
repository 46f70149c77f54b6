/**
 * The typed model of a GSD PLAN.md with the loop's decisions made. Produced by
 * src/plan/ (parse + decide); consumed by the engine, report, run driver and CLI.
 * This file is the contract between them: extend it, don't rename fields.
 */

/** An executable acceptance check extracted from `<verify>`/`<done>`/`<verification>`/must_haves. */
export type Check =
  /**
   * A shell script as the plan wrote it (one line or many). `fails_when` is GSD Core's stated
   * failure signal for it (`non-zero exit, or "0 passed" in the summary line`), applied to the
   * result even when the script exits 0.
   */
  | { kind: 'command_succeeds'; command: string; source: CheckSource; fails_when?: string }
  | { kind: 'file_exists'; path: string; source: CheckSource }
  | { kind: 'contains_text'; path: string; text: string; source: CheckSource }
  | { kind: 'min_lines'; path: string; min_lines: number; source: CheckSource }
  /** Named project commands from config `checks.tests|typecheck|lint`; `command` is resolved. */
  | { kind: 'tests_pass' | 'no_type_errors' | 'lint_clean'; command: string; source: CheckSource };

export type CheckKind = Check['kind'];

/** Where a check came from, for messages and reports. */
export interface CheckSource {
  /** The element it was extracted from, e.g. `verify`, `automated`, `done`, `verification`, `must_haves.artifacts`. */
  element: string;
  /** 1-based line in the PLAN.md. */
  line: number;
}

export type TaskDecisionKind = 'loop' | 'skip' | 'refuse';

export interface TaskDecision {
  decision: TaskDecisionKind;
  /** Human-readable, specific reason, e.g. `checkpoint:human-verify tasks need a human; never wrapped or auto-approved`. */
  reason: string;
}

export interface PlanTask {
  /** 1-based position among real tasks in the plan (what `ralf task verify <PLAN> <N>` takes). */
  number: number;
  name: string;
  /** Raw `type` attribute, e.g. `auto`, `checkpoint:human-verify`, `tdd`; `null` when absent. */
  type: string | null;
  tdd: boolean;
  gate: string | null;
  /** Other attributes on the `<task>` tag (id, title, ...). */
  attributes: Record<string, string>;
  /** 1-based line of the `<task` tag and of its closing tag. */
  line: number;
  end_line: number;
  /** Paths from `<files>` (trimmed, entities decoded). */
  files: string[];
  /** Child elements' text (entity-decoded), keyed by element name: action, verify, done, behavior, what-built, ... */
  elements: Record<string, string>;
  checks: Check[];
  /** Non-executable acceptance criteria (prose) the agent must confirm. */
  manual: string[];
  decision: TaskDecisionKind;
  reason: string;
  /**
   * Seed formats: the item is finished or not approved in its own file (`[x]`, `[~]`,
   * `"status": "done"`, `Done/`, `state: Draft`, ...). It is never sent to an agent; this says
   * why (decision `skip`, the same reason). Absent for GSD tasks.
   */
  not_runnable?: string;
  /** Plan-time warnings about this task's checks (a pipeline whose last stage masks the status, ...). */
  check_warnings?: string[];
}

export interface PlanFrontmatter {
  phase: string | null;
  plan: string | null;
  type: string | null;
  wave: number | null;
  depends_on: string[];
  files_modified: string[];
  autonomous: boolean | null;
  requirements: string[];
  must_haves: {
    truths: string[];
    artifacts: Array<{ path: string; provides?: string; contains?: string; min_lines?: number; exports?: string[] }>;
    key_links: Array<{ from?: string; to?: string; via?: string; pattern?: string }>;
  };
  gap_closure: boolean;
  /** Every other frontmatter key, kept as parsed. */
  extra: Record<string, unknown>;
}

export interface Plan {
  /** Absolute path of the PLAN.md. */
  path: string;
  /** Plan id from the file name, e.g. `01-02`, `09-03-FIX2`, `34` (file name minus `-PLAN.md`). */
  id: string;
  /** Where the frontmatter came from. */
  frontmatter_source: 'yaml' | 'yaml-after-heading' | 'fenced-yaml' | 'none';
  frontmatter: PlanFrontmatter;
  objective: string | null;
  tasks: PlanTask[];
  /** Plan-level checks from `<verification>` and `must_haves.artifacts`. */
  plan_checks: Check[];
  plan_manual: string[];
  plan_decision: TaskDecision;
  /** Non-fatal findings (e.g. checkpoint tasks inside an `autonomous: true` plan). */
  warnings: string[];
}
