/**
 * The parser's output before any decision: what the plan says, with no config applied.
 * `decidePlan` turns it into the `Plan` contract (src/plan/model.ts).
 */
import type { Check, CheckSource, Plan, PlanTask } from './model.js';

/** Prose that names a project command (`all tests pass`); a check only when configured. */
export type NamedCheckKind = 'tests_pass' | 'no_type_errors' | 'lint_clean';

/** One acceptance line (a bullet, a sentence line, an `<automated>` element, a fence line). */
export interface Criterion {
  text: string;
  source: CheckSource;
  /** Executable checks found in the line. */
  checks: Check[];
  /** Project commands the prose names (resolved against config by decidePlan). */
  named: NamedCheckKind[];
  /** The line says more than its checks cover, so the agent must still confirm it. */
  manual: boolean;
  /** `<automated>MISSING</automated>` and similar stand-ins. */
  placeholder?: boolean;
  /** A check the plan says fails now (a TDD RED step): shown, not run. */
  expects_failure?: boolean;
}

export interface ParsedTask extends Omit<PlanTask, 'checks' | 'manual' | 'decision' | 'reason'> {
  criteria: Criterion[];
  /** The task's attributes mention a checkpoint in a way that is not one clean `type="checkpoint:..."`. */
  checkpoint_ambiguity?: string;
}

export interface ParsedPlan extends Omit<Plan, 'tasks' | 'plan_checks' | 'plan_manual' | 'plan_decision'> {
  tasks: ParsedTask[];
  /** From `<verification>` (or a `## Verification` section) and must_haves.artifacts. */
  plan_criteria: Criterion[];
  /** Plan-level TDD `<feature>` blocks (no tasks to wrap), by line. */
  features: number[];
}
