/**
 * The machine edge of plan reading: which program names resolve here. A name resolves when a
 * file of that name is in a PATH directory or in a `node_modules/.bin` at or above the project
 * directory (what `npx` and npm scripts find). Each directory is listed once, on the first name
 * asked about (a plan asks about a few dozen names; one `access` per name per directory cost
 * ~20 ms on the largest plan, one listing per directory a few ms).
 */
import { readdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { ProgramResolver } from './command-like.js';

export function machineResolver(projectDir: string, env: NodeJS.ProcessEnv = process.env): ProgramResolver {
  const dirs: string[] = [];
  for (let d = projectDir; ; d = dirname(d)) {
    dirs.push(join(d, 'node_modules', '.bin'));
    if (dirname(d) === d) break;
  }
  for (const p of (env.PATH ?? '').split(delimiter)) if (p && !dirs.includes(p)) dirs.push(p);
  let listed: Array<Set<string>> | null = null;
  const list = (): Array<Set<string>> =>
    (listed ??= dirs.map((d) => {
      try {
        return new Set(readdirSync(d));
      } catch {
        return new Set<string>(); // missing or unreadable: nothing resolves there
      }
    }));
  const memo = new Map<string, boolean>();
  return (name) => {
    let found = memo.get(name);
    if (found === undefined) {
      found = list().some((names) => names.has(name));
      memo.set(name, found);
    }
    return found;
  };
}
