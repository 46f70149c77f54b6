/**
 * The machine edge of plan reading: which program names resolve here. A name resolves when an
 * executable file of that name is in a PATH directory or in a `node_modules/.bin` at or above
 * the project directory (what `npx` and npm scripts find). Looked up lazily, one `access` per
 * directory per name asked about, and memoised: a plan asks about a few dozen names.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { ProgramResolver } from './command-like.js';

export function machineResolver(projectDir: string, env: NodeJS.ProcessEnv = process.env): ProgramResolver {
  const dirs: string[] = [];
  for (let d = projectDir; ; d = dirname(d)) {
    dirs.push(join(d, 'node_modules', '.bin'));
    if (dirname(d) === d) break;
  }
  for (const p of (env.PATH ?? '').split(delimiter)) if (p) dirs.push(p);
  const memo = new Map<string, boolean>();
  return (name) => {
    let found = memo.get(name);
    if (found !== undefined) return found;
    found = dirs.some((d) => {
      try {
        accessSync(join(d, name), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    memo.set(name, found);
    return found;
  };
}
