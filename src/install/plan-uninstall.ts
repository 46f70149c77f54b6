/**
 * The uninstall plan, from the manifest and the current state of the files it lists
 * (pure). Removes exactly what ralf installed and you did not edit; puts back files
 * ralf moved aside; keeps your edits (and their backups) and says so; removes the
 * manifest; then removes the directories ralf created, deepest first, if empty.
 */
import { relative, sep } from 'node:path';
import { byDepth } from './plan-install.js';
import type { FileOp, InstallTarget, Manifest, PathState, UninstallPlan } from './types.js';

export interface UninstallPlanInput {
  target: InstallTarget;
  manifest: Manifest;
  /** State of every file and backup the manifest lists. */
  paths: Record<string, PathState>;
}

/** Every path an uninstall plan must know the state of: what the manifest installed, moved aside or backed up. */
export function uninstallPathsToInspect(manifest: Manifest): Set<string> {
  const rels = new Set<string>(Object.keys(manifest.files));
  for (const entry of Object.values(manifest.files)) if (entry.replaced) rels.add(entry.replaced);
  for (const b of manifest.backups) rels.add(b.rel);
  return rels;
}

export function planUninstall(input: UninstallPlanInput): UninstallPlan {
  const { target, manifest } = input;
  const state = (rel: string): PathState => input.paths[rel] ?? { kind: 'missing' };
  const files: FileOp[] = [];
  const warnings: string[] = [];
  const restored = new Set<string>();

  for (const [rel, entry] of Object.entries(manifest.files).sort(([a], [b]) => a.localeCompare(b))) {
    const st = state(rel);
    if (st.kind === 'missing') {
      files.push({ rel, kind: entry.kind, action: 'missing' });
    } else if (st.kind === 'file' && st.sha256 === entry.sha256) {
      if (entry.replaced && state(entry.replaced).kind === 'file') {
        files.push({ rel, kind: entry.kind, action: 'restored', backup: entry.replaced, note: 'the file that was here before ralf-lite' });
        restored.add(entry.replaced);
      } else {
        files.push({ rel, kind: entry.kind, action: 'removed' });
      }
    } else {
      const extra = entry.replaced ? `; the file that was here before is at ${entry.replaced}` : '';
      files.push({ rel, kind: entry.kind, action: 'kept', note: `you edited it since it was installed: left in place${extra}` });
      warnings.push(`${rel}: kept because you edited it (delete it yourself if you no longer need it)${extra}`);
    }
  }
  // Copies of your edits made by earlier re-installs are yours: they stay.
  for (const b of manifest.backups) {
    if (restored.has(b.rel) || state(b.rel).kind !== 'file') continue;
    files.push({ rel: b.rel, kind: 'backup', action: 'kept', note: `backup of ${b.of} (${b.reason === 'edited' ? 'your edit' : 'the file ralf replaced'}, ${b.at})` });
    warnings.push(`${b.rel}: kept (a backup of ${b.of} made on ${b.at}); delete it when you no longer need it`);
  }

  // Then the root's parents ralf created (e.g. ~/.config), as paths relative to the root.
  const parents = [...manifest.created_parents].sort((a, b) => b.length - a.length).map((p) => relative(target.root, p).split(sep).join('/'));
  const rmdirs = [...[...manifest.created_dirs].sort(byDepth).reverse(), ...parents];
  return { mode: 'uninstall', target, manifest, files, rmdirs, warnings };
}
