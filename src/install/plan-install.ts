/**
 * The install plan: which directories and files to create, update, back up or leave
 * alone, computed from the inputs only (no fs, no clock). The apply step executes it.
 *
 * Safety rules:
 * - a file equal to what ralf would write is `unchanged` (re-install writes nothing);
 * - a file ralf installed and you did not touch (hash = manifest) is `updated`;
 * - a file ralf installed and you edited is copied to ralf-lite/backups/ first (`backed-up`);
 * - a file ralf did not install is moved aside (`replaced`); uninstall puts it back;
 * - only files listed in the new manifest are ever written; nothing else in the root is touched.
 */
import { createHash } from 'node:crypto';
import { RalfError, type Problem } from '../errors.js';
import { BACKUPS_REL, RALF_DIR, type DesiredFile, type FileOp, type InstallPlan, type InstallTarget, type Manifest, type ManifestBackup, type ManifestFile, type PathState } from './types.js';

export interface InstallPlanInput {
  target: InstallTarget;
  version: string;
  runtime: string;
  /** ISO time; also names the backup directory. */
  now: string;
  desired: DesiredFile[];
  /** State of: every desired path, every path in the old manifest, and every ancestor directory (`.` = root). */
  paths: Record<string, PathState>;
  /** Missing parents of the root (absolute, outermost first); created with it. */
  missingRootParents?: string[];
  manifest: Manifest | null;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `a/b/c.md` → [`.`, `a`, `a/b`]. */
export function ancestors(rel: string): string[] {
  const parts = rel.split('/').slice(0, -1);
  return ['.', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

/**
 * Every path an install plan must know the state of: the files to install and their parent
 * directories, where their backups would go, and what the manifest says was installed or
 * moved aside before. `ralf install` snapshots exactly these before planning.
 */
export function pathsToInspect(desired: ReadonlyArray<{ rel: string }>, manifest: Manifest | null, now: string): Set<string> {
  const stamp = `${BACKUPS_REL}/${backupStamp(now)}`;
  const rels = new Set<string>();
  for (const f of desired) {
    rels.add(f.rel);
    for (const a of ancestors(f.rel)) rels.add(a);
    for (const a of ancestors(`${stamp}/${f.rel}`)) rels.add(a);
  }
  for (const [rel, entry] of Object.entries(manifest?.files ?? {})) {
    rels.add(rel);
    if (entry.replaced) rels.add(entry.replaced);
  }
  return rels;
}

export function backupStamp(now: string): string {
  return now.replace(/[:.]/g, '-');
}

export function planInstall(input: InstallPlanInput): InstallPlan {
  const { target, desired, paths, manifest: old, now } = input;
  const state = (rel: string): PathState => paths[rel] ?? { kind: 'missing' };
  const conflicts: Problem[] = [];
  const files: FileOp[] = [];
  const entries: Record<string, ManifestFile> = {};
  const backups: ManifestBackup[] = [...(old?.backups ?? [])];
  const warnings: string[] = [];
  const backupDir = `${BACKUPS_REL}/${backupStamp(now)}`;
  const needDirs = new Set<string>();

  for (const d of desired) {
    const st = state(d.rel);
    const hash = sha256(d.content);
    const prev = old?.files[d.rel];
    const entry: ManifestFile = { sha256: hash, kind: d.kind, ...(prev?.replaced ? { replaced: prev.replaced } : {}) };
    for (const a of ancestors(d.rel)) needDirs.add(a);
    if (st.kind === 'dir' || st.kind === 'other') {
      conflicts.push({ file: `${target.root}/${d.rel}`, message: `ralf needs to write a file here, but there is a ${st.kind === 'dir' ? 'directory' : 'non-regular file'}`, hint: 'move it away and run the install again' });
      continue;
    }
    entries[d.rel] = entry;
    const write = { rel: d.rel, kind: d.kind, content: d.content, executable: d.executable };
    // An install killed before it moved this user's file aside left the file in place and
    // the journal pointing at a backup that is missing (or holds this very file).
    const aside = prev?.replaced ? state(prev.replaced) : null;
    const pendingReplace = aside !== null && (aside.kind !== 'file' || aside.sha256 === st.sha256);
    if (st.kind === 'missing') files.push({ ...write, action: 'created' });
    else if (st.sha256 === hash) files.push({ rel: d.rel, kind: d.kind, action: 'unchanged' });
    else if (prev && !pendingReplace && st.sha256 === prev.sha256) files.push({ ...write, action: 'updated' });
    else if (pendingReplace && aside.kind === 'file') {
      // Its backup was written already: write it again (same bytes), then replace the file.
      files.push({ ...write, action: 'replaced', backup: prev!.replaced!, note: 'it was not installed by ralf; moved to the backup, `ralf uninstall` puts it back' });
    } else {
      const backup = `${backupDir}/${d.rel}`;
      for (const a of ancestors(backup)) needDirs.add(a);
      const reason = prev && !pendingReplace ? 'edited' : 'replaced';
      if (pendingReplace) backups.splice(0, backups.length, ...backups.filter((b) => b.rel !== prev!.replaced));
      backups.push({ rel: backup, of: d.rel, reason, at: now });
      if (reason === 'replaced') entry.replaced = backup;
      files.push({
        ...write,
        action: reason === 'edited' ? 'backed-up' : 'replaced',
        backup,
        note: reason === 'edited' ? 'you had edited it; your version was saved to the backup' : 'it was not installed by ralf; moved to the backup, `ralf uninstall` puts it back',
      });
    }
  }
  if (conflicts.length > 0) {
    throw new RalfError('install_conflict', `cannot install into ${target.root}: ${conflicts.length} path(s) are in the way`, { problems: conflicts });
  }

  // Files an earlier version installed that this one no longer ships.
  for (const [rel, prev] of Object.entries(old?.files ?? {})) {
    if (entries[rel]) continue;
    const st = state(rel);
    if (st.kind === 'missing') continue;
    if (st.kind === 'file' && st.sha256 === prev.sha256) {
      if (prev.replaced && state(prev.replaced).kind === 'file') files.push({ rel, kind: prev.kind, action: 'restored', backup: prev.replaced });
      else files.push({ rel, kind: prev.kind, action: 'removed' });
    } else {
      files.push({ rel, kind: prev.kind, action: 'kept', note: 'no longer part of ralf-lite, but you edited it: left in place' });
      warnings.push(`${rel}: no longer installed by ralf-lite; left in place because you edited it`);
    }
  }

  const mkdirs = [...needDirs].filter((d) => state(d).kind === 'missing').sort(byDepth);
  for (const d of [...needDirs]) {
    const k = state(d).kind;
    if (k === 'file' || k === 'other') throw new RalfError('install_conflict', `cannot install into ${target.root}: ${d} is not a directory`, { problems: [{ file: `${target.root}/${d}`, message: 'expected a directory', hint: 'move it away and run the install again' }] });
  }
  // ralf's own directory without a manifest is what an install killed before its journal leaves.
  const orphanOwnDir = old === null && state(RALF_DIR).kind === 'dir' ? [RALF_DIR] : [];
  const createdDirs = [...new Set([...(old?.created_dirs ?? []), ...mkdirs, ...orphanOwnDir])].sort(byDepth);
  const newParents = mkdirs.includes('.') ? (input.missingRootParents ?? []) : [];
  const createdParents = [...new Set([...(old?.created_parents ?? []), ...newParents])].sort((a, b) => a.length - b.length || a.localeCompare(b));

  const sortedEntries = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
  const draft: Manifest = {
    schema_version: 1,
    tool: 'ralf-lite',
    version: input.version,
    host: target.host.name,
    scope: target.scope,
    root: target.root,
    runtime: input.runtime,
    installed_at: old?.installed_at ?? now,
    updated_at: now,
    files: sortedEntries,
    created_dirs: createdDirs,
    created_parents: createdParents,
    backups,
    ...(old?.settings_hooks ? { settings_hooks: old.settings_hooks } : {}),
  };
  const fileChanges = files.some((f) => f.action !== 'unchanged');
  const sameAsOld = old !== null && !fileChanges && canonical(old) === canonical(draft);
  const manifest = orderManifest({ ...draft, updated_at: sameAsOld ? old.updated_at : now });
  const journal = fileChanges || mkdirs.length > 0 ? journalOf(manifest, files, old) : null;
  return { mode: 'install', target, mkdirs, mkparents: newParents, files, manifest, manifestChanged: !sameAsOld, hadManifest: old !== null, warnings, journal };
}

/**
 * The manifest to write before touching files: the final one, except that files being
 * updated or removed keep their old entries (until then the old content is still there,
 * and it is what a later uninstall must recognise as ralf's).
 */
function journalOf(manifest: Manifest, files: FileOp[], old: Manifest | null): Manifest {
  const entries: Record<string, ManifestFile> = { ...manifest.files };
  for (const f of files) {
    const prev = old?.files[f.rel];
    if (prev && (f.action === 'updated' || f.action === 'removed' || f.action === 'restored')) entries[f.rel] = prev;
  }
  return { ...manifest, files: Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Parents before children; ties by name. */
export function byDepth(a: string, b: string): number {
  const da = a === '.' ? 0 : a.split('/').length;
  const db = b === '.' ? 0 : b.split('/').length;
  return da - db || a.localeCompare(b);
}

/** The manifest with its keys in one fixed order (readable diffs, stable comparison). */
export function orderManifest(m: Manifest): Manifest {
  return {
    schema_version: m.schema_version,
    tool: m.tool,
    version: m.version,
    host: m.host,
    scope: m.scope,
    root: m.root,
    runtime: m.runtime,
    installed_at: m.installed_at,
    updated_at: m.updated_at,
    files: m.files,
    created_dirs: m.created_dirs,
    created_parents: m.created_parents,
    backups: m.backups,
    ...(m.settings_hooks ? { settings_hooks: m.settings_hooks } : {}),
  };
}

function canonical(m: Manifest): string {
  return JSON.stringify(orderManifest({ ...m, updated_at: '' }));
}
