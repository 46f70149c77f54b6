/**
 * Real test runners for the verdict scenarios. Each runner turns one small program model
 * (functions that return numbers, and tests that expect numbers) into a real project in its
 * own language, with the check the plan's <verify> runs. Scenarios describe an agent's edits
 * as changes to the model, so one scenario runs on every runner.
 *
 * The node-based runners (node:test, vitest from this repo's node_modules) always run; the
 * others skip with a stated reason when their toolchain is not installed (CI runs `npm ci` only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

/** The code under test: one function per unit, returning a number (or an expression, e.g. an undefined name). */
export interface Code {
  values: Record<string, number | string>;
  /**
   * A syntax (compile) error in the source; a number picks one of several different ones
   * (node:test and the Python runners: 1–4; elsewhere any is the first).
   */
  syntaxError?: boolean | number;
  /** A comment line at the top of the source (a cosmetic edit). */
  comment?: string;
  /** The local variable each function returns through (a cosmetic rename). */
  local?: string;
  /** Blank lines between the functions (a whitespace edit). */
  spacing?: number;
}

/** The tests: what each unit must return, and how an agent may have tampered with them. */
export interface Suite {
  want: Record<string, number>;
  /** Tests marked skipped. */
  skip?: string[];
  /** Tests marked to-do (node:test, vitest: a failing to-do test does not fail the run). */
  todo?: string[];
  /** Tests whose assertion no longer compares the value (it only checks that a number came back). */
  weak?: string[];
  /** Tests deleted. */
  drop?: string[];
  /**
   * Failure messages carry what changes on every run: a timestamp, the pid, a duration
   * (`true`), or the clock as epoch seconds with a fraction (`'epoch'`: node:test, unittest).
   */
  noisy?: boolean | 'epoch';
  /** Split the tests over one file per unit (runners that run files in parallel workers). */
  filePerUnit?: boolean;
  /** Run the tests in a random order (where the runner can). */
  shuffle?: boolean;
}

export interface Runner {
  id: string;
  /** Why the runner cannot run here, or null. */
  missing: string | null;
  /** The check the plan runs. */
  verify: string;
  /** A check that only compiles (or syntax-checks) the source, for tasks with two checks. */
  compile: string;
  /** Files every project of this runner has (config, manifest). */
  base: Record<string, string>;
  /** Lines for .gitignore (what the runner writes: caches, build output). */
  ignore: string[];
  /** Environment the runner needs in the isolated HOME the tests use. */
  env: Record<string, string>;
  source(code: Code): Record<string, string>;
  tests(suite: Suite): Record<string, string>;
  /** How the runner names the failing test of a unit in its output. */
  unitName(unit: string): string;
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const units = (suite: Suite) => Object.keys(suite.want).filter((u) => !(suite.drop ?? []).includes(u));
const blank = (code: Code) => '\n'.repeat(code.spacing ?? 0);
/** The syntax error `code.syntaxError` asks for, from a runner's list of different ones. */
const broken = (code: Code, errors: string[]) => (code.syntaxError ? errors[(typeof code.syntaxError === 'number' ? code.syntaxError - 1 : 0) % errors.length]! : '');
// Four different syntax errors each (different messages, not only different places).
const JS_SYNTAX_ERRORS = ['exports.broken = () => {\n', 'exports.broken = () => ;\n', 'let let = 1;\n', 'exports.broken = 1 +* 2;\n'];
const PY_SYNTAX_ERRORS = ['def broken(:\n    pass\n', 'def broken():\nreturn 1\n', 'x = (1,\n', 'print "x"\n'];

function probe(cmd: string, args: string[], env: Record<string, string> = {}): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore', env: { ...process.env, ...env }, timeout: 20_000 });
  return r.status === 0;
}

// The tests isolate HOME; toolchains found through HOME (rustup, go's caches) are pointed back
// at the real ones, and go's build cache is shared so the standard library compiles once.
const realHome = homedir();
const GO_ENV = {
  GOCACHE: process.env.GOCACHE ?? join(realHome, '.cache', 'go-build'),
  GOPATH: process.env.GOPATH ?? join(realHome, 'go'),
  GOTOOLCHAIN: 'local',
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
};
const RUST_ENV = {
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(realHome, '.rustup'),
  CARGO_HOME: process.env.CARGO_HOME ?? join(realHome, '.cargo'),
  CARGO_NET_OFFLINE: 'true',
};

