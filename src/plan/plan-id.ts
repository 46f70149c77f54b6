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
  const m = /^(.*?)-?PLAN\.md$/i.exec(name);
  if (m && m[1]) return m[1];
  return name.replace(/\.(?:md|markdown)$/i, '');
}
