/**
 * The engine's three rooms (docs/ENGINE.md "Rooms"): core ← shell ← cli, no back-arrows.
 * A static scan of every import specifier (static, dynamic, re-export, require) in
 * src/engine/: the pure core imports nothing but itself and plain data modules, the shell
 * never reaches the CLI, and neither prints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = resolve(__dirname, '../../src/engine');
const SRC = resolve(ENGINE, '..');

/** Modules outside the engine that the core may import: data shapes, constants and pure helpers without imports of their own. */
const CORE_MAY_IMPORT = new Set(['plan/model.ts', 'exit-codes.ts', 'formats/item-identity.ts', 'compare-text.ts', 'git/pathspec.ts']);

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module specifier a file names; `import(<not a literal>)` is reported as `<computed>`. */
export function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm)) out.push({ file, specifier: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push({ file, specifier: m[1]!, typeOnly: false });
  for (const m of code.matchAll(/\b(import|require)\(\s*([^)]*)\)/g)) {
    const literal = /^['"]([^'"]+)['"]$/.exec(m[2]!.trim());
    // `import('x').T` in a type position erases like `import type`.
    const typeOnly = m[1] === 'import' && code.slice(m.index! + m[0].length).startsWith('.');
    out.push({ file, specifier: literal ? literal[1]! : '<computed>', typeOnly });
  }
  return out;
}

/** The file a relative specifier names, relative to src/ (`engine/core/types.ts`); null for packages and node: builtins. */
function target(imp: Import): string | null {
  if (!imp.specifier.startsWith('.')) return null;
  return relative(SRC, resolve(dirname(imp.file), imp.specifier)).replace(/\.js$/, '.ts').split('\\').join('/');
}

const roomOf = (file: string) => relative(ENGINE, file).split(/[\\/]/)[0]!;
const all = filesOf(ENGINE).flatMap((f) => importsOf(f, readFileSync(f, 'utf8')));
const show = (imps: Import[]) => imps.map((i) => `${relative(SRC, i.file)} imports ${i.specifier}`);

describe('the engine as three rooms', () => {
  it('has only the rooms and the public index at its top', () => {
    const top = readdirSync(ENGINE).sort();
    expect(top).toEqual(['cli', 'core', 'index.ts', 'shell']);
  });

  it('the core imports only itself and plain data modules: no node builtins, packages, I/O, config, shell or CLI', () => {
    const bad = all.filter((i) => {
      if (roomOf(i.file) !== 'core') return false;
      const t = target(i);
      if (t === null) return true; // node:fs, execa, any package
      return !t.startsWith('engine/core/') && !CORE_MAY_IMPORT.has(t);
    });
    expect(show(bad)).toEqual([]);
  });

  it('the outside modules the core may use are leaves: no runtime import of their own', () => {
    const leafImports = [...CORE_MAY_IMPORT].flatMap((rel) => importsOf(join(SRC, rel), readFileSync(join(SRC, rel), 'utf8')).filter((i) => !i.typeOnly && !CORE_MAY_IMPORT.has(target(i) ?? '')));
    expect(show(leafImports)).toEqual([]);
  });

  it('the shell never imports the CLI (the engine CLI room or src/cli)', () => {
    const bad = all.filter((i) => roomOf(i.file) === 'shell' && (target(i)?.startsWith('engine/cli/') || target(i)?.startsWith('cli/')));
    expect(show(bad)).toEqual([]);
  });

  it('neither the core nor the shell prints: only the CLI room writes to stdout or stderr', () => {
    const printing = filesOf(ENGINE)
      .filter((f) => roomOf(f) === 'core' || roomOf(f) === 'shell')
      .filter((f) => /\bprocess\.(stdout|stderr)\b|\bconsole\.\w+\(/.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')))
      .map((f) => relative(SRC, f));
    expect(printing).toEqual([]);
  });

  it('the scan sees what it must (a back-arrow written into a file is caught)', () => {
    const core = join(ENGINE, 'core', 'x.ts');
    const found = importsOf(core, "import { a } from '../shell/store.js';\nimport type { B } from '../../cli/output.js';\nconst m = await import('node:fs');\nconst n = require(path);\n// import { c } from '../cli/render.js';\n");
    expect(found.map((i) => [i.specifier, i.typeOnly])).toEqual([
      ['../shell/store.js', false],
      ['../../cli/output.js', true],
      ['node:fs', false],
      ['<computed>', false],
    ]);
    expect(found.map(target)).toEqual(['engine/shell/store.ts', 'cli/output.ts', null, null]);
  });
});
