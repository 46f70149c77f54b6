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
 * named test_x, x_test, x.test, x-test, x.spec, x_spec, XTest, XTests, XSpec, conftest.py, test.x
 * or a snapshot (.snap).
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
  /\.snap$/,
];

/** Whether a project-relative path reads as a test file (or test data: snapshots, golden files). */
export function isTestPath(path: string): boolean {
  if (path.startsWith('.planning/')) return false;
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  return parts.some((d) => TEST_DIR.test(d)) || TEST_FILE.some((re) => re.test(name));
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

/** From the paths changed between the first failing iteration's tree and this one. */
export function testsEdited(since: number, changed: readonly string[]): TestsEdited | null {
  const tests = changed.filter(isTestPath).sort();
  return tests.length === 0 ? null : { since, paths: tests.slice(0, TESTS_EDITED_LISTED), count: tests.length };
}

/** `test files changed since the checks failed at iteration 1: a.test.js, b.test.js`: how they are named everywhere. */
export function testsEditedText(t: TestsEdited): string {
  const more = t.count > t.paths.length ? ` and ${t.count - t.paths.length} more` : '';
  return `test file${t.count === 1 ? '' : 's'} changed since the checks failed at iteration ${t.since}: ${t.paths.join(', ')}${more}`;
}
