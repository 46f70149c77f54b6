/**
 * Migrating a state file written by an older ralf (pure). Version 1 keyed task loops by their
 * position ("1", "2", ...) and kept every changed path in every iteration; version 2 keys them
 * by identity and keeps a bounded list. Position keys become `#<n>` until a verify with the plan
 * matches them to their task (core/find-loop.ts `findLoop`).
 */
import { FILES_LISTED, STATE_SCHEMA_VERSION, type LoopState, type PlanState } from './types.js';

function boundLoop(loop: LoopState): LoopState {
  const iterations = loop.iterations.map((it) =>
    it.files_changed.length > FILES_LISTED ? { ...it, files_changed: it.files_changed.slice(0, FILES_LISTED), files_changed_count: it.files_changed_count ?? it.files_changed.length } : it,
  );
  const facts = loop.tree_facts;
  const tree_facts = facts && facts.files_changed.length > FILES_LISTED ? { ...facts, files_changed: facts.files_changed.slice(0, FILES_LISTED), files_changed_count: facts.files_changed.length } : facts;
  const handoff = loop.handoff && loop.handoff.files_changed.length > FILES_LISTED ? { ...loop.handoff, files_changed: loop.handoff.files_changed.slice(0, FILES_LISTED) } : loop.handoff;
  return { ...loop, iterations, tree_facts: tree_facts ?? null, handoff };
}

/** `state` (any version up to the current one) as the current version. */
export function migrateState(state: PlanState & { schema_version: number }): PlanState {
  if (state.schema_version >= STATE_SCHEMA_VERSION) return state;
  const tasks: Record<string, LoopState> = {};
  for (const [key, loop] of Object.entries(state.tasks)) tasks[/^\d+$/.test(key) ? `#${key}` : key] = boundLoop(loop);
  return { ...state, schema_version: STATE_SCHEMA_VERSION, tasks, plan: state.plan ? boundLoop(state.plan) : null };
}
