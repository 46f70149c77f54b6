import { basename, dirname, resolve } from 'node:path';

/**
 * A plan's id from its file name: `01-02-PLAN.md` → `01-02`, `09-03-FIX2-PLAN.md` →
 * `09-03-FIX2`, `34-PLAN.md` → `34`; a bare `PLAN.md` takes its directory's name.
 * The engine names state files by it and the plan model reports it, so it lives in one place.
 */
export function planIdFromPath(planPath: string): string {
  const abs = resolve(planPath);
  const name = basename(abs);
  if (/^PLAN\.md$/i.test(name)) return basename(dirname(abs));
  // Only GSD's `-PLAN.md` suffix goes: other tools' `fix_plan.md` and `IMPLEMENTATION_PLAN.md`
  // keep their whole stem (the id names their state file, commits and reports).
  const m = /^(.+)-PLAN\.md$/i.exec(name);
  if (m) return m[1]!;
  return name.replace(/\.(?:md|markdown)$/i, '');
}

/**
 * The id an older ralf gave the file: it cut any `PLAN.md` ending, so `fix_plan.md` was `fix_`.
 * The store still finds a loop recorded under it (store.ts, stateIdFor).
 */
export function legacyPlanIdFromPath(planPath: string): string {
  const name = basename(resolve(planPath));
  const m = /^(.*?)-?PLAN\.md$/i.exec(name);
  return m && m[1] ? m[1] : planIdFromPath(planPath);
}
