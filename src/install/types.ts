/**
 * Data shared by the install/uninstall planners (pure) and the apply step. Paths named
 * `rel` are POSIX paths relative to the install root (a host's config dir, or the
 * project's `.claude` / `.opencode` for --local).
 */
import type { Host, HostName } from '../hosts/host.js';
import type { SettingsHooksRecord } from './settings-hooks.js';

export type Scope = 'global' | 'local';

export interface InstallTarget {
  host: Host;
  scope: Scope;
  /** Absolute install root. */
  root: string;
  /** Why this root: `--config-dir`, `CLAUDE_CONFIG_DIR`, `default`, `--local`, ... */
  rootSource: string;
}

/** ralf's own directory inside the root: runtime, workflows, manifest, backups. */
export const RALF_DIR = 'ralf-lite';
export const MANIFEST_REL = `${RALF_DIR}/manifest.json`;
export const RUNTIME_ENTRY_REL = `${RALF_DIR}/ralf.js`;
export const BACKUPS_REL = `${RALF_DIR}/backups`;

export type FileKind = 'command' | 'workflow' | 'runtime' | 'plugin';

/** A file the install should leave at `rel` with exactly this content. */
export interface DesiredFile {
  rel: string;
  kind: FileKind;
  content: Uint8Array;
  executable: boolean;
}

/** What is at a path now. */
export interface PathState {
  kind: 'missing' | 'file' | 'dir' | 'other';
  /** sha256 (hex) of a file's bytes. */
  sha256?: string;
}

export interface ManifestFile {
  sha256: string;
  kind: FileKind;
  /** A file that was here before ralf installed this one, moved aside; uninstall puts it back. */
  replaced?: string;
}

export interface ManifestBackup {
  /** Where the copy is. */
  rel: string;
  /** The path it is a copy of. */
  of: string;
  /** `edited`: you changed a file ralf installed; `replaced`: a file ralf did not install was in the way. */
  reason: 'edited' | 'replaced';
  at: string;
}

/** `<root>/ralf-lite/manifest.json`: what ralf installed, so it never clobbers an edit and uninstalls exactly. */
export interface Manifest {
  schema_version: 1;
  tool: 'ralf-lite';
  version: string;
  host: HostName;
  scope: Scope;
  root: string;
  /** The command line the installed files use to run ralf. */
  runtime: string;
  installed_at: string;
  updated_at: string;
  files: Record<string, ManifestFile>;
  /** Directories (relative; `.` is the root) that did not exist before ralf created them. */
  created_dirs: string[];
  /** Parents of the root that did not exist either (absolute, outermost first), e.g. `~/.config`. */
  created_parents: string[];
  backups: ManifestBackup[];
  /** ralf's Stop/SubagentStop hook entries in the Claude Code settings file (absent: none). */
  settings_hooks?: SettingsHooksRecord | null;
}

/** What happens (or happened) to one file. */
export type FileAction =
  | 'created'
  | 'updated'
  | 'unchanged'
  /** You had edited it: your version was copied to `backup`, then it was updated. */
  | 'backed-up'
  /** A file ralf did not install was in the way: moved to `backup`, uninstall restores it. */
  | 'replaced'
  | 'removed'
  /** Put back from `backup` (the file that was there before ralf). */
  | 'restored'
  /** Left in place: you edited it (or it is no longer ralf's). */
  | 'kept'
  /** Listed in the manifest but already gone. */
  | 'missing';

export interface FileOp {
  rel: string;
  kind: FileKind | 'backup' | 'settings';
  action: FileAction;
  /** New content for created/updated/backed-up/replaced. */
  content?: Uint8Array;
  executable?: boolean;
  /** Backup path (backed-up, replaced: written; restored: read from). */
  backup?: string;
  /** Why, for kept files and backups. */
  note?: string;
}

export type DirAction = 'created' | 'removed' | 'kept';

export interface DirOp {
  rel: string;
  action: DirAction;
  note?: string;
}

export interface InstallPlan {
  mode: 'install';
  target: InstallTarget;
  /** Directories to create, parents first. */
  mkdirs: string[];
  /** Missing parents of the root that creating it creates too (absolute, outermost first). */
  mkparents: string[];
  files: FileOp[];
  manifest: Manifest;
  /** False when the manifest on disk already says exactly this (a no-op re-install). */
  manifestChanged: boolean;
  /**
   * Written before any file is touched (right after ralf's own directory exists): the
   * directories this install creates and the files it moves aside, so that after a kill
   * mid-install the next install or uninstall still knows them. Files being updated keep
   * their old entry until the final manifest. Null when nothing is written.
   */
  journal: Manifest | null;
  /** A manifest existed before (this is a re-install or an update). */
  hadManifest: boolean;
  warnings: string[];
  /** The Claude Code settings file change (hooks), applied after the files. */
  settings?: SettingsChange | null;
}

/** A settings file to rewrite or delete (install/uninstall of the Stop hook entries). */
export interface SettingsChange {
  rel: string;
  /** New text; null with `remove` false: leave it. */
  text: string | null;
  remove: boolean;
}

export interface UninstallPlan {
  mode: 'uninstall';
  target: InstallTarget;
  manifest: Manifest;
  files: FileOp[];
  /** Directories ralf created, deepest first; removed only if empty when the apply step reaches them. */
  rmdirs: string[];
  warnings: string[];
  settings?: SettingsChange | null;
}

/** What the apply step did (or, with --dry-run, would do). */
export interface TargetResult {
  target: InstallTarget;
  mode: 'install' | 'uninstall';
  files: FileOp[];
  dirs: DirOp[];
  manifest: { rel: string; action: 'created' | 'updated' | 'unchanged' | 'removed' | 'none' };
  runtime: string | null;
  commands: string[];
  warnings: string[];
}
