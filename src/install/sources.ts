/**
 * Finds what `ralf install` ships: the command and workflow sources of the ralf-lite
 * package, and the built runtime (every file in the directory of the running
 * `ralf.js`). Reads only.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { RalfError } from '../errors.js';

export interface SourceFile {
  name: string;
  text: string;
}

export interface RuntimeFile {
  /** POSIX path relative to the runtime directory, e.g. `ralf.js`, `cmd/plan.js`. */
  rel: string;
  bytes: Uint8Array;
  executable: boolean;
}

export interface PackageSources {
  /** The package root (holds commands/, workflows/ and dist/). */
  root: string;
  commands: SourceFile[];
  workflows: SourceFile[];
  runtime: RuntimeFile[];
}

/** The running runtime's entry file (dist/ralf.js, or an installed copy), resolved. */
export function runtimeEntry(argv1: string | undefined = process.argv[1]): string {
  if (!argv1) throw new RalfError('internal', 'cannot tell where the ralf runtime is (process.argv[1] is empty)', { exitCode: 1 });
  return realpathSync(argv1);
}

function mdFiles(dir: string): SourceFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ name: f.slice(0, -3), text: readFileSync(join(dir, f), 'utf8') }));
}

function walk(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, base));
    else if (entry.isFile() && !entry.name.endsWith('.map')) out.push(relative(base, full).split(sep).join('/'));
  }
  return out;
}

/**
 * Reads the sources of the package the running runtime belongs to (`<root>/dist/ralf.js`).
 * Installing from an installed copy is refused: it has no sources to install.
 */
export function readPackageSources(entry: string): PackageSources {
  const distDir = dirname(entry);
  const root = dirname(distDir);
  const commandsDir = join(root, 'commands');
  const workflowsDir = join(root, 'workflows');
  if (!existsSync(join(commandsDir, 'execute-plan.md')) || !existsSync(join(workflowsDir, 'execute-plan.md'))) {
    throw new RalfError('install_sources_missing', `cannot find the ralf-lite commands and workflows next to ${entry}`, {
      problems: [
        {
          file: root,
          message: 'expected commands/execute-plan.md and workflows/execute-plan.md in the ralf-lite package',
          hint: 'run the installer from the package: `npx ralf-lite install ...`, or `node dist/ralf.js install ...` in a checkout after `npm run build`',
        },
      ],
    });
  }
  const runtime: RuntimeFile[] = walk(distDir).map((rel) => {
    const full = join(distDir, ...rel.split('/'));
    return { rel, bytes: readFileSync(full), executable: (statSync(full).mode & 0o111) !== 0 };
  });
  // The copy lands beside files the runtime does not control (GSD puts
  // {"type":"commonjs"} in the config dir's package.json), so it always carries its own.
  if (!runtime.some((f) => f.rel === 'package.json')) {
    const type = packageType(root);
    runtime.push({ rel: 'package.json', bytes: Buffer.from(`${JSON.stringify({ type }, null, 2)}\n`), executable: false });
  }
  return { root, commands: mdFiles(commandsDir), workflows: mdFiles(workflowsDir), runtime };
}

function packageType(root: string): 'module' | 'commonjs' {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { type?: string };
    return pkg.type === 'module' ? 'module' : 'commonjs';
  } catch {
    return 'module';
  }
}

/**
 * A shipped source file for `ralf install --render NAME`: beside the runtime (an installed
 * copy: `<root>/ralf-lite/workflows/...`) or in the package (`<root>/dist/ralf.js` →
 * `<root>/workflows/...`).
 */
export function findRenderSource(entry: string, name: string): string | null {
  for (const base of [dirname(entry), dirname(dirname(entry))]) {
    const candidate = join(base, ...name.split('/'));
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
