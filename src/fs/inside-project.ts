/**
 * Never write through a symbolic link that leaves the project: a SUMMARY.md committed as a
 * relative link to `../../somewhere`, a `.planning/ralf` linked to another directory, a
 * `.claude/ralf-lite` link planted before an install. Links that stay inside are followed
 * as usual. The refusal names the link and never suggests deleting anything behind it.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

export interface OutsideLink {
  /** The link (absolute path). */
  link: string;
  /** Where it points (resolved; may not exist). */
  target: string;
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The first existing component of `path` (from `root` down, `path` itself included) that is
 * a symbolic link resolving outside `root`; null when there is none. Components that do not
 * exist yet end the walk (ralf creates them as real directories and files).
 */
export function linkOutside(root: string, path: string): OutsideLink | null {
  const base = resolve(root);
  const realRoot = realOrSelf(base);
  const rel = relative(base, resolve(path));
  if (rel.startsWith('..') || isAbsolute(rel)) return null;
  let current = base;
  for (const part of rel.split(sep).filter(Boolean)) {
    current = join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return null;
    }
    if (!isLink) continue;
    let target: string;
    try {
      target = realpathSync(current);
    } catch {
      // Dangling (or a loop): where it says it points.
      let to = current;
      try {
        to = resolve(dirname(current), readlinkSync(current));
      } catch {
        /* keep the link itself */
      }
      target = to;
    }
    if (!inside(realRoot, target)) return { link: current, target };
  }
  return null;
}

/** Throws (exit 2) when writing `path` would go through a link out of `root`. */
export function refuseLinkOutside(root: string, path: string, what: string): void {
  const out = linkOutside(root, path);
  if (!out) return;
  throw new RalfError('symlink_outside', `${out.link} is a symbolic link to ${out.target}, outside ${resolve(root)}; ralf does not write ${what} through it`, {
    exitCode: ExitCode.badInput,
    problems: [
      {
        file: out.link,
        message: `symbolic link to ${out.target}, outside the project`,
        hint: `Replace the link with a real file or directory inside the project: move the link aside (\`mv ${shellWord(out.link)} ${shellWord(`${out.link}.link`)}\`) and run again; what it points to is left as it is.`,
      },
    ],
  });
}

/**
 * Creates `<root>/.planning/ralf` (real directories) after refusing a link out of the project.
 * Checked on every call, never remembered: `ralf run` and the OpenCode plugin live for hours,
 * and an agent may replace the directory with a link meanwhile (the check is a few lstat calls).
 * The directory ignores itself (a `.gitignore` of `*`, as pytest's and mypy's caches do), so an
 * agent's `git add -A`, `git stash -u` or `git clean -fd` leaves the loop's state alone.
 */
export function ensureStateDir(root: string, sub?: string): string {
  const top = join(root, '.planning', 'ralf');
  const dir = sub ? join(top, sub) : top;
  refuseLinkOutside(root, dir, 'loop state');
  mkdirRecursive(dir);
  const ignore = join(top, '.gitignore');
  if (!existsSync(ignore)) {
    try {
      writeFileSync(ignore, "# ralf-lite's loop state and logs, kept out of git (`git add -f` adds a file anyway)\n*\n", { flag: 'wx' });
    } catch {
      // Another process wrote it first, or the directory is read-only: state works without it.
    }
  }
  return dir;
}

/**
 * `mkdir -p`, with the real reason when it fails: Node's recursive mkdir reports ENOENT on a
 * read-only file system (EROFS) and for other failures of a missing parent, so the failing
 * component is created again on its own to get the error that names it.
 */
export function mkdirRecursive(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const parts = resolve(dir).split(sep);
    for (let i = 2; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join(sep);
      try {
        lstatSync(prefix);
      } catch {
        mkdirSync(prefix); // throws with this component's own error (EROFS, EACCES, ...)
      }
    }
    throw err;
  }
}

function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
