import { runGit } from './run-git.js';
import { literalPathspec, projectPathspecs, RALF_STATE_DIR } from './pathspec.js';

export type ChangeStatus = 'A' | 'M' | 'D' | 'R';

export interface FileChange {
  status: ChangeStatus;
  /** Path relative to the project root (the new path for a rename). */
  path: string;
  /** The old path of a rename. */
  old_path?: string;
  /** The mode after the change (`120000`: a symlink), where the diff read it. */
  new_mode?: string;
}

/**
 * Files that differ between two tree-ishes (trees or commits), as name-status with
 * rename detection, limited to `paths` (git pathspecs relative to `root`) when given.
 * Paths are relative to `root`; `.planning/ralf` is never included. An empty
 * `paths` list selects nothing.
 */
export async function changedFiles(
  root: string,
  fromTree: string,
  toTree: string,
  paths?: string[],
): Promise<FileChange[]> {
  const specs = projectPathspecs(paths);
  if (specs === null) return [];
  return parseNameStatus((await runGit(nameStatusArgs(fromTree, toTree, specs), { cwd: root })).stdout);
}

/** `git diff-tree` name-status with rename detection, root-relative paths. */
function nameStatusArgs(fromTree: string, toTree: string, specs: string[]): string[] {
  return ['diff-tree', '-r', '-z', '--name-status', '--find-renames', '--relative', '--no-ext-diff', fromTree, toTree, '--', ...specs];
}

function parseNameStatus(stdout: Buffer): FileChange[] {
  const fields = stdout.toString('utf8').split('\0');
  const changes: FileChange[] = [];
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++];
    if (!status) continue;
    const letter = status[0];
    if (letter === 'R' || letter === 'C') {
      const oldPath = fields[i++] ?? '';
      const newPath = fields[i++] ?? '';
      // A copy leaves the source in place: for us it is just a new file.
      changes.push(letter === 'R' ? { status: 'R', path: newPath, old_path: oldPath } : { status: 'A', path: newPath });
      continue;
    }
    const path = fields[i++] ?? '';
    changes.push({ status: letter === 'A' ? 'A' : letter === 'D' ? 'D' : 'M', path });
  }
  return changes;
}

/** `git diff-tree` raw output: modes and full blob ids, no rename detection, root-relative paths. */
function rawDiffArgs(fromTree: string, toTree: string, specs: string[]): string[] {
  return ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', '--relative', fromTree, toTree, '--', ...specs];
}

export interface RawChange {
  status: 'A' | 'M' | 'D' | 'T';
  path: string;
  old_mode: string;
  new_mode: string;
}

/** Raw diff (modes, no rename detection) between two tree-ishes; used by restore. */
export async function rawChanges(root: string, fromTree: string, toTree: string, paths?: string[]): Promise<RawChange[]> {
  const specs = projectPathspecs(paths);
  if (specs === null) return [];
  const r = await runGit(rawDiffArgs(fromTree, toTree, specs), { cwd: root });
  const fields = r.stdout.toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:100644 100644 <old sha> <new sha> M` then the path.
    const meta = (fields[i] ?? '').replace(/^:/, '').split(' ');
    const status = (meta[4] ?? 'M')[0] as RawChange['status'];
    changes.push({ status, path: fields[i + 1] ?? '', old_mode: meta[0] ?? '', new_mode: meta[1] ?? '' });
  }
  return changes;
}

/** One change of `treeDiff`, with the record git printed for it (modes, blob ids, status, paths). */
export interface TreeDiffEntry extends FileChange {
  record: string;
  /** The blob id after the change (`''` for a deletion). */
  new_blob: string;
}

/**
 * The whole project's diff between two tree-ishes in one git process: raw format (modes and
 * full blob ids, which determine the content diff exactly) with rename detection, so it
 * answers both "what changed" (as changedFiles does) and "did these files' content change".
 */
export async function treeDiff(root: string, fromTree: string, toTree: string): Promise<TreeDiffEntry[]> {
  const specs = projectPathspecs() ?? [];
  const r = await runGit(['diff-tree', '-r', '-z', '--raw', '--no-abbrev', '--find-renames', '--relative', fromTree, toTree, '--', ...specs], { cwd: root });
  const fields = r.stdout.toString('utf8').split('\0');
  const entries: TreeDiffEntry[] = [];
  for (let i = 0; i < fields.length; ) {
    const meta = fields[i++] ?? '';
    if (!meta.startsWith(':')) continue;
    // `:100644 100644 <old blob> <new blob> R087` then the path (two for renames and copies).
    const fieldsOfMeta = meta.split(' ');
    const letter = (fieldsOfMeta[4] ?? 'M')[0];
    const blob = fieldsOfMeta[3] ?? '';
    const newBlob = letter === 'D' || /^0+$/.test(blob) ? '' : blob;
    const mode = { new_mode: fieldsOfMeta[1] ?? '' };
    if (letter === 'R' || letter === 'C') {
      const oldPath = fields[i++] ?? '';
      const newPath = fields[i++] ?? '';
      const record = `${meta}\0${oldPath}\0${newPath}`;
      entries.push(letter === 'R' ? { status: 'R', path: newPath, old_path: oldPath, record, new_blob: newBlob, ...mode } : { status: 'A', path: newPath, record, new_blob: newBlob, ...mode });
      continue;
    }
    const path = fields[i++] ?? '';
    entries.push({ status: letter === 'A' ? 'A' : letter === 'D' ? 'D' : 'M', path, record: `${meta}\0${path}`, new_blob: newBlob, ...mode });
  }
  return entries;
}

/** The mode git prints for the side of a change where the path is absent. */
export const ABSENT_MODE = '000000';

/** Whether two tree entries (mode and blob) hold the same thing: the same mode, and the same blob unless the path is absent from both. */
export function sameEntry(a: { mode: string; blob: string }, b: { mode: string; blob: string }): boolean {
  return a.mode === b.mode && (a.mode === ABSENT_MODE || a.blob === b.blob);
}

/** One path's difference between two trees: modes and blob ids (`000000`/zeros: absent). */
export interface PathChange {
  path: string;
  old_mode: string;
  new_mode: string;
  old_blob: string;
  new_blob: string;
}

/**
 * Paths that differ between two trees (no rename detection: a rename is its two paths),
 * within `paths` (literal, root-relative) when given; `.planning/ralf/` never included.
 */
export async function pathChanges(root: string, fromTree: string, toTree: string, paths?: string[]): Promise<PathChange[]> {
  if (fromTree === toTree) return [];
  if (paths !== undefined && paths.length === 0) return [];
  const specs = paths === undefined ? ['.'] : paths.map(literalPathspec);
  const r = await runGit(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', '--relative', fromTree, toTree, '--', ...specs, `:(exclude)${RALF_STATE_DIR}`], { cwd: root });
  const fields = r.stdout.toString('utf8').split('\0');
  const out: PathChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:100644 100644 <old blob> <new blob> M` then the path.
    const [oldMode = '', newMode = '', oldBlob = '', newBlob = ''] = (fields[i] ?? '').replace(/^:/, '').split(' ');
    out.push({ path: fields[i + 1] ?? '', old_mode: oldMode, new_mode: newMode, old_blob: oldBlob, new_blob: newBlob });
  }
  return out;
}
