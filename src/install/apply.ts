/**
 * Executes an install or uninstall plan. Every write is atomic (temp file + rename);
 * backups are written before the file they protect is replaced; the manifest is
 * written last on install and removed after the files on uninstall, so an
 * interrupted run can simply be run again. With `dryRun` nothing is touched and the
 * result says what would happen.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { deadWriterTemps, writeFileAtomic } from '../fs/atomic-write.js';
import { refuseLinkOutside } from '../fs/inside-project.js';
import { serializeManifest } from './manifest.js';
import { absPath } from './snapshot.js';
import { MANIFEST_REL, RALF_DIR, type DirOp, type SettingsChange, type InstallPlan, type TargetResult, type UninstallPlan } from './types.js';

export interface ApplyContext {
  dryRun: boolean;
  /** Commands the target offers after install, for the output. */
  commands: string[];
}

/** Every path the plan writes or removes, checked for a symbolic link out of the config dir (exit 2, nothing done). */
function refuseLinksOut(root: string, rels: string[]): void {
  for (const rel of rels) refuseLinkOutside(root, absPath(root, rel), 'installed files');
}

export function applyInstall(plan: InstallPlan, ctx: ApplyContext): TargetResult {
  const { root } = plan.target;
  refuseLinksOut(root, [...plan.mkdirs, ...plan.files.flatMap((f) => [f.rel, ...(f.backup ? [f.backup] : [])]), MANIFEST_REL]);
  const dirs: DirOp[] = [...plan.mkparents.map((p) => ({ rel: relative(root, p).split(sep).join('/'), action: 'created' as const })), ...plan.mkdirs.map((rel) => ({ rel, action: 'created' as const }))];
  if (!ctx.dryRun) {
    // The root may need parents too (a fresh ~/.config); the plan recorded which. The root
    // and ralf's own directory first, then the journal, so that a kill from here on leaves a
    // record of what this install creates and moves aside (see InstallPlan.journal).
    const own = (rel: string) => rel === '.' || rel === RALF_DIR;
    for (const rel of plan.mkdirs.filter(own)) mkdirSync(absPath(root, rel), { recursive: rel === '.' });
    if (plan.journal) writeFileAtomic(absPath(root, MANIFEST_REL), serializeManifest(plan.journal));
    for (const rel of plan.mkdirs.filter((r) => !own(r))) mkdirSync(absPath(root, rel));
    for (const f of plan.files) {
      if (f.kind === 'settings') continue; // applied below (plan.settings)
      const full = absPath(root, f.rel);
      if (f.action === 'backed-up' || f.action === 'replaced') writeFileAtomic(absPath(root, f.backup!), readFileSync(full));
      if (f.action === 'restored') renameSync(absPath(root, f.backup!), full);
      if (f.action === 'removed') rmSync(full, { force: true });
      // The mode is set on the temp file: a kill cannot leave the content without it.
      if (f.content && f.action !== 'unchanged' && f.action !== 'kept') writeFileAtomic(full, f.content, { mode: f.executable ? 0o755 : 0o644 });
    }
    if (plan.settings) applySettings(root, plan.settings);
    if (plan.manifestChanged) writeFileAtomic(absPath(root, MANIFEST_REL), serializeManifest(plan.manifest));
    // Temp files of an earlier install killed mid-write would keep uninstall from restoring the tree.
    for (const rel of [...plan.files.map((f) => f.rel), MANIFEST_REL]) removeDeadTemps(absPath(root, rel));
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

function applySettings(root: string, change: SettingsChange): void {
  const full = absPath(root, change.rel);
  if (change.remove) rmSync(full, { force: true });
  else if (change.text !== null) writeFileAtomic(full, change.text);
}

/** Removes the temp files dead writers left beside `path` (see deadWriterTemps). */
function removeDeadTemps(path: string): void {
  for (const temp of deadWriterTemps(dirname(path), basename(path))) rmSync(temp, { force: true });
}

export function applyUninstall(plan: UninstallPlan, ctx: ApplyContext): TargetResult {
  const { root } = plan.target;
  refuseLinksOut(root, [...plan.files.flatMap((f) => [f.rel, ...(f.backup ? [f.backup] : [])]), MANIFEST_REL]);
  const gone = new Set<string>(); // absolute paths removed (or, in a dry run, that would be)
  if (!ctx.dryRun) {
    for (const f of plan.files) {
      if (f.kind === 'settings') continue; // applied below (plan.settings)
      const full = absPath(root, f.rel);
      if (f.action === 'restored') renameSync(absPath(root, f.backup!), full);
      if (f.action === 'removed') rmSync(full, { force: true });
    }
    if (plan.settings) applySettings(root, plan.settings);
    rmSync(absPath(root, MANIFEST_REL), { force: true });
    for (const rel of [...plan.files.map((f) => f.rel), MANIFEST_REL]) removeDeadTemps(absPath(root, rel));
  }
  for (const f of plan.files) {
    if (f.kind === 'settings') continue;
    if (f.action === 'removed') gone.add(absPath(root, f.rel));
    if (f.action === 'restored') gone.add(absPath(root, f.backup!));
  }
  gone.add(absPath(root, MANIFEST_REL));
  if (plan.settings?.remove) gone.add(absPath(root, plan.settings.rel));

  const dirs: DirOp[] = [];
  for (const rel of plan.rmdirs) {
    const full = absPath(root, rel);
    let entries: string[];
    try {
      entries = readdirSync(full);
    } catch {
      continue; // already gone
    }
    // In a directory ralf created, any temp file of a dead ralf writer is ralf's debris.
    for (const temp of deadWriterTemps(full)) {
      if (!ctx.dryRun) rmSync(temp, { force: true });
      gone.add(temp);
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
