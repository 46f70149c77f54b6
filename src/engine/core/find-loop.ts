/** Finding a loop in a plan's state (pure): by task identity, by number, or the plan-level loop. */
import { newestFirst } from '../../compare-text.js';
import { slugOf } from '../../formats/item-identity.js';
import { bareTaskName } from './label.js';
import type { LoopState, PlanState } from './types.js';

/** The loop of task `taskNumber` (by its identity key when known), or the plan-level loop for `null`. */
export function loopOf(state: PlanState | null, taskNumber: number | null, key?: string): LoopState | null {
  return findLoop(state, taskNumber === null ? 'plan' : 'task', taskNumber, key)?.loop ?? null;
}

/**
 * The loop of a task: by its identity key when the caller knows it (it parsed the plan), else
 * by task number. A loop migrated from schema 1 (`#<n>`) is adopted by the task now at that
 * position when their names agree; a loop filed under another identity is never inherited.
 */
export function findLoop(state: PlanState | null, scope: 'task' | 'plan', taskNumber: number | null, key?: string): { key: string; loop: LoopState } | null {
  if (!state) return null;
  if (scope === 'plan') return state.plan ? { key: 'plan', loop: state.plan } : null;
  const n = taskNumber ?? 0;
  if (key !== undefined) {
    const own = state.tasks[key];
    if (own) return { key, loop: own };
    const legacy = state.tasks[`#${n}`];
    return legacy && sameName(legacy, n, key) ? { key: `#${n}`, loop: legacy } : null;
  }
  // No plan at hand (reset, ralf run events): the most recent loop recorded for this number.
  const byNumber = Object.entries(state.tasks)
    .filter(([, l]) => l.task_number === n)
    .sort(([, a], [, b]) => newestFirst(a, b));
  const hit = byNumber[0];
  return hit ? { key: hit[0], loop: hit[1] } : null;
}

function sameName(loop: LoopState, n: number, key: string): boolean {
  if (!key.startsWith('name:')) return true; // an id: key says nothing about the old name
  return `name:${slugOf(bareTaskName(n, loop.task_name))}` === key.replace(/#\d+$/, '');
}

/** Loops of tasks that are no longer in the plan (it was edited under them), for messages. */
export function orphanLoops(state: PlanState | null, keys: ReadonlySet<string>): LoopState[] {
  if (!state) return [];
  return Object.entries(state.tasks)
    .filter(([k, l]) => !keys.has(k) && !k.startsWith('#') && (l.status === 'running' || l.status === 'stopped'))
    .map(([, l]) => l);
}
