/**
 * First contact, fourth round (second part): a fix that lives in a git-ignored file (.env), a
 * failure among thousands of passing tests, go's shuffled order with its seed printed, a check
 * whose tool is not installed, a test file deleted outright, and a snapshot "updated" to what the
 * code returns. Each trail was written down before the scenario first ran.
 */
import { describe, it } from 'vitest';
import { PLAN, Scenario, type Limits } from './harness.js';
import { RUNNERS, type Runner, type Suite } from './runners.js';

const skipped = (runner: Runner) => (runner.missing ? ` — skipped: ${runner.missing}` : '');
const limits: Limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const WANT3 = { alpha: 1, bravo: 2, charlie: 3 };
const units = (suite: Suite) => Object.keys(suite.want).filter((u) => !(suite.drop ?? []).includes(u));

/** A unit's value read from the git-ignored .env (`ALPHA=1`). */
const fromEnv = (u: string) => `Number((require('node:fs').readFileSync(require('node:path').join(__dirname, '..', '.env'), 'utf8').match(/^${u.toUpperCase()}=(\\d+)$/m) || [])[1] || 0)`;
const envFile = (values: Record<string, number>) => Object.entries(values).map(([u, v]) => `${u.toUpperCase()}=${v}\n`).join('');

/** node:test with 3,000 passing tests around the units' tests. */
const bigSuite: Runner = {
  ...RUNNERS.nodeTest,
  id: 'node:test (3,000 passing tests)',
  tests: (suite) => {
    const head = "const test = require('node:test');\nconst assert = require('node:assert');\nconst units = require('../src/units.js');\n";
    const filler = Array.from({ length: 3000 }, (_, i) => `test('passes ${i}', () => {});\n`).join('');
    return { 'test/units.test.js': `${head}${filler}${units(suite).map((u) => `test('${u}', () => { assert.strictEqual(units.${u}(), ${suite.want[u]}); });\n`).join('')}` };
  },
};