const nodeTest: Runner = {
  id: 'node:test',
  missing: null,
  verify: 'node --test test/',
  compile: 'node --check src/units.js',
  base: { 'package.json': '{ "name": "units", "private": true, "type": "commonjs" }\n' },
  ignore: [],
  env: {},
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `exports.${u} = () => {\n  const ${local} = ${v};\n  return ${local};\n};\n`);
    return { 'src/units.js': `${code.comment ? `// ${code.comment}\n` : ''}${fns.join(blank(code))}${broken(code, JS_SYNTAX_ERRORS)}` };
  },
  tests(suite) {
    const one = (u: string) => {
      const kind = suite.skip?.includes(u) ? 'test.skip' : suite.todo?.includes(u) ? 'test.todo' : 'test';
      const msg = suite.noisy === 'epoch' ? ', `checked at ${Date.now() / 1000}`' : suite.noisy ? ", `at ${new Date().toISOString()} (pid ${process.pid}, ${performance.now().toFixed(3)} ms)`" : '';
      const body = suite.weak?.includes(u) ? `assert.strictEqual(typeof units.${u}(), 'number')` : `assert.strictEqual(units.${u}(), ${suite.want[u]}${msg})`;
      return `${kind}('${u}', () => { ${body}; });\n`;
    };
    const head = "const test = require('node:test');\nconst assert = require('node:assert');\nconst units = require('../src/units.js');\n";
    if (suite.filePerUnit) return Object.fromEntries(units(suite).map((u) => [`test/${u}.test.js`, head + one(u)]));
    return { 'test/units.test.js': head + units(suite).map(one).join('') };
  },
  unitName: (u) => u,
};

const vitestBin = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
const vitest: Runner = {
  id: 'vitest',
  missing: existsSync(vitestBin) ? null : 'vitest is not in node_modules (npm ci)',
  // The project links this repo's node_modules (ignored); the cache stays in the project.
  verify: 'npx vitest run',
  compile: 'node --check src/units.js',
  base: { 'package.json': '{ "name": "units", "private": true, "type": "module" }\n' },
  ignore: ['node_modules', '.vite-cache/'],
  env: {},
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `export function ${u}() {\n  const ${local} = ${v};\n  return ${local};\n}\n`);
    return { 'src/units.js': `${code.comment ? `// ${code.comment}\n` : ''}${fns.join(blank(code))}${code.syntaxError ? 'export function broken() {\n' : ''}` };
  },
  tests(suite) {
    const one = (u: string) => {
      const kind = suite.skip?.includes(u) ? 'test.skip' : suite.todo?.includes(u) ? 'test.todo' : 'test';
      const msg = suite.noisy ? ", `at ${new Date().toISOString()} (pid ${process.pid}, ${performance.now().toFixed(3)} ms)`" : '';
      const body = suite.weak?.includes(u) ? `expect(typeof units.${u}()).toBe('number')` : `expect(units.${u}()${msg}).toBe(${suite.want[u]})`;
      return `${kind}('${u}', () => { ${body}; });\n`;
    };
    const head = "import { expect, test } from 'vitest';\nimport * as units from '../src/units.js';\n";
    // Worker threads (still parallel) start faster than the default forks.
    const config = `export default { cacheDir: '.vite-cache', test: { pool: 'threads', include: ['test/**/*.test.js']${suite.shuffle ? ', sequence: { shuffle: true }' : ''} } };\n`;
    const files: Record<string, string> = suite.filePerUnit ? Object.fromEntries(units(suite).map((u) => [`test/${u}.test.js`, head + one(u)])) : { 'test/units.test.js': head + units(suite).map(one).join('') };
    return { 'vitest.config.js': config, ...files };
  },
  unitName: (u) => u,
};

