/**
 * First contact with runners and check shapes the other scenario files do not use: Perl's TAP
 * harness (prove), cargo test, a make target that chains a lint and the tests, a monorepo
 * package's check (`cd packages/core && …`), a checker that prints nothing and only sets an exit
 * code, and a task with three checks where fixing one exposes the next. Each trail was written
 * down before the scenario first ran.
 */
import { describe, it } from 'vitest';
import { LINT_TODO, Scenario, type Limits } from './harness.js';
import { inSubdir, RUNNERS, type Runner } from './runners.js';

const skipped = (runner: Runner) => (runner.missing ? ` — skipped: ${runner.missing}` : '');
const limits: Limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const WANT3 = { alpha: 1, bravo: 2, charlie: 3 };

/** A checker that prints nothing: its exit status is the number of units that return the wrong value (0: all right). */
const SILENT_COUNT = `const units = require('./src/units.js');
const want = ${JSON.stringify(WANT3)};
process.exit(Object.entries(want).filter(([u, v]) => units[u]() !== v).length);
`;
/** The same checker, exit status 1 on any wrong unit. */
const SILENT_ONE = SILENT_COUNT.replace('process.exit(Object.entries(want).filter(([u, v]) => units[u]() !== v).length);', 'process.exit(Object.entries(want).some(([u, v]) => units[u]() !== v) ? 1 : 0);');

/** `make check`: the lint, then the tests (make stops at the first recipe that fails). */
const MAKEFILE = 'check: lint test\n\nlint:\n\tnode lint.cjs src/units.js\n\ntest:\n\tnode --test test/\n\n.PHONY: check lint test\n';

describe.concurrent('first contact: runners and check shapes not used elsewhere', () => {
  it.skipIf(RUNNERS.prove.missing)(`prove (Perl TAP): fix one of three, the middle one by name first${skipped(RUNNERS.prove)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.prove, { want: WANT3, limits });
    const trail = await s.play([() => {}, (x) => x.fix('bravo'), (x) => x.fix('charlie'), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toMatch(/no longer failing: .*bravo/);
  }, 90_000);

  it.skipIf(RUNNERS.cargoTest.missing)(`cargo test: fix one of three, the last by name first${skipped(RUNNERS.cargoTest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.cargoTest, { want: WANT3, limits });
    const trail = await s.play([() => {}, (x) => x.fix('charlie'), (x) => x.fix('bravo'), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    expect(s.results[1]!.json.progress_reasons.join('; '), s.explain()).toMatch(/no longer failing: .*charlie_works/);
  }, 90_000);

  it.skipIf(RUNNERS.cargoTest.missing)(`cargo test: comment and formatting edits only, the same failure: stopped at 2${skipped(RUNNERS.cargoTest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.cargoTest, { want: { alpha: 1, bravo: 2 }, start: { values: { alpha: 0, bravo: 2 } }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { comment: 'tidy up' } }), (x) => x.edit({ code: { spacing: 2, local: 'value' } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  it('make check (lint, then the tests): the lint fixed exposes the tests, then one test at a time', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, start: { comment: 'TODO: tidy this up' }, checks: ['make -s check'], files: { Makefile: MAKEFILE, 'lint.cjs': LINT_TODO }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { comment: 'tidied' } }), (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
  }, 90_000);

  const core = inSubdir(RUNNERS.pytest, 'packages/core');
  it.skipIf(core.missing)(`a monorepo package (\`cd packages/core && python3 -m pytest -q\`): fix one of three, the last by name first${skipped(core)}`, async ({ expect }) => {
    const s = new Scenario(core, { want: WANT3, limits });
    const trail = await s.play([() => {}, (x) => x.fix('charlie'), (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
  }, 90_000);

  it('a checker that prints nothing, its exit status the number of wrong units: one fixed per iteration is progress each time', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT3, checks: ['node check.cjs'], files: { 'check.cjs': SILENT_COUNT }, limits });
    const trail = await s.play([() => {}, (x) => x.fix('charlie'), (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
  }, 90_000);

  it('a checker that prints nothing and exits 1, comment edits only: the same failure, stopped at 2', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT3, checks: ['node check.cjs'], files: { 'check.cjs': SILENT_ONE }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { comment: 'tidy' } }), (x) => x.edit({ code: { comment: 'tidier' } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  it.skipIf(RUNNERS.pytest.missing)(`three checks (lint, compile, pytest): a syntax error and a TODO, each fix exposes the next failure${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.pytest, {
      want: { alpha: 1, bravo: 2 },
      start: { values: { alpha: 0, bravo: 2 }, comment: 'TODO: tidy this up', syntaxError: true },
      checks: ['node lint.cjs units.py', 'python3 -m py_compile units.py', RUNNERS.pytest.verify],
      files: { 'lint.cjs': LINT_TODO },
      limits,
    });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { syntaxError: false } }), (x) => x.edit({ code: { comment: 'tidied' } }), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
  }, 90_000);
});

describe.concurrent('first contact: more shapes of a run', () => {
  it('node:test with the spec reporter in colour (FORCE_COLOR, durations on every line): a fix is progress, comment edits are the same failure', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT3, checks: ['FORCE_COLOR=1 node --test --test-reporter=spec test/'], limits });
    const trail = await s.play([() => {}, (x) => x.fix('bravo'), (x) => x.edit({ code: { comment: 'tidy' } }), (x) => x.edit({ code: { comment: 'tidier' } })]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  it('an agent that adds a new (failing) test while it fixes another: progress, then pass', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, limits });
    const trail = await s.play([
      () => {},
      (x) => x.edit({ code: { values: { alpha: 1, charlie: 0 } }, suite: { want: { alpha: 1, bravo: 2, charlie: 3 } } }),
      (x) => x.fix('bravo', 'charlie'),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
  }, 90_000);
});
