import { describe, expect, it } from 'vitest';
import { firstFailingTree, isTestPath, testsEdited, testsEditedText } from '../../src/engine/core/test-files.js';

describe('isTestPath: the naming conventions test runners share', () => {
  it.each([
    'test/units.test.js', 'tests/test_api.py', 'units_test.go', 'src/tests.rs', 'spec/cart_spec.rb', 'src/app.spec.ts', 'lib/units-test.js',
    'src/test/java/UnitsTest.java', 'Units.Tests/UnitsTests.cs', 'src/CartSpec.scala', 'conftest.py', 'src/__tests__/a.js', 'src/__snapshots__/a.js.snap',
    'pkg/testdata/golden.txt', 'test.js', 'e2e/x/spec/a.rb',
  ])('%s is a test file', (p) => expect(isTestPath(p)).toBe(true));

  it.each(['src/units.js', 'units.go', 'src/latest.js', 'src/contest.py', 'src/attestation.ts', 'docs/testing-guide.md', 'src/Protester.java', 'README.md', '.planning/phases/01-x/01-01-PLAN.md', '.planning/test/x.js'])(
    '%s is not',
    (p) => expect(isTestPath(p)).toBe(false),
  );
});

describe('testsEdited', () => {
  it('counts from the first failing iteration that has a tree', () => {
    expect(firstFailingTree([{ iteration: 1, passed: false, tree: null }, { iteration: 2, passed: false, tree: 't2' }, { iteration: 3, passed: false, tree: 't3' }])).toEqual({ iteration: 2, tree: 't2' });
    expect(firstFailingTree([])).toBeNull();
  });

  it('keeps only test files, sorted, and says how many', () => {
    const t = testsEdited(1, ['src/units.js', 'test/b.test.js', 'test/a.test.js']);
    expect(t).toEqual({ since: 1, paths: ['test/a.test.js', 'test/b.test.js'], count: 2 });
    expect(testsEditedText(t!)).toBe('test files changed since the checks failed at iteration 1: test/a.test.js, test/b.test.js');
    expect(testsEdited(1, ['src/units.js'])).toBeNull();
  });

  it('lists at most 20 and counts the rest', () => {
    const t = testsEdited(2, Array.from({ length: 25 }, (_, i) => `test/t${String(i).padStart(2, '0')}.test.js`))!;
    expect(t.paths).toHaveLength(20);
    expect(testsEditedText(t)).toMatch(/t19\.test\.js and 5 more$/);
  });
});