const havePython = probe('python3', ['-c', '0']);
const pythonSource = (code: Code) => {
  const local = code.local ?? 'result';
  const fns = Object.entries(code.values).map(([u, v]) => `def ${u}():\n    ${local} = ${v}\n    return ${local}\n\n`);
  return { 'units.py': `${code.comment ? `# ${code.comment}\n` : ''}${fns.join(blank(code))}${broken(code, PY_SYNTAX_ERRORS)}` };
};

const unittest: Runner = {
  id: 'unittest',
  missing: havePython ? null : 'python3 is not installed',
  verify: 'python3 -m unittest -v',
  compile: 'python3 -m py_compile units.py',
  base: {},
  ignore: ['__pycache__/'],
  env: {},
  source: pythonSource,
  tests(suite) {
    const one = (u: string) => {
      const deco = suite.skip?.includes(u) ? "    @unittest.skip('later')\n" : '';
      const msg = suite.noisy === 'epoch' ? ', f"checked at {time.time()}"' : suite.noisy ? ', f"at {datetime.datetime.now().isoformat()} (pid {os.getpid()}, {time.perf_counter():.3f} s)"' : '';
      const body = suite.weak?.includes(u) ? `self.assertIsInstance(units.${u}(), int)` : `self.assertEqual(units.${u}(), ${suite.want[u]}${msg})`;
      return `${deco}    def test_${u}(self):\n        ${body}\n\n`;
    };
    const head = 'import datetime, os, time, unittest\nimport units\n\n';
    if (suite.filePerUnit) return Object.fromEntries(units(suite).map((u) => [`test_${u}.py`, `${head}class ${cap(u)}Test(unittest.TestCase):\n${one(u)}`]));
    return { 'test_units.py': `${head}class UnitsTest(unittest.TestCase):\n${units(suite).map(one).join('')}    pass\n` };
  },
  unitName: (u) => `test_${u}`,
};

const havePytest = havePython && probe('python3', ['-c', 'import pytest']);
const pytest: Runner = {
  id: 'pytest',
  missing: !havePython ? 'python3 is not installed' : havePytest ? null : 'pytest is not installed (pip install pytest)',
  verify: 'python3 -m pytest -q',
  compile: 'python3 -m py_compile units.py',
  base: {},
  ignore: ['__pycache__/', '.pytest_cache/'],
  // Plugins installed on the machine for other projects (hypothesis, benchmark) are not this
  // project's: not loading them makes a run 0.3 s of CPU instead of 1.1.
  env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
  source: pythonSource,
  tests(suite) {
    const one = (u: string) => {
      const deco = suite.skip?.includes(u) ? "@pytest.mark.skip(reason='later')\n" : '';
      const msg = suite.noisy ? ', f"at {datetime.datetime.now().isoformat()} (pid {os.getpid()}, {time.perf_counter():.3f} s)"' : '';
      const body = suite.weak?.includes(u) ? `assert isinstance(units.${u}(), int)` : `assert units.${u}() == ${suite.want[u]}${msg}`;
      return `${deco}def test_${u}():\n    ${body}\n\n\n`;
    };
    const head = 'import datetime, os, time\nimport pytest\nimport units\n\n\n';
    if (suite.filePerUnit) return Object.fromEntries(units(suite).map((u) => [`test_${u}.py`, head + one(u)]));
    return { 'test_units.py': head + units(suite).map(one).join('') };
  },
  unitName: (u) => `test_${u}`,
};

const haveGo = probe('go', ['version'], GO_ENV);
const goTest: Runner = {
  id: 'go test',
  missing: haveGo ? null : 'go is not installed',
  verify: 'go test ./...',
  compile: 'go vet ./...',
  base: { 'go.mod': 'module example.com/units\n\ngo 1.19\n' },
  ignore: [],
  env: GO_ENV,
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `func ${cap(u)}() int {\n\t${local} := ${v}\n\treturn ${local}\n}\n`);
    return { 'units.go': `${code.comment ? `// ${code.comment}\n` : ''}package units\n\n${fns.join(blank(code))}${code.syntaxError ? 'func Broken() int {\n' : ''}` };
  },
  tests(suite) {
    const one = (u: string) => {
      const skip = suite.skip?.includes(u) ? '\tt.Skip("later")\n' : '';
      const msg = suite.noisy ? ['%d, want %d (at %s, pid %d)', ', time.Now().Format(time.RFC3339Nano), os.Getpid()'] : ['%d, want %d', ''];
      const body = suite.weak?.includes(u) ? `_ = ${cap(u)}()` : `if got := ${cap(u)}(); got != ${suite.want[u]} {\n\t\tt.Errorf("${cap(u)}() = ${msg[0]}", got, ${suite.want[u]}${msg[1]})\n\t}`;
      return `func Test${cap(u)}(t *testing.T) {\n${skip}${suite.shuffle ? '\tt.Parallel()\n' : ''}\t${body}\n}\n\n`;
    };
    const head = `package units\n\nimport (\n${suite.noisy ? '\t"os"\n' : ''}\t"testing"\n${suite.noisy ? '\t"time"\n' : ''})\n\n`;
    if (suite.filePerUnit) return Object.fromEntries(units(suite).map((u) => [`${u}_test.go`, head + one(u)]));
    return { 'units_test.go': head + units(suite).map(one).join('') };
  },
  unitName: (u) => `Test${cap(u)}`,
};

