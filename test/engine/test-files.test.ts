import { describe, expect, it } from 'vitest';
import { checkDefinitionFiles as fromWords, firstFailingTree, isTestPath, testsEdited, testsEditedText } from '../../src/engine/core/test-files.js';
import { scriptCommands } from '../../src/plan/shell-words.js';

/** The check commands read as verify-task reads them. */
const checkDefinitionFiles = (commands: string[]) => fromWords(commands.map(scriptCommands));

describe('isTestPath: the naming conventions test runners share', () => {
  it.each([
    'test/units.test.js', 'tests/test_api.py', 'units_test.go', 'src/tests.rs', 'spec/cart_spec.rb', 'src/app.spec.ts', 'lib/units-test.js',
    'src/test/java/UnitsTest.java', 'Units.Tests/UnitsTests.cs', 'src/CartSpec.scala', 'conftest.py', 'src/__tests__/a.js', 'src/__snapshots__/a.js.snap',
    'pkg/testdata/golden.txt', 'test.js', 'e2e/x/spec/a.rb', 't/units.t', 'xt/author/pod.t',
  ])('%s is a test file', (p) => expect(isTestPath(p)).toBe(true));

  it.each(['src/units.js', 'units.go', 'src/latest.js', 'src/contest.py', 'src/attestation.ts', 'docs/testing-guide.md', 'src/Protester.java', 'README.md', '.planning/phases/01-x/01-01-PLAN.md', '.planning/test/x.js', 'lib/Units.pm', 'bin/run.sh', 'notes.txt'])(
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

describe('checkDefinitionFiles: the files that say what a check runs', () => {
  it('names the task file of a task runner, the script a check runs, and follows a leading cd', () => {
    expect([...checkDefinitionFiles(['npm test --silent'])]).toEqual(['package.json']);
    expect([...checkDefinitionFiles(['make -s check'])]).toEqual(['Makefile', 'makefile', 'GNUmakefile']);
    expect([...checkDefinitionFiles(['cd packages/core && CI=1 pnpm run test'])]).toEqual(['packages/core/package.json']);
    expect([...checkDefinitionFiles(['./scripts/check.sh --fast', 'bash -e tools/ci.sh'])]).toEqual(['scripts/check.sh', 'tools/ci.sh']);
    expect([...checkDefinitionFiles(['cd web && ../bin/test'])]).toEqual(['bin/test']);
    // Read as the shell reads them: a prefix word, a redirection, quotes.
    expect([...checkDefinitionFiles(['time npm test > out.log 2>&1', "bash 'scripts/ci.sh'"])]).toEqual(['package.json', 'scripts/ci.sh']);
  });

  it('not the code a check checks, nor paths outside the project', () => {
    expect([...checkDefinitionFiles(['node --check src/app.js', 'python3 -m pytest -q tests/', 'go test ./...', 'tsc --noEmit'])]).toEqual([]);
    expect([...checkDefinitionFiles(['/usr/local/bin/check', 'cd .. && ./x.sh'])]).toEqual([]);
  });

  it('a green verify after the check\'s own definition changed names it, as a test file is named', () => {
    const defs = checkDefinitionFiles(['npm test']);
    const t = testsEdited(2, ['src/units.js', 'package.json'], defs);
    expect(t).toEqual({ since: 2, paths: ['package.json'], count: 1 });
    expect(testsEditedText(t!)).toBe('test or check file changed since the checks failed at iteration 2: package.json');
    expect(testsEdited(2, ['src/units.js', 'package.json'])).toBeNull();
  });
});
