export type { Check, CheckKind, CheckSource, Plan, PlanFrontmatter, PlanTask, TaskDecision, TaskDecisionKind } from './model.js';
export type { Criterion, NamedCheckKind, ParsedPlan, ParsedTask } from './parsed.js';
export { parsePlanText, planIdFromPath } from './parse.js';
export { decidePlan, projectCommands, resolveCriteria, type ProjectCommands } from './decide.js';
export { planFromText, readPlan, readPlanText, MAX_PLAN_BYTES, type ReadPlanOptions } from './read.js';
