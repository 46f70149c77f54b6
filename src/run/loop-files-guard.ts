/**
 * The files in `.planning/ralf/` that bound and account for a task's loop (the engine's state,
 * the run's memory, the paths its agents touched) are ralf's, not the agent's. An agent that
 * deletes or rewrites them (`git clean -fdx`, `rm -rf .planning`, an edited iteration count)
 * would start its loop's count again on every iteration and never be stopped. So `ralf run`
 * reads them before each agent starts and writes back any the agent changed once it exits.
 * Files that did not exist before are left alone (the run may create them later).
 */
import { dirname, join, relative } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { ensureStateDir } from '../fs/inside-project.js';
import { readTextIfExists } from '../fs/read-if-exists.js';

export interface GuardedFile {
  path: string;
  /** The file's text before the agent started (null: it did not exist). */
  text: string | null;
}

function currentText(path: string): string | null | undefined {
  try {
    return readTextIfExists(path, { what: 'loop state file' });
  } catch {
    // A FIFO, a directory or a huge file where ralf's file was: not what ralf wrote.
    return undefined;
  }
}

export function captureLoopFiles(paths: string[]): GuardedFile[] {
  return paths.map((path) => ({ path, text: currentText(path) ?? null }));
}

export interface RestoreResult {
  /** Paths (relative to the project) written back. */
  restored: string[];
  /** Paths that could not be written back, with why (the agent left something ralf cannot replace). */
  failed: Array<{ path: string; message: string }>;
}

/**
 * Writes back every captured file the agent changed or removed. A link out of the project where
 * `.planning/ralf` was is refused (RalfError, exit 2), never written through.
 */
export function restoreLoopFiles(root: string, files: GuardedFile[]): RestoreResult {
  const out: RestoreResult = { restored: [], failed: [] };
  const stateDir = join(root, '.planning', 'ralf');
  for (const f of files) {
    if (f.text === null || currentText(f.path) === f.text) continue;
    const rel = relative(root, f.path);
    ensureStateDir(root, relative(stateDir, dirname(f.path)) || undefined);
    try {
      writeFileAtomic(f.path, f.text);
      out.restored.push(rel);
    } catch (err) {
      out.failed.push({ path: rel, message: (err as Error).message.split('\n')[0]! });
    }
  }
  return out;
}
