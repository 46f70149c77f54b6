/**
 * The loop of task `n` in a plan state. State keys task loops by identity (`id:<id>`,
 * `name:<slug>`, src/engine/task-identity.ts), so tests find a task's loop by its number.
 */
export function taskLoop(state: any, n: number): any {
  return Object.values((state?.tasks ?? {}) as Record<string, { task_number: number | null }>).find((l) => l.task_number === n);
}
