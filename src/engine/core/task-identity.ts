/**
 * A task's identity in the loop state (the shared design for GSD tasks and seed items):
 * `id:<id attribute>` when the task has one, else `name:<slug of its name>` without the
 * `Task N:` prefix (so inserting a task does not rename the others), with `#2`, `#3` for
 * duplicate names in the plan. Loops follow their task when tasks are inserted or reordered;
 * a new plan with the same file name never inherits another task's loop.
 */
import { slugOf, uniqueIds } from '../../formats/item-identity.js';
import { bareTaskName } from './label.js';

export interface IdentifiedTask {
  number: number;
  name: string;
  attributes?: Record<string, string>;
}

function baseKey(t: IdentifiedTask): string {
  const id = t.attributes?.id;
  if (id !== undefined && id.trim() !== '') return `id:${id.trim()}`;
  return `name:${slugOf(bareTaskName(t.number, t.name))}`;
}

/** Task number → key, for every task of the plan (in plan order). */
export function taskKeys(tasks: readonly IdentifiedTask[]): Map<number, string> {
  const keys = uniqueIds(tasks.map(baseKey));
  return new Map(tasks.map((t, i) => [t.number, keys[i]!]));
}

/** The key of task `n` in `tasks`; `#<n>` when the plan has no such task (state written without the plan). */
export function taskKeyOf(tasks: readonly IdentifiedTask[] | null, n: number): string {
  return (tasks ? taskKeys(tasks).get(n) : undefined) ?? `#${n}`;
}
