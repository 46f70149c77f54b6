import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The nearest directory at or above `start` that holds `.planning/`. The search stops at a
 * repository root (a directory with `.git`) so an unrelated ~/.planning is never picked up.
 */
export function findProjectRoot(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (isDirectory(join(dir, '.planning'))) return dir;
    if (existsSync(join(dir, '.git'))) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
