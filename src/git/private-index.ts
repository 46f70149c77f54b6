import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { copyKeepingTimes, removeDeadWritersIndexes, tempIndexName } from './temp-index.js';

/**
 * The snapshot's own index, kept in the git dir between verifies: git's stat cache for the
 * working tree as ralf last saw it (untracked files included), so a snapshot re-reads only
 * the files whose stat data changed instead of every file git does not track.
 */
export const PRIVATE_INDEX = 'ralf-snapshot-index';
/** `<tree> <inode> <size> <mtime>` of the private index as the last snapshot kept it. */
const KNOWN_TREE = `${PRIVATE_INDEX}.tree`;

export interface WorkIndex {
  /** The file to pass as `GIT_INDEX_FILE`. */
  file: string;
  /** First snapshot in this git dir: the work index started as a copy of the user's index. */
  seeded: boolean;
  /**
   * The tree of this index when it is exactly the one a snapshot kept (same inode, size and
   * mtime: an index is never changed in place), else null. Saves `git write-tree` (another
   * full read of the index) when nothing changed, e.g. the snapshot after the checks.
   */
  knownTree(): string | null;
  /** Makes this snapshot's index, whose tree is `tree`, the private index (after git succeeded). */
  keep(tree: string): void;
  /** Removes the work index and git's lock beside it (always, in a `finally`). */
  discard(): void;
}

/**
 * A work index for one snapshot: the private index under a name of its own (a hard link: no
 * copy, whatever the repository's size). git never writes an index in place (it writes
 * `<file>.lock` and renames it over `<file>`), so the private index itself is only ever
 * replaced by `keep()`'s rename. A kill -9 at any point therefore leaves the old or the new
 * private index and no lock on it; what it leaves is a work index (and maybe git's lock
 * beside it) under this process's name, which a later snapshot removes. Concurrent
 * snapshots each work on their own name; the last rename wins, and both are valid caches.
 * The user's index (`realIndex`) is only read, once, to seed the private index.
 */
export function openWorkIndex(realIndex: string): WorkIndex {
  const gitDir = dirname(realIndex);
  removeDeadWritersIndexes(gitDir);
  const privateIndex = join(gitDir, PRIVATE_INDEX);
  const file = join(gitDir, tempIndexName());
  let seeded = false;
  try {
    linkSync(privateIndex, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      seeded = true;
      copyKeepingTimes(realIndex, file);
    } else {
      copyKeepingTimes(privateIndex, file); // a file system without hard links
    }
  }
  const knownTreePath = join(gitDir, KNOWN_TREE);
  return {
    file,
    seeded,
    knownTree: () => {
      if (seeded) return null;
      try {
        const [tree, ...id] = readFileSync(knownTreePath, 'utf8').trim().split(' ');
        return tree && id.join(' ') === identity(statSync(file)) ? tree : null;
      } catch {
        return null;
      }
    },
    keep: (tree) => {
      let st: Stats;
      try {
        st = statSync(file);
      } catch (err) {
        // No index was written at all (an empty repository with nothing to add).
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      // When git did not rewrite the index, `file` is still a link to the private index
      // and the rename does nothing; discard() then removes the extra name.
      renameSync(file, privateIndex);
      // Described by what was stat'ed before the rename: if another snapshot's rename won,
      // the description does not match the private index and is simply not used.
      const tmp = `${file}.tree`;
      writeFileSync(tmp, `${tree} ${identity(st)}\n`);
      renameSync(tmp, knownTreePath);
    },
    discard: () => {
      rmSync(file, { force: true });
      rmSync(`${file}.lock`, { force: true });
      rmSync(`${file}.tree`, { force: true });
    },
  };
}

/** Drops the private index (a cache): the next snapshot seeds a new one from the user's index. */
export function forgetPrivateIndex(realIndex: string): void {
  const gitDir = dirname(realIndex);
  rmSync(join(gitDir, PRIVATE_INDEX), { force: true });
  rmSync(join(gitDir, KNOWN_TREE), { force: true });
}

function identity(st: Stats): string {
  return `${st.ino} ${st.size} ${st.mtimeMs}`;
}