/** vitest comparing each unit to a committed snapshot file. */
const vitestSnapshot: Runner = {
  ...RUNNERS.vitest,
  id: 'vitest (snapshot)',
  tests: (suite) => ({
    ...RUNNERS.vitest.tests(suite),
    'test/units.test.js': `import { expect, test } from 'vitest';\nimport * as units from '../src/units.js';\n${units(suite).map((u) => `test('${u}', () => { expect(units.${u}()).toMatchSnapshot(); });\n`).join('')}`,
  }),
};
const snapshotOf = (values: Record<string, number>) => `// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\n${Object.entries(values).map(([u, v]) => `exports[\`${u} 1\`] = \`${v}\`;\n`).join('\n')}`;
const SNAP = 'test/__snapshots__/units.test.js.snap';

describe.concurrent('first contact: edges of what the loop can see', () => {
  // Written first as progress each time; it stopped at 3 with no_progress ("back to the same tree
  // … no longer failing: charlie without a code change: not counted"): the progress key is a diff
  // of git trees and leaves out what git ignores. The files the task names are now read with the
  // snapshot (declared_hash), so a fix there is a new state.
  it('node:test: the values live in the git-ignored .env the task names, fixed one per iteration: progress each time, pass at 4', async ({ expect }) => {
    const values = Object.fromEntries(Object.keys(WANT3).map((u) => [u, fromEnv(u)]));
    const s = new Scenario(RUNNERS.nodeTest, { want: WANT3, start: { values }, files: { '.gitignore': '.home/\n.env\n' }, taskFiles: ['.env', 'src/units.js'], limits });
    s.write('.env', envFile({ alpha: 0, bravo: 0, charlie: 0 }));
    const trail = await s.play([
      () => {},
      (x) => x.write('.env', envFile({ alpha: 0, bravo: 0, charlie: 3 })),
      (x) => x.write('.env', envFile({ alpha: 1, bravo: 0, charlie: 3 })),
      (x) => x.write('.env', envFile({ alpha: 1, bravo: 2, charlie: 3 })),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    // And an agent that leaves .env as it is, or puts back what it held, makes no progress.
    const idle = new Scenario(RUNNERS.nodeTest, { want: WANT3, start: { values }, files: { '.gitignore': '.home/\n.env\n' }, taskFiles: ['.env', 'src/units.js'], limits: { max_iterations: 8, error_fingerprint_repeats: 6, no_progress_repeats: 2 } });
    idle.write('.env', envFile({ alpha: 0, bravo: 0, charlie: 0 }));
    const back = await idle.play([() => {}, (x) => x.write('.env', envFile({ alpha: 0, bravo: 5, charlie: 0 })), (x) => x.write('.env', envFile({ alpha: 0, bravo: 0, charlie: 0 })), () => {}]);
    expect(back, idle.explain()).toEqual(['retry+', 'retry+', 'retry-', 'stop:no_progress']);
  }, 90_000);

  it('node:test: two failures among 3,000 passing tests, the second by name fixed first: progress, pass at 3', async ({ expect }) => {
    const s = new Scenario(bigSuite, { want: { alpha: 1, bravo: 2 }, limits });
    const trail = await s.play([() => {}, (x) => x.fix('bravo'), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
  }, 90_000);

  it.skipIf(RUNNERS.goTest.missing)(`go test -shuffle=on (a new seed printed every run, the order random): one fix is progress, idle after it stops at 3${skipped(RUNNERS.goTest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.goTest, { want: WANT3, checks: ['go test -shuffle=on ./...'], limits });
    const trail = await s.play([() => {}, (x) => x.fix('bravo'), () => {}, () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  // Written first as "command not found" every iteration, stopped at 2. The plan reader reads a
  // first word that resolves nowhere (PATH, node_modules/.bin) as no command, so the task is not
  // looped at all: exit 2, "execute it normally". A policy kept as it is (plan reading, not the
  // verdicts); the reason does not name the missing program (reported).
  it('a check whose tool is not installed (`bun test`): the task is not looped (exit 2, task_skipped), no verdict', async ({ expect }) => {
    const s = new Scenario(RUNNERS.nodeTest, { want: { alpha: 1, bravo: 2 }, checks: ['bun test'], limits });
    const r = await s.ralf(['task', 'verify', PLAN, '1', '--json']);
    expect(r.exitCode, String(r.stdout)).toBe(2);
    expect(JSON.parse(String(r.stdout)).error.kind).toBe('task_skipped');
  }, 90_000);

  it.skipIf(RUNNERS.vitest.missing)(`vitest, one file per test: fixes two, then deletes the last failing test's file: a Rule 4 stop naming it, never a pass${skipped(RUNNERS.vitest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.vitest, { want: WANT3, suite: { filePerUnit: true }, limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo'), (x) => x.edit({ suite: { drop: ['charlie'] } }), () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'stop:rule4_architectural']);
    expect(s.results[3]!.json.handoff.escalation.findings, s.explain()).toEqual(["deleted file outside the task's <files>: test/charlie.test.js"]);
  }, 90_000);

  // Written first as pass at 3. `pytest --lf` reruns only the tests that failed last time, so the
  // green run counts 2 tests where the loop saw 3: held as "runs 2 tests (3 earlier in the loop)",
  // as a deleted failing test is (a passing run names no tests: the two cannot be told apart). The
  // next verify finds no failures cached, runs all three and passes: one iteration more. Kept.
  it.skipIf(RUNNERS.pytest.missing)(`pytest --lf (reruns only the last failures): the green run of the last two is held as fewer tests, the next verify (all three) passes${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = new Scenario(RUNNERS.pytest, { want: WANT3, checks: ['python3 -m pytest -q --lf'], limits });
    const trail = await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo', 'charlie'), () => {}]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    expect(s.results[2]!.json.fingerprint, s.explain()).toBe('held: runs 2 tests (3 earlier in the loop)');
  }, 90_000);

  it.skipIf(vitestSnapshot.missing)(`vitest: the snapshot "updated" to what the code returns: passes (the output cannot tell), naming the snapshot file${skipped(vitestSnapshot)}`, async ({ expect }) => {
    const s = new Scenario(vitestSnapshot, { want: { alpha: 1, bravo: 2 }, start: { values: { alpha: 0, bravo: 2 } }, files: { [SNAP]: snapshotOf({ alpha: 1, bravo: 2 }) }, limits });
    const trail = await s.play([() => {}, (x) => x.write(SNAP, snapshotOf({ alpha: 0, bravo: 2 }))]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    expect(s.results[1]!.json.tests_edited, s.explain()).toEqual({ since: 1, paths: [SNAP], count: 1 });
  }, 90_000);
});
