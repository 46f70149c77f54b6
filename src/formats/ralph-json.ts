/**
 * Front-end for a `ralph.json` task spec: one task, typed acceptance criteria, and limits
 * that override the run's defaults. The file is a spec, not a log, so nothing is written
 * back to it: the outcome lives in `.planning/ralf/<plan-id>.json`.
 */
import { array, describe, int, looseObject, maximum, minimum, minLength, optional, string, trim, unknown, type infer as Infer } from 'zod/mini';
import type { Check, Plan } from '../plan/model.js';
import { AcceptanceCriterion, addTypedCriterion } from './criteria-json.js';
import { addTextCriterion } from './criteria-text.js';
import { slugOf } from './item-identity.js';
import { jsonPathKey } from './json-scan.js';
import { invalidFile, lineOfPath, readJsonDocument } from './json-text.js';
import { buildPlan, buildTask, humanGateInText, planIdForSource } from './plan-builder.js';
import type { FormatOptions, TargetLimits } from './target.js';
import { zodProblems } from './zod-problems.js';

export const RalphJson = looseObject({
  task: string().check(trim(), minLength(1), describe('What the agent should do (the prompt).')),
  acceptance_criteria: array(unknown()).check(describe('Checks that must all pass for the task to be done: typed objects, or sentences read like PRD sub-bullets (`cmd` passes, `path` exists).')),
  max_iterations: optional(int().check(minimum(1), maximum(100), describe('Overrides ralf_lite.max_iterations for this run.'))),
  budget: optional(
    looseObject({
      max_tokens: optional(int().check(minimum(1), describe('Token budget for the run (stop reason `token_budget`).'))),
    }).check(describe('Budgets for the run.')),
  ),
});
export type RalphJson = Infer<typeof RalphJson>;

const KNOWN_KEYS = new Set(['task', 'acceptance_criteria', 'max_iterations', 'budget']);

export interface RalphJsonTarget {
  plan: Plan;
  limits: TargetLimits;
}

/** Parses and validates a ralph.json (pure). Throws RalfError (exit 2) naming file, key path and line. */
export function parseRalphJsonTarget(text: string, path: string, options: FormatOptions = {}): RalphJsonTarget {
  const doc = readJsonDocument(text, path, 'ralph_json_invalid');
  const parsed = RalphJson.safeParse(doc.value);
  const problems = parsed.success ? [] : zodProblems(parsed.error.issues, path, doc);
  // Each criterion: a sentence (string), or a typed object validated on its own so its errors name its key path.
  const raw = (doc.value as { acceptance_criteria?: unknown }).acceptance_criteria;
  const criteria: Array<string | AcceptanceCriterion> = [];
  (Array.isArray(raw) ? raw : []).forEach((item, i) => {
    if (typeof item === 'string') return void criteria.push(item);
    const one = AcceptanceCriterion.safeParse(item);
    if (one.success) criteria.push(one.data);
    else problems.push(...zodProblems(one.error.issues, path, doc, ['acceptance_criteria', i], item));
  });
  if (!parsed.success || problems.length > 0) throw invalidFile('ralph_json_invalid', path, problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.key ?? '').localeCompare(b.key ?? '')));
  const spec = { ...parsed.data, acceptance_criteria: criteria };

  const checks: Check[] = [];
  const unrunnable: string[] = [];
  const manual: string[] = [];
  const sink = { checks, manual, unrunnable };
  spec.acceptance_criteria.forEach((criterion, i) => {
    const key = jsonPathKey(['acceptance_criteria', i]);
    const source = { element: key, line: lineOfPath(doc, key) };
    // A sentence ("All tests pass", "`npm run lint` passes") is read like a PRD sub-bullet; prose is a manual criterion.
    if (typeof criterion === 'string') addTextCriterion(sink, criterion, source, options.tests_command);
    else addTypedCriterion(sink, criterion, source, options.tests_command);
  });

  const warnings = Object.keys(doc.value as object)
    .filter((k) => !KNOWN_KEYS.has(k))
    .map((k) => `${path}: unknown key "${k}" ignored (known: ${[...KNOWN_KEYS].join(', ')})`);
  const taskLine = lineOfPath(doc, 'task');
  const firstLine = spec.task.split(/\r?\n/)[0]!.trim();
  const name = firstLine.length > 100 ? `${firstLine.slice(0, 97)}...` : firstLine;
  const criteriaLine = lineOfPath(doc, 'acceptance_criteria');
  const task = buildTask(
    1,
    {
      name,
      line: taskLine,
      end_line: Math.max(taskLine, lineOfPath(doc, jsonPathKey(['acceptance_criteria', spec.acceptance_criteria.length - 1]))),
      action: spec.task,
      criteria_text: spec.acceptance_criteria.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('\n'),
      checks,
      manual,
      unrunnable,
      human_gate: humanGateInText(spec.task),
      attributes: { criteria_line: String(criteriaLine) },
    },
    options,
  );

  // ralph.json's own stop conditions are success, max_iterations, budget_exhausted and error:
  // ralf's repeated-fingerprint and no-progress stops are left out (the project config may set them).
  const limits: TargetLimits = { error_fingerprint_repeats: 100, no_progress_repeats: 100, source: path };
  if (spec.max_iterations !== undefined) limits.max_iterations = spec.max_iterations;
  if (spec.budget?.max_tokens !== undefined) limits.max_tokens = spec.budget.max_tokens;
  const plan = buildPlan({
    kind: 'ralph-json',
    path,
    id: planIdForSource(path),
    objective: spec.task,
    tasks: [{ ...task, attributes: { ...task.attributes, id: slugOf(name) } }],
    warnings,
    extra: { limits },
  });
  return { plan, limits };
}

export function parseRalphJson(text: string, path: string, options: FormatOptions = {}): Plan {
  return parseRalphJsonTarget(text, path, options).plan;
}
