/** The plan model (src/plan/) → what the report needs of it. */
import type { Plan } from '../plan/model.js';
import type { ReportPlan } from './types.js';

export function fromPlan(plan: Plan, displayPath: string): ReportPlan {
  return {
    id: plan.id,
    path: displayPath,
    autonomous: plan.frontmatter.autonomous,
    tasks: plan.tasks.map((t) => ({ number: t.number, name: t.name, type: t.type, decision: t.decision, reason: t.reason })),
    plan_decision: plan.plan_decision,
  };
}
