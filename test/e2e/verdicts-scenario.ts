/**
 * The verdict scenario both real hosts run (verdicts-claude, verdicts-opencode): the plan of
 * test/e2e/fixtures' calc project and the scripted agent's attempts. Task 1: one test fixed per
 * verify, mul, then sub, then add (the runner lists add first, so a rule keyed on the first
 * failing test would stop it). Task 2: a liar that writes an unrelated file each time.
 */
import { executePlanAgent } from './scripted-model/execute-plan-agent.js';

export const PLAN = '.planning/phases/01-calc/01-01-PLAN.md';
export const SUMMARY = '.planning/phases/01-calc/01-01-SUMMARY.md';

const calc = (add: string, mul: string, sub: string) =>
  `printf '%s\\n' 'export const add = (a, b) => ${add};' 'export const mul = (a, b) => ${mul};' 'export const sub = (a, b) => ${sub};' > src/calc.mjs`;

export const planAgent = executePlanAgent({
  attempts: {
    1: [calc('0', 'a * b', '0'), calc('0', 'a * b', 'a - b'), calc('a + b', 'a * b', 'a - b')],
    2: ['mkdir -p docs && echo "greet() is done" > docs/notes-1.md', 'echo "greet() really is done" > docs/notes-2.md', 'echo "done" > docs/notes-3.md'],
  },
  endTurnOnRetry: [1, 2],
});