const haveCargo = probe('cargo', ['--version'], RUST_ENV);
const cargoTest: Runner = {
  id: 'cargo test',
  missing: haveCargo ? null : 'cargo is not installed',
  verify: 'cargo test -q',
  compile: 'cargo build -q',
  base: { 'Cargo.toml': '[package]\nname = "units"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' },
  ignore: ['target/', 'Cargo.lock'],
  env: RUST_ENV,
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `pub fn ${u}() -> i64 {\n    let ${local} = ${v};\n    ${local}\n}\n`);
    return { 'src/lib.rs': `${code.comment ? `// ${code.comment}\n` : ''}${fns.join(blank(code))}${code.syntaxError ? 'pub fn broken() -> i64 {\n' : ''}#[cfg(test)]\nmod tests;\n` };
  },
  tests(suite) {
    const one = (u: string) => {
      const ignore = suite.skip?.includes(u) ? '#[ignore]\n' : '';
      const msg = suite.noisy ? ', "at {:?} (pid {})", std::time::SystemTime::now(), std::process::id()' : '';
      const body = suite.weak?.includes(u) ? `let _ = ${u}();` : `assert_eq!(${u}(), ${suite.want[u]}${msg});`;
      return `#[test]\n${ignore}fn ${u}_works() {\n    ${body}\n}\n\n`;
    };
    return { 'src/tests.rs': `use super::*;\n\n${units(suite).map(one).join('')}` };
  },
  unitName: (u) => `${u}_works`,
};

const tscBin = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
/** The TypeScript compiler as the check (a type check, no tests): diagnostics, not test names. */
const tsc: Runner = {
  id: 'tsc',
  missing: existsSync(tscBin) ? null : 'typescript is not in node_modules (npm ci)',
  verify: 'npx tsc -p .',
  compile: 'npx tsc -p .',
  base: {
    'package.json': '{ "name": "units", "private": true }\n',
    // A Node project's lib (no DOM): tsc then reads a third of the declarations (0.8 s of CPU a run instead of 2.6).
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2020", "lib": ["es2020"], "skipLibCheck": true, "module": "commonjs", "types": [] }, "include": ["src"] }\n',
  },
  ignore: ['node_modules'],
  env: {},
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `export function ${u}(): number {\n  const ${local} = ${v};\n  return ${local};\n}\n`);
    return { 'src/units.ts': `${code.comment ? `// ${code.comment}\n` : ''}${fns.join(blank(code))}${code.syntaxError ? 'export function broken() {\n' : ''}` };
  },
  tests: () => ({}),
  unitName: (u) => u,
};

const haveProve = probe('prove', ['--version']) && probe('perl', ['-MTest::More', '-e', '1']);
/** Perl's TAP harness (`prove`, with Test::More): failures as `#   Failed test '<name>'`, a summary of test numbers. */
const prove: Runner = {
  id: 'prove',
  missing: haveProve ? null : 'perl with prove and Test::More is not installed',
  verify: 'prove -l t/',
  compile: 'perl -Ilib -c lib/Units.pm',
  base: {},
  ignore: [],
  env: {},
  source(code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `sub ${u} {\n    my $${local} = ${v};\n    return $${local};\n}\n`);
    return { 'lib/Units.pm': `${code.comment ? `# ${code.comment}\n` : ''}package Units;\nuse strict;\nuse warnings;\n\n${fns.join(blank(code))}${code.syntaxError ? 'sub broken {\n' : ''}1;\n` };
  },
  tests(suite) {
    const one = (u: string) => {
      const assertion = suite.weak?.includes(u) ? `like(Units::${u}(), qr/^-?\\d+$/, '${u}');` : `is(Units::${u}(), ${suite.want[u]}, '${u}');`;
      return suite.skip?.includes(u) ? `SKIP: { skip 'later', 1; ${assertion} }\n` : `${assertion}\n`;
    };
    return { 't/units.t': `use strict;\nuse warnings;\nuse Test::More;\nuse Units;\n\n${units(suite).map(one).join('')}done_testing();\n` };
  },
  unitName: (u) => u,
};

/**
 * A runner's project one directory down (a monorepo package), its check run as monorepo plans
 * write it: `cd <dir> && <check>`.
 */
export function inSubdir(runner: Runner, dir: string): Runner {
  const under = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([p, c]) => [`${dir}/${p}`, c]));
  return {
    ...runner,
    id: `${runner.id} in ${dir}`,
    verify: `cd ${dir} && ${runner.verify}`,
    compile: `cd ${dir} && ${runner.compile}`,
    base: under(runner.base),
    source: (code) => under(runner.source(code)),
    tests: (suite) => under(runner.tests(suite)),
  };
}

export const RUNNERS = { nodeTest, vitest, unittest, pytest, goTest, cargoTest, tsc, prove } as const;
export const ALL_RUNNERS: Runner[] = Object.values(RUNNERS);
