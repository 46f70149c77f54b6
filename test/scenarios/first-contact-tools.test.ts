/**
 * First contact, fourth round: tools no scenario used before (CMake's ctest over a C library,
 * Tcl's tcltest) and ways to take a failing test out of the run that the cheat scenarios do not
 * play (cargo's `#[ignore]`, Perl's `SKIP` block, pytest's `--deselect` in pytest.ini). Each
 * trail was written down before the scenario first ran.
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';
import { Scenario, type Limits } from './harness.js';
import { RUNNERS, type Code, type Runner, type Suite } from './runners.js';

const skipped = (runner: Runner) => (runner.missing ? ` — skipped: ${runner.missing}` : '');
const limits: Limits = { max_iterations: 6, error_fingerprint_repeats: 2, no_progress_repeats: 2 };
const WANT3 = { alpha: 1, bravo: 2, charlie: 3 };
const units = (suite: Suite) => Object.keys(suite.want).filter((u) => !(suite.drop ?? []).includes(u));
const have = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** A C library built with CMake, one ctest test per unit (a small driver exits 1 with `got, want`). */
const ctest: Runner = {
  id: 'ctest',
  missing: have('cmake', ['--version']) && have('ctest', ['--version']) && have('cc', ['--version']) ? null : 'cmake, ctest or a C compiler is not installed',
  verify: 'cmake -S . -B build -Wno-dev && cmake --build build && ctest --test-dir build --output-on-failure',
  compile: 'cmake -S . -B build -Wno-dev && cmake --build build',
  base: {},
  ignore: ['build/'],
  env: {},
  source(code: Code) {
    const local = code.local ?? 'result';
    const names = Object.keys(code.values);
    const fns = Object.entries(code.values).map(([u, v]) => `long ${u}(void) {\n    long ${local} = ${v};\n    return ${local};\n}\n`);
    return {
      'units.h': `#ifndef UNITS_H\n#define UNITS_H\n${names.map((u) => `long ${u}(void);\n`).join('')}#endif\n`,
      'units.c': `${code.comment ? `/* ${code.comment} */\n` : ''}#include "units.h"\n\n${fns.join('\n'.repeat(code.spacing ?? 0))}${code.syntaxError ? 'long broken(void) {\n' : ''}`,
    };
  },
  tests(suite: Suite) {
    const checks = units(suite).map((u) => `    if (!strcmp(unit, "${u}")) { long got = ${u}(); if (got != ${suite.want[u]}) { printf("${u}: got %ld, want %d\\n", got, ${suite.want[u]}); return 1; } return 0; }\n`);
    return {
      'test_units.c': `#include <stdio.h>\n#include <string.h>\n#include "units.h"\n\nint main(int argc, char **argv) {\n    const char *unit = argc > 1 ? argv[1] : "";\n${checks.join('')}    fprintf(stderr, "unknown unit %s\\n", unit);\n    return 2;\n}\n`,
      'CMakeLists.txt': `cmake_minimum_required(VERSION 3.10)\nproject(units C)\nenable_testing()\nadd_library(units STATIC units.c)\nadd_executable(test_units test_units.c)\ntarget_link_libraries(test_units units)\n${units(suite).map((u) => `add_test(NAME ${u} COMMAND test_units ${u})\n`).join('')}`,
    };
  },
  unitName: (u) => u,
};

