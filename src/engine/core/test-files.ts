/**
 * Test files the agent changed after the checks first failed, named on a green verify (pure).
 * A check that passes because its failing test was weakened (the expected value edited to what
 * the code returns), skipped or deleted where the runner's summary states no counts (`go test`
 * without -v) looks exactly like one that passes because the code was fixed: the output cannot
 * tell them apart. The tree can show where the agent went: a green iteration that got there
 * after changing test files is named in the answer, the iteration and the Loop Report, for a
 * human to review. It never changes the verdict: TDD tasks and fixes of a wrong test edit tests
 * legitimately, and the plan's checks ran as written and passed.
 *
 * Test files are recognised by the naming conventions test runners share (not by tool): a
 * directory named test(s), spec(s), __tests__, __snapshots__ or testdata on the path, or a file
 * named test_x, x_test, x.test, x-test, x.spec, x_spec, XTest, XTests, XSpec, conftest.py, test.x,
 * a TAP test script (x.t) or a snapshot (.snap).
 */
import type { IterationRecord } from './types.js';

/** Paths named at most (the count says how many more). */
export const TESTS_EDITED_LISTED = 20;

const TEST_DIR = /^(?:tests?|specs?|__tests__|__snapshots__|testdata|test_?data)$/i;
const TEST_FILE = [
  /^(?:test|tests|spec)(?:\.[^/]+)?$/i, // test.js, tests.py, spec.rb
  /^test_.+\.[^.]+$/i, // test_units.py
  /.[_.-](?:test|tests|spec)\.[^.]+$/i, // units_test.go, units.test.js, units-test.js, cart_spec.rb, a.spec.ts
  /[a-z0-9](?:Tests?|Spec)\.[^.]+$/, // UnitsTest.java, UnitsTests.cs, CartSpec.scala (CamelCase only)
  /^conftest\.py$/,
  /^[^.]+\.t$/, // units.t (TAP: Perl's prove, cram)
  /\.snap$/,
];

/** Whether a project-relative path reads as a test file (or test data: snapshots, golden files). */
export function isTestPath(path: string): boolean {
  if (path.startsWith('.planning/')) return false;
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  return parts.some((d) => TEST_DIR.test(d)) || TEST_FILE.some((re) => re.test(name));
}

/**
 * The files that say what a check's command runs, relative to the project root: the script it
 * runs (`./run-tests`, `bash scripts/check.sh`), and
 * the task file of a task runner it calls (`npm test` runs package.json's `scripts.test`,
 * `make check` a Makefile's recipe). An agent that empties them (`"test": "echo ok"`) makes
 * the check pass without testing anything, and the output cannot tell: like a weakened test,
 * the change is named on the green verify for a human. A leading `cd DIR &&` is followed.
 * `checks`: each check's simple commands, in order.
 */
export function checkDefinitionFiles(checks: readonly (readonly CommandWords[])[]): Set<string> {
  const files = new Set<string>();
  for (const commands of checks) {
    let dir = '';
    for (const { program, args } of commands) {
      if (program === 'cd') {
        const to = joinPath(dir, args[0] ?? '');
        // (out of the project: what runs there is not the project's)
        if (to === '' && !['.', './'].includes(args[0] ?? '')) break;
        dir = to;
        continue;
      }
      for (const manifest of TASK_FILES[basenameOf(program)] ?? []) files.add(joinPath(dir, manifest));
      // The script run: the program itself when it is a path, or what a shell is given to run
      // (not other arguments: `node --check src/app.js` checks the code, it is not the check).
      const script = program.includes('/') ? program : SHELLS.has(basenameOf(program)) ? args.find((a) => !a.startsWith('-')) : undefined;
      if (script) files.add(joinPath(dir, script));
    }
  }
  files.delete('');
  return files;
}

/** One simple command of a check, as the shell reads it (the lexer is the shell room's: plan/shell-words.ts). */
export interface CommandWords {
  program: string;
  args: readonly string[];
}

/** The file a task runner reads its tasks from, by the runner's program name. */
const TASK_FILES: Record<string, string[]> = {
  npm: ['package.json'],
  pnpm: ['package.json'],
  yarn: ['package.json'],
  bun: ['package.json'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  just: ['justfile', 'Justfile', '.justfile'],
  task: ['Taskfile.yml', 'Taskfile.yaml'],
  tox: ['tox.ini'],
  nox: ['noxfile.py'],
  rake: ['Rakefile'],
  composer: ['composer.json'],
  deno: ['deno.json', 'deno.jsonc'],
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh']);

const basenameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** `dir/path` normalised (`./`, `a/../b`), '' for a path outside the project or absolute. */
function joinPath(dir: string, path: string): string {
  if (path.startsWith('/') || path.startsWith('~')) return '';
  const parts: string[] = [];
  for (const part of `${dir}/${path}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return '';
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** The first iteration of the loop whose checks failed, with its tree: test edits are counted from there. */
export function firstFailingTree(iterations: readonly Pick<IterationRecord, 'iteration' | 'passed' | 'tree'>[]): { iteration: number; tree: string } | null {
  const it = iterations.find((i) => !i.passed && i.tree);
  return it ? { iteration: it.iteration, tree: it.tree! } : null;
}

export interface TestsEdited {
  /** The iteration whose tree the edits are counted from (the loop's first failing one). */
  since: number;
  /** Test files changed since then (first TESTS_EDITED_LISTED). */
  paths: string[];
  /** How many test files changed. */
  count: number;
}

/**
 * From the paths changed between the first failing iteration's tree and this one: test files,
 * and the files that define the checks (`checkDefinitionFiles`).
 */
export function testsEdited(since: number, changed: readonly string[], checkFiles: ReadonlySet<string> = new Set()): TestsEdited | null {
  const tests = changed.filter((p) => isTestPath(p) || checkFiles.has(p)).sort();
  return tests.length === 0 ? null : { since, paths: tests.slice(0, TESTS_EDITED_LISTED), count: tests.length };
}

/** `test files changed since the checks failed at iteration 1: a.test.js, b.test.js`: how they are named everywhere. */
export function testsEditedText(t: TestsEdited): string {
  const more = t.count > t.paths.length ? ` and ${t.count - t.paths.length} more` : '';
  return `${editedKind(t.paths)}${t.count === 1 ? '' : 's'} changed since the checks failed at iteration ${t.since}: ${t.paths.join(', ')}${more}`;
}

/** `test file`, or `test or check file` when a file that defines a check is among them. */
export function editedKind(paths: readonly string[]): string {
  return paths.every(isTestPath) ? 'test file' : 'test or check file';
}
