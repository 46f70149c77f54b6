/**
 * How the runtime is started where a text is read: the prefix of every command text the loop
 * hands out (`next`, the handoff, the Loop Report, `ralf run`'s messages, the Stop hook's
 * reason). After `ralf install` there is usually no `ralf` on PATH: the hosts run the installed
 * copy as `"<node>" "<config dir>/ralf-lite/ralf.js"`, and a text naming `ralf` would be
 * "command not found" for the agent that follows it.
 *
 * - `ralf`, when the `ralf` on PATH is this very runtime (a global install, `npm link`);
 * - else, for an agent (`next`, handoff, hook): the running runtime's own command line, absolute
 *   node and absolute entry file, quoted for a POSIX shell (the line `ralf install` writes into
 *   the host's commands and hooks; hosts may run with a PATH that has no `node`);
 * - else, for a person at a terminal reading a file later (the Loop Report in SUMMARY.md):
 *   `node <entry>` with the home directory as `~`, which survives a node upgrade and names no
 *   user's home in a committed file (docs/ENGINE.md "Command texts").
 *
 * PATH directories ending in `node_modules/.bin` do not count: npm and npx put them on the PATH
 * of the process they start, not of the terminal or agent that reads the text. Outside the
 * built runtime (the engine imported in-process, as tests do) there is no command line of
 * ours: `ralf`.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import { isBundled } from '../../bundle/require-bundle.js';
import { runtimeInvocation } from '../../install/render.js';
import { DEFAULT_INVOCATION, shellWord } from '../core/commands.js';

/** Who reads the text: an agent now (exact command line) or a person at a terminal later. */
export type Audience = 'agent' | 'terminal';

export interface InvocationFacts {
  /** process.argv[1]: the entry file node ran. */
  entry: string | undefined;
  execPath: string;
  path: string | undefined;
  home: string | undefined;
  /** Running the built runtime (dist/ralf.js or an installed copy of it). */
  builtRuntime: boolean;
}

const cached = new Map<Audience, string>();

/** The command prefix for texts read in this process's context (computed once per audience). */
export function commandInvocation(audience: Audience = 'agent'): string {
  let hit = cached.get(audience);
  if (hit === undefined) {
    hit = invocationFrom({ entry: process.argv[1], execPath: process.execPath, path: process.env.PATH, home: process.env.HOME, builtRuntime: isBundled }, audience);
    cached.set(audience, hit);
  }
  return hit;
}

/**
 * The prefix for agent texts whose paths are relative to `projectRoot`: `commandInvocation()`,
 * plus `--cwd <root>` when this process does not run in the project root.
 */
export function commandInvocationIn(projectRoot: string): string {
  const base = commandInvocation('agent');
  return !isBundled || sameDirectory(currentDirectory(), projectRoot) ? base : `${base} --cwd ${shellWord(projectRoot)}`;
}

function currentDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null; // the directory was removed under us
  }
}

function sameDirectory(a: string | null, b: string): boolean {
  return a !== null && (a === b || real(a) === real(b));
}

export function invocationFrom(facts: InvocationFacts, audience: Audience = 'agent'): string {
  if (!facts.builtRuntime || !facts.entry) return DEFAULT_INVOCATION;
  const entry = real(facts.entry);
  if (entry === null) return DEFAULT_INVOCATION;
  const onPath = findOnPath('ralf', facts.path);
  if (onPath !== null && real(onPath) === entry) return DEFAULT_INVOCATION;
  if (audience === 'agent') return runtimeInvocation(facts.execPath, entry);
  const home = facts.home && isAbsolute(facts.home) ? facts.home.replace(/[\\/]+$/, '') : null;
  const underHome = home !== null && home !== '' && entry.startsWith(`${home}${sep}`);
  return `node ${underHome ? `~/${shellWord(entry.slice(home.length + 1))}` : shellWord(entry)}`;
}

/** The first executable `name` on PATH, skipping the `node_modules/.bin` dirs npm adds per process. */
export function findOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir) || /[\\/]node_modules[\\/]\.bin[\\/]*$/.test(dir)) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return null;
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