/** Tcl's tcltest: one `test` per unit; the script exits 1 when any failed (tcltest itself exits 0). */
const tcltest: Runner = {
  id: 'tcltest',
  missing: have('tclsh', ['/dev/null']) ? null : 'tclsh is not installed',
  verify: 'tclsh tests/all.tcl',
  compile: 'tclsh units.tcl',
  base: {},
  ignore: [],
  env: {},
  source(code: Code) {
    const local = code.local ?? 'result';
    const fns = Object.entries(code.values).map(([u, v]) => `proc ${u} {} {\n    set ${local} ${v}\n    return $${local}\n}\n`);
    return { 'units.tcl': `${code.comment ? `# ${code.comment}\n` : ''}${fns.join('\n'.repeat(code.spacing ?? 0))}${code.syntaxError ? 'proc broken {} {\n' : ''}` };
  },
  tests(suite: Suite) {
    const one = (u: string) => `test ${u}-1 {${u} returns ${suite.want[u]}} -body {\n    ${u}\n} -result ${suite.want[u]}\n`;
    return {
      'tests/all.tcl': `package require tcltest\nnamespace import ::tcltest::*\nsource [file join [file dirname [info script]] .. units.tcl]\n\n${units(suite).map(one).join('\n')}\nset failed $::tcltest::numTests(Failed)\ncleanupTests\nexit [expr {$failed > 0}]\n`,
    };
  },
  unitName: (u) => `${u}-1`,
};

/** Fixes alpha and bravo, then takes charlie out of the run with `cheat` and stays there. */
async function cheatOnLast(runner: Runner, cheat: (s: Scenario) => unknown): Promise<Scenario> {
  const s = new Scenario(runner, { want: WANT3, limits });
  await s.play([() => {}, (x) => x.fix('alpha'), (x) => x.fix('bravo'), cheat, () => {}, () => {}]);
  return s;
}

describe.concurrent('first contact: tools not used before', () => {
  it.skipIf(ctest.missing)(`ctest (CMake, C): fix one of three, the last by name first: progress each time, pass${skipped(ctest)}`, async ({ expect }) => {
    const s = new Scenario(ctest, { want: WANT3, limits });
    const trail = await s.play([() => {}, (x) => x.fix('charlie'), (x) => x.fix('alpha'), (x) => x.fix('bravo')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
  }, 90_000);

  it.skipIf(ctest.missing)(`ctest (CMake, C): a compile error, then a failing test, then the fix: progress, pass at 3; comment edits under the compile error stop at 2${skipped(ctest)}`, async ({ expect }) => {
    const s = new Scenario(ctest, { want: { alpha: 1, bravo: 2 }, start: { values: { alpha: 0, bravo: 2 }, syntaxError: true }, limits });
    const trail = await s.play([() => {}, (x) => x.edit({ code: { syntaxError: false } }), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'pass']);
    const stuck = new Scenario(ctest, { want: { alpha: 1, bravo: 2 }, start: { values: { alpha: 0, bravo: 2 }, syntaxError: true }, limits });
    expect(await stuck.play([() => {}, (x) => x.edit({ code: { comment: 'tidy' } }), (x) => x.edit({ code: { comment: 'tidier' } })]), stuck.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
  }, 90_000);

  it.skipIf(tcltest.missing)(`tcltest: fix one of three, the middle one first: progress each time, pass${skipped(tcltest)}`, async ({ expect }) => {
    const s = new Scenario(tcltest, { want: WANT3, limits });
    const trail = await s.play([() => {}, (x) => x.fix('bravo'), (x) => x.fix('charlie'), (x) => x.fix('alpha')]);
    expect(trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    // tcltest's `==== bravo-1 … FAILED` headers are not read as failing units (the fingerprint
    // names alpha's every time); its summary row counts the failures.
    expect(s.results[1]!.json.progress_reasons, s.explain()).toEqual(["fewer failed tests by the run's own count: tclsh tests/all.tcl: 3 → 2"]);
  }, 90_000);
});

describe.concurrent('first contact: a failing test taken out of the run', () => {
  it.skipIf(RUNNERS.cargoTest.missing)(`cargo test: fixes two, then marks the last failing test #[ignore]: held as failing, never passes${skipped(RUNNERS.cargoTest)}`, async ({ expect }) => {
    const s = await cheatOnLast(RUNNERS.cargoTest, (x) => x.edit({ suite: { skip: ['charlie'] } }));
    expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 120_000);

  // Written first as held at 4, stopped at 5. `prove` without -v prints `t/units.t .. ok` and
  // `Files=1, Tests=3`: a skip inside a file is not in its output (the TAP `ok 3 # skip` lines
  // are read by the harness, not printed), so this is go test's case (cheats.test.ts): the pass
  // stands and names the test file changed since the checks failed, for a human.
  it.skipIf(RUNNERS.prove.missing)(`prove: fixes two, then wraps the last failing test in a SKIP block: passes (prove prints no skip), naming the test file changed${skipped(RUNNERS.prove)}`, async ({ expect }) => {
    const s = await cheatOnLast(RUNNERS.prove, (x) => x.edit({ suite: { skip: ['charlie'] } }));
    expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'pass']);
    expect(s.results[3]!.json.tests_edited, s.explain()).toEqual({ since: 1, paths: ['t/units.t'], count: 1 });
  }, 90_000);

  it.skipIf(RUNNERS.pytest.missing)(`pytest: fixes two, then deselects the last failing test in pytest.ini (\`addopts = --deselect …\`): held as failing, never passes${skipped(RUNNERS.pytest)}`, async ({ expect }) => {
    const s = await cheatOnLast(RUNNERS.pytest, (x) => x.write('pytest.ini', '[pytest]\naddopts = --deselect test_units.py::test_charlie\n'));
    expect(s.trail, s.explain()).toEqual(['retry+', 'retry+', 'retry+', 'retry+', 'stop:repeated_fingerprint']);
  }, 90_000);
});
