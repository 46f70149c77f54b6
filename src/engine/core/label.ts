/** `Task 3: Add login` → `Add login` (GSD task names often repeat the number). */
export function bareTaskName(n: number | null, name: string): string {
  if (n === null) return name;
  const stripped = name.replace(new RegExp(`^\\s*task\\s*${n}\\s*[:.)\\-–—]\\s*`, 'i'), '');
  return stripped === '' ? name : stripped;
}

/** `Task 3 "Add login"`, or just `Task 3` when the plan gives no other name. */
export function taskTitle(n: number, name: string): string {
  const bare = bareTaskName(n, name);
  return /^\s*task\s*\d+\s*$/i.test(bare) ? `Task ${n}` : `Task ${n} "${bare}"`;
}
