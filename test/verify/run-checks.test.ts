import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/plan/model.js';
import { runChecks, type RunChecksOptions } from '../../src/verify/run-checks.js';
import { formatCommandForDisplay } from '../../src/verify/describe.js';
import { tempDir } from '../helpers/cli.js';
import { alive, waitGone } from '../helpers/processes.js';
import { fixture, pidFrom } from './helpers.js';

const source = { element: 'verify', line: 1 };
const cmd = (command: string): Check => ({ kind: 'command_succeeds', command, source });

function opts(extra: Partial<RunChecksOptions> = {}): RunChecksOptions {
  return { cwd: tempDir('ralf-verify-'), timeoutMs: 20_000, stopOnFirstFailure: false, ...extra };
}

describe('runChecks: shell commands', () => {
  it('records exit codes and runs every check by default', async () => {
    const results = await runChecks([cmd(fixture('exit.js', '0')), cmd(fixture('exit.js', '1')), cmd(fixture('exit.js', '42'))], opts());
    expect(results.map((r) => [r.index, r.passed, r.exit_code, r.skipped ?? false])).toEqual([
      [0, true, 0, false],
      [1, false, 1, false],
      [2, false, 42, false],
    ]);
    for (const r of results) {
      expect(r.kind).toBe('command_succeeds');
      expect(r.signal).toBeNull();
      expect(r.timed_out).toBe(false);
      expect(r.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(results[2]?.output_tail).toBe('exiting with 42\n');
  });

  it('skips the checks after the first failure with stopOnFirstFailure', async () => {
    const started: number[] = [];
    const checks: Check[] = [
      cmd('true'),
      cmd('exit 3'),
      cmd('echo never'),
      { kind: 'file_exists', path: 'x', source },
    ];
    const results = await runChecks(checks, opts({ stopOnFirstFailure: true, onCheckStart: (i) => started.push(i) }));
    expect(started).toEqual([0, 1]);
    expect(results.map((r) => [r.passed, r.skipped ?? false])).toEqual([
      [true, false],
      [false, false],
      [false, true],
      [false, true],
    ]);
    expect(results[2]).toMatchObject({ command: 'echo never', exit_code: null, output_tail: '', duration_ms: 0 });
    expect(results[3]?.command).toBe('file_exists x');
  });

  it('interleaves stdout and stderr into one output', async () => {
    const [r] = await runChecks([{ kind: 'tests_pass', command: fixture('both-streams.js', '2'), source }], opts());
    expect(r?.kind).toBe('tests_pass');
    expect(r?.exit_code).toBe(2);
    expect(r?.output_tail).toBe('out 1\nerr 1\nout 2\nerr 2\n');
  });

  it('runs through /bin/sh in the project root with stdin ignored and env merged', async () => {
    const o = opts({ env: { RALF_TEST_VALUE: 'hello' } });
    writeFileSync(join(o.cwd, 'marker.txt'), 'here');
    const [r] = await runChecks([cmd('cat marker.txt && echo " $RALF_TEST_VALUE" && test -n "$PATH" && cat; echo "stdin done"')], o);
    expect(r?.passed).toBe(true);
    expect(r?.output_tail).toBe('here hello\nstdin done\n');
  });

  it('records a check killed by a signal as failed with the signal', async () => {
    const results = await runChecks([cmd(fixture('signal.js', 'SIGKILL')), cmd(fixture('signal.js', 'SIGSEGV'))], opts());
    expect(results[0]).toMatchObject({ passed: false, signal: 'SIGKILL', timed_out: false });
    expect(results[1]).toMatchObject({ passed: false, signal: 'SIGSEGV', timed_out: false });
    // bash execs a script's last command, so the shell and the check die as one: either way
    // the record is the signal and the status a shell gives it (128+N).
    const [direct] = await runChecks([cmd('kill -TERM $$')], opts());
    expect(direct).toMatchObject({ passed: false, exit_code: 143, signal: 'SIGTERM' });
  });

  it('kills a hung check and its child at the timeout', async () => {
    const started = Date.now();
    const [r] = await runChecks([cmd(fixture('forever.js'))], opts({ timeoutMs: 2000 }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r).toMatchObject({ passed: false, timed_out: true, signal: 'SIGTERM' });
    const self = pidFrom(r!.output_tail, 'self');
    const child = pidFrom(r!.output_tail, 'child');
    expect(await waitGone(self)).toBe(true);
    expect(await waitGone(child)).toBe(true);
  });

  it('escalates to SIGKILL when the tree ignores SIGTERM', async () => {
    const started = Date.now();
    // sh and its `sleep` children all ignore SIGTERM (an ignored signal is inherited).
    const script = `trap '' TERM; echo "self=$$"; while :; do sleep 0.1; done`;
    const [r] = await runChecks([cmd(script)], opts({ timeoutMs: 500, killGraceMs: 500 }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r).toMatchObject({ passed: false, timed_out: true, signal: 'SIGKILL' });
    expect(await waitGone(pidFrom(r!.output_tail, 'self'))).toBe(true);
  });

  it('does not hang on a daemon that keeps stdout open, and kills it with the group', async () => {
    const started = Date.now();
    const [r] = await runChecks([cmd(fixture('daemon.js'))], opts({ exitGraceMs: 500 }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r).toMatchObject({ passed: true, exit_code: 0, timed_out: false });
    expect(await waitGone(pidFrom(r!.output_tail, 'daemon'))).toBe(true);
  });

  it('does not hang on a daemon that left the process group', async () => {
    const started = Date.now();
    const [r] = await runChecks([cmd(fixture('daemon.js', '--setsid'))], opts({ exitGraceMs: 500 }));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r).toMatchObject({ passed: true, exit_code: 0 });
    const daemon = pidFrom(r!.output_tail, 'daemon');
    // Out of our reach by design; clean up after the test.
    if (alive(daemon)) process.kill(daemon, 'SIGKILL');
  });

  it('cleans up background processes a passing check left in its group', async () => {
    const [r] = await runChecks([cmd('sleep 30 >/dev/null 2>&1 & echo "bg=$!"')], opts());
    expect(r).toMatchObject({ passed: true, exit_code: 0 });
    expect(await waitGone(pidFrom(r!.output_tail, 'bg'))).toBe(true);
  });

  it('waits for a check that closes stdout early and keeps running', async () => {
    const [r] = await runChecks([cmd(fixture('close-stdout.js'))], opts());
    expect(r).toMatchObject({ passed: true, exit_code: 0, timed_out: false });
    expect(r?.output_tail).toBe('before close\nstill running\n');
  });

  it('keeps memory and output bounded for a check that prints 200 MB', async () => {
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const [r] = await runChecks([cmd(fixture('flood.js', '200'))], opts());
    const growth = process.memoryUsage().rss - before;
    expect(r?.passed).toBe(true);
    expect(r?.output_bytes).toBe(200 * 1024 * 1024 + 'BEGIN\n'.length + 'END\n'.length);
    expect(r!.output_tail.length).toBeLessThanOrEqual(64 * 1024 + 100);
    expect(r!.output_tail.startsWith('BEGIN\nxxx')).toBe(true);
    expect(r!.output_tail.endsWith('xxx\nEND\n')).toBe(true);
    expect(r!.output_tail).toMatch(/\n… \[\d+ bytes omitted\] …\n/);
    expect(growth).toBeLessThan(100 * 1024 * 1024);
  });

  it('honours maxOutputBytes as head + tail', async () => {
    const [r] = await runChecks([cmd('seq 1 10000')], opts({ maxOutputBytes: 400 }));
    const [head, tail] = r!.output_tail.split(/\n… \[\d+ bytes omitted\] …\n/);
    expect(head).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n31\n32\n33\n34\n35\n36\n37\n38\n39\n40\n41'.slice(0, 100));
    expect(tail?.length).toBe(300);
    expect(tail?.endsWith('9999\n10000\n')).toBe(true);
  });

  it('aborts the running check, kills its tree and marks the rest interrupted', async () => {
    const controller = new AbortController();
    const pidFile = join(tempDir(), 'pids.json');
    const started = Date.now();
    const results = await runChecks([cmd('true'), cmd(fixture('forever.js', pidFile)), cmd('true')], {
      ...opts({ signal: controller.signal }),
      onCheckStart: (i) => {
        if (i !== 1) return;
        // Abort once the fixture is up (its pids written), whatever the machine's speed.
        const poll = setInterval(() => {
          if (existsSync(pidFile)) {
            clearInterval(poll);
            controller.abort();
          }
        }, 20);
      },
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(results[0]).toMatchObject({ passed: true });
    expect(results[0]?.interrupted).toBeUndefined();
    expect(results[1]).toMatchObject({ passed: false, interrupted: true, timed_out: false });
    expect(results[2]).toMatchObject({ passed: false, skipped: true, interrupted: true });
    expect(await waitGone(pidFrom(results[1]!.output_tail, 'child'))).toBe(true);

    const again = await runChecks([cmd('true')], opts({ signal: controller.signal }));
    expect(again[0]).toMatchObject({ passed: false, skipped: true, interrupted: true });
  });

  it('reports a missing working directory as a failed check', async () => {
    const cwd = join(tempDir(), 'missing');
    const [r] = await runChecks([cmd('true')], opts({ cwd }));
    expect(r?.passed).toBe(false);
    expect(r?.exit_code).toBeNull();
    expect(r?.output_tail).toMatch(/could not start \/\S*\/(?:bash|sh) in /);
    expect(r?.output_tail).toContain(cwd);
  });

  it('fails an empty command instead of passing it vacuously, and reports shell errors with the right line', async () => {
    const [empty, syntax, missing] = await runChecks([cmd('  '), cmd('if then fi'), cmd('echo a\nnosuchcmd_xyz')], opts());
    expect(empty).toMatchObject({ passed: false, exit_code: null, output_tail: 'empty command: nothing to run' });
    expect(syntax).toMatchObject({ passed: false, exit_code: 2 });
    // The `exec 2>&1; ` prefix sits on line 1, so the shell's line numbers stay the user's (dash and bash formats).
    expect(syntax?.output_tail).toMatch(/\b(line )?1: syntax error/i);
    expect(missing).toMatchObject({ passed: false, exit_code: 127 });
    expect(missing?.output_tail).toMatch(/^a\n.*\b(line )?2: nosuchcmd_xyz: (command )?not found\n$/);
  });
});

describe('runChecks: file checks', () => {
  function project() {
    const root = tempDir('ralf-files-');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n// TODO: (a+b)*\nline3');
    writeFileSync(join(root, 'empty.txt'), '');
    return root;
  }

  it('checks existence, literal text and line counts', async () => {
    const root = project();
    const checks: Check[] = [
      { kind: 'file_exists', path: 'src/a.ts', source },
      { kind: 'file_exists', path: 'src/b.ts', source },
      { kind: 'contains_text', path: 'src/a.ts', text: '(a+b)*', source },
      { kind: 'contains_text', path: 'src/a.ts', text: 'a.b', source },
      { kind: 'min_lines', path: 'src/a.ts', min_lines: 3, source },
      { kind: 'min_lines', path: 'src/a.ts', min_lines: 4, source },
      { kind: 'min_lines', path: 'empty.txt', min_lines: 1, source },
      { kind: 'contains_text', path: 'src', text: 'x', source },
      { kind: 'file_exists', path: './src/../src/a.ts', source },
    ];
    const results = await runChecks(checks, opts({ cwd: root }));
    expect(results.map((r) => [r.command, r.passed, r.output_tail])).toEqual([
      ['file_exists src/a.ts', true, ''],
      ['file_exists src/b.ts', false, 'src/b.ts: no such file'],
      ['contains_text src/a.ts "(a+b)*"', true, ''],
      ['contains_text src/a.ts "a.b"', false, 'src/a.ts: does not contain "a.b"'],
      ['min_lines src/a.ts 3', true, ''],
      ['min_lines src/a.ts 4', false, 'src/a.ts: 3 lines, expected at least 4'],
      ['min_lines empty.txt 1', false, 'empty.txt: 0 lines, expected at least 1'],
      ['contains_text src "x"', false, 'src: is a directory, not a file'],
      ['file_exists ./src/../src/a.ts', true, ''],
    ]);
    for (const r of results) expect(r).toMatchObject({ exit_code: null, signal: null, timed_out: false });
  });

  it('refuses paths that escape the project root', async () => {
    const root = project();
    const outside = tempDir('ralf-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'password');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    const checks: Check[] = [
      { kind: 'file_exists', path: '../etc/passwd', source },
      { kind: 'contains_text', path: join(outside, 'secret.txt'), text: 'password', source },
      { kind: 'min_lines', path: 'src/../../x', min_lines: 1, source },
      { kind: 'contains_text', path: 'link.txt', text: 'password', source },
      { kind: 'file_exists', path: '', source },
    ];
    const results = await runChecks(checks, opts({ cwd: root }));
    expect(results.map((r) => r.passed)).toEqual([false, false, false, false, false]);
    expect(results[0]?.output_tail).toBe('../etc/passwd: outside the project root; not read');
    expect(results[1]?.output_tail).toContain('outside the project root');
    expect(results[2]?.output_tail).toBe('src/../../x: outside the project root; not read');
    expect(results[3]?.output_tail).toBe('link.txt: resolves outside the project root (symlink); not read');
    expect(results[4]?.output_tail).toContain('no path given');
  });

  it('finds text across read-chunk boundaries in a large file', async () => {
    const root = project();
    const big = 'a'.repeat(256 * 1024 - 3) + 'NEEDLE' + 'b'.repeat(1000);
    writeFileSync(join(root, 'big.txt'), big);
    const [found, missing] = await runChecks(
      [
        { kind: 'contains_text', path: 'big.txt', text: 'NEEDLE', source },
        { kind: 'contains_text', path: 'big.txt', text: 'NEEDLES', source },
      ],
      opts({ cwd: root }),
    );
    expect(found?.passed).toBe(true);
    expect(missing?.passed).toBe(false);
  });
});

describe('formatCommandForDisplay', () => {
  it('collapses whitespace and truncates', () => {
    expect(formatCommandForDisplay('npm   test\n  && echo ok')).toBe('npm test && echo ok');
    expect(formatCommandForDisplay('x'.repeat(50), 10)).toBe('xxxxxxxxx…');
    expect(formatCommandForDisplay({ kind: 'min_lines', path: 'a.md', min_lines: 5, source })).toBe('min_lines a.md 5');
  });
});
