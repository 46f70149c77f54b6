/** The loop's own state directory: never snapshotted, diffed, guarded or restored. */
export const RALF_STATE_DIR = '.planning/ralf';

/** Pathspec excluding the loop's state (relative to the project root, the git cwd). */
export const EXCLUDE_RALF_STATE = `:(exclude)${RALF_STATE_DIR}`;

/**
 * Pathspecs for git commands run with cwd = project root: the given paths (or the
 * whole project) minus `.planning/ralf`. Returns null for an empty list: limiting
 * to no paths selects nothing (callers short-cut instead of diffing everything).
 */
export function projectPathspecs(paths?: string[]): string[] | null {
  if (paths === undefined) return ['.', EXCLUDE_RALF_STATE];
  const cleaned = paths.map(normalizeRelPath).filter((p) => p !== '');
  if (cleaned.length === 0) return null;
  return [...cleaned, EXCLUDE_RALF_STATE];
}

/** `./src//a.ts` → `src/a.ts`; backslashes become slashes; a trailing slash is dropped; `./` stays `.`. */
export function normalizeRelPath(path: string): string {
  let p = path.trim().replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  while (p.startsWith('./') && p.length > 2) p = p.slice(2);
  if (p === './') p = '.';
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/**
 * A path as a pathspec that matches exactly that path (or, for a directory, what is under
 * it): `:(literal)` turns off glob characters, so a file named `*` is that file.
 */
export function literalPathspec(path: string): string {
  // Not normalizeRelPath: spaces at either end are part of a file's name.
  let p = path.replace(/\/{2,}/g, '/');
  while (p.startsWith('./') && p.length > 2) p = p.slice(2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return `:(literal)${p}`;
}

/**
 * A path as a person reads it in a printed git command: as it is, unless git would read it as a
 * pattern (`*`, `?`, `[`, `\`) or as magic (a leading `:`); then `literalPathspec`.
 */
export function readablePathspec(path: string): string {
  return /[*?[\]\\]|^:/.test(path) ? literalPathspec(path) : path;
}
