/**
 * Executes an install or uninstall plan. Every write is atomic (temp file + rename);
 * backups are written before the file they protect is replaced; the manifest is
 * written last on install and removed after the files on uninstall, so an
 * interrupted run can simply be run again. With `dryRun` nothing is touched and the
 * result says what would happen.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { serializeManifest } from './manifest.js';
import { absPath } from './snapshot.js';
import { MANIFEST_REL, type DirOp, type InstallPlan, type TargetResult, type UninstallPlan } from './types.js';

export interface ApplyContext {
  dryRun: boolean;
  /** Commands the target offers after install, for the output. */
  commands: string[];
}

export function applyInstall(plan: InstallPlan, ctx: ApplyContext): TargetResult {
  const { root } = plan.target;
  const dirs: DirOp[] = [...plan.mkparents.map((p) => ({ rel: relative(root, p).split(sep).join('/'), action: 'created' as const })), ...plan.mkdirs.map((rel) => ({ rel, action: 'created' as const }))];
  if (!ctx.dryRun) {
    // The root may need parents too (a fresh ~/.config); the plan recorded which.
    for (const rel of plan.mkdirs) mkdirSync(absPath(root, rel), { recursive: rel === '.' });
    for (const f of plan.files) {
      const full = absPath(root, f.rel);
      if (f.action === 'backed-up' || f.action === 'replaced') writeFileAtomic(absPath(root, f.backup!), readFileSync(full));
      if (f.action === 'restored') renameSync(absPath(root, f.backup!), full);
      if (f.action === 'removed') rmSync(full, { force: true });
      if (f.content && f.action !== 'unchanged' && f.action !== 'kept') {
        writeFileAtomic(full, f.content);
        chmodSync(full, f.executable ? 0o755 : 0o644);
      }
    }
    if (plan.manifestChanged) writeFileAtomic(absPath(root, MANIFEST_REL), serializeManifest(plan.manifest));
  }
  return {
    target: plan.target,
    mode: 'install',
    files: plan.files,
    dirs,
    manifest: { rel: MANIFEST_REL, action: !plan.manifestChanged ? 'unchanged' : plan.hadManifest ? 'updated' : 'created' },
    runtime: plan.manifest.runtime,
    commands: ctx.commands,
    warnings: plan.warnings,
  };
}

export function applyUninstall(plan: UninstallPlan, ctx: ApplyContext): TargetResult {
  const { root } = plan.target;
  const gone = new Set<string>(); // absolute paths removed (or, in a dry run, that would be)
  if (!ctx.dryRun) {
    for (const f of plan.files) {
      const full = absPath(root, f.rel);
      if (f.action === 'restored') renameSync(absPath(root, f.backup!), full);
      if (f.action === 'removed') rmSync(full, { force: true });
    }
    rmSync(absPath(root, MANIFEST_REL), { force: true });
  }
  for (const f of plan.files) {
    if (f.action === 'removed') gone.add(absPath(root, f.rel));
    if (f.action === 'restored') gone.add(absPath(root, f.backup!));
  }
  gone.add(absPath(root, MANIFEST_REL));

  const dirs: DirOp[] = [];
  for (const rel of plan.rmdirs) {
    const full = absPath(root, rel);
    let entries: string[];
    try {
      entries = readdirSync(full);
    } catch {
      continue; // already gone
    }
    const left = entries.filter((name) => !gone.has(join(full, name)));
    if (left.length > 0) {
      dirs.push({ rel, action: 'kept', note: `not empty: ${left.slice(0, 3).join(', ')}${left.length > 3 ? ', ...' : ''}` });
      continue;
    }
    if (!ctx.dryRun) {
      try {
        rmdirSync(full);
      } catch (err) {
        dirs.push({ rel, action: 'kept', note: `could not remove: ${(err as NodeJS.ErrnoException).code ?? String(err)}` });
        continue;
      }
    }
    gone.add(full);
    dirs.push({ rel, action: 'removed' });
  }
  return {
    target: plan.target,
    mode: 'uninstall',
    files: plan.files,
    dirs,
    manifest: { rel: MANIFEST_REL, action: 'removed' },
    runtime: null,
    commands: ctx.commands,
    warnings: plan.warnings,
  };
}
