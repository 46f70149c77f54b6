/**
 * Issue 12 item 9: the command texts name the runtime that runs in the reader's context. A copy
 * installed by `ralf install` (into a config dir whose path has a space) prints its own
 * command line in `next`, the handoff and the Loop Report, and that exact text runs in a shell.
 * With `ralf` on PATH being the same runtime, the texts say `ralf`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invocationFrom } from '../../src/engine/shell/invocation.js';
import { cliPath, runCli, tempDir } from '../helpers/cli.js';
import { autoTask, Project, PLAN_REL, VALUE_CHECK } from './project.js';

/** node and git, and no `ralf`: what an agent's shell has after `ralf install`. */
const BARE_PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

function project(): Project {
  return new Project({
    tasks: autoTask({ name: 'Task 1: Make the value right', verify: 'node check.js' }),
    files: { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK },
    config: { max_iterations: 5, no_progress_repeats: 2, error_fingerprint_repeats: 5 },
  });
}

/** The commands quoted in a text, in order (inline code spans). */
const quoted = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** Runs a command text as written, as an agent's or a person's shell would. */
function sh(p: Project, command: string, path = BARE_PATH) {
  return spawnSync('sh', ['-c', command], { cwd: p.dir, env: p.env({ PATH: path }) as NodeJS.ProcessEnv, encoding: 'utf8' });
}

describe('command texts from an installed copy', () => {
  let p: Project;
  let installed: string;
  let runtime: string;

  beforeAll(async () => {
    p = project();
    const configDir = join(p.home, 'my claude');
    const r = await runCli(['install', '--claude', '--config-dir', configDir, '--json'], { cwd: p.dir, env: p.env({ PATH: BARE_PATH }) });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    installed = join(configDir, 'ralf-lite', 'ralf.js');
    // The line `ralf install` writes into the host's commands (and reports as `runtime`).
    runtime = JSON.parse(String(r.stdout)).targets[0].runtime;
    expect(runtime).toBe(`"${process.execPath}" "${installed}"`);
  });

  it('next, the handoff and the Loop Report name the installed runtime, and each text runs as written', async () => {
    const installedRun = (args: string[]) => execFileSync(process.execPath, [installed, ...args], { cwd: p.dir, env: p.env({ PATH: BARE_PATH }) as NodeJS.ProcessEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    let first: { next: string };
    try {
      installedRun(['task', 'verify', PLAN_REL, '1', '--json']);
      throw new Error('expected exit 10');
    } catch (err) {
      const e = err as { status: number; stdout: string };
      expect(e.status).toBe(10);
      first = JSON.parse(e.stdout);
    }
    const verify = `${runtime} task verify ${PLAN_REL} 1`;
    expect(quoted(first.next)).toEqual([verify]);
    expect(first.next).not.toMatch(/`ralf /);

    // The agent follows `next` exactly: iteration 2 (no progress), then the stop on iteration 3.
    const second = sh(p, verify);
    expect(second.status, second.stderr).toBe(10);
    expect(second.stdout).toContain(`next: Repair the failure above (only what this task needs), then run \`${verify}\` again.`);
    const third = sh(p, `${verify} --json`);
    expect(third.status, third.stderr).toBe(20);
    const stopped = JSON.parse(third.stdout);
    expect(stopped.stop_reason).toBe('no_progress');
    const reset = `${runtime} task reset ${PLAN_REL} 1`;
    expect(stopped.handoff.recommendation).toContain(`\`${reset}\``);
    expect(stopped.handoff.markdown).toContain(`\`${reset}\``);
    expect(stopped.handoff.markdown).not.toMatch(/`ralf /);

    // The Loop Report is read later by a person in a terminal: `node ~/…` (no user's home, no
    // node path that an upgrade moves), and it runs as written there.
    const report = sh(p, `${runtime} report ${PLAN_REL} --create`);
    expect(report.status, report.stderr).toBe(0);
    const summary = readFileSync(join(dirname(p.plan), '01-01-SUMMARY.md'), 'utf8');
    const humanReset = `node ~/'my claude/ralf-lite/ralf.js' task reset ${PLAN_REL} 1`;
    expect(summary).toContain(`\`${humanReset}\``);
    expect(summary).not.toContain(p.home);
    const done = sh(p, humanReset);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain('reset task 1');
    expect(p.state().tasks[Object.keys(p.state().tasks)[0]!].iterations).toEqual([]);
  });

  it('with `ralf` on PATH being this runtime, the texts say `ralf` (and that runs too)', () => {
    const bin = join(p.home, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(installed, join(bin, 'ralf'));
    const path = `${bin}:${BARE_PATH}`;
    const r = sh(p, `ralf task verify ${PLAN_REL} 1 --json`, path);
    expect(r.status, r.stderr).toBe(10);
    const verify = `ralf task verify ${PLAN_REL} 1`;
    expect(quoted(JSON.parse(r.stdout).next)).toEqual([verify]);
    expect(sh(p, verify, path).status).toBe(10);
  });

  it('a `ralf` on PATH that is another runtime is not named: the texts keep the installed copy', () => {
    const bin = join(p.home, 'other-bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(cliPath, join(bin, 'ralf'));
    const r = sh(p, `${runtime} task verify ${PLAN_REL} 1 --json`, `${bin}:${BARE_PATH}`);
    expect(r.status, r.stderr).toBe(20);
    const handoff = JSON.parse(r.stdout).handoff.markdown as string;
    expect(handoff).toContain(`\`${runtime} task reset ${PLAN_REL} 1\``);
    expect(handoff).not.toMatch(/`ralf /);
  });
});

describe('command texts printed outside the project root', () => {
  /** Runs a command text as written in `cwd` (a subdirectory, or somewhere else entirely). */
  const shIn = (p: Project, cwd: string, command: string) => spawnSync('sh', ['-c', command], { cwd, env: p.env({ PATH: BARE_PATH }) as NodeJS.ProcessEnv, encoding: 'utf8' });
  const runtime = `"${process.execPath}" "${cliPath}"`;

  it('an agent in a subdirectory gets texts with --cwd <project root>, and each runs as written there', () => {
    const p = project();
    const sub = join(p.dir, 'src');
    const first = shIn(p, sub, `${runtime} task verify ../${PLAN_REL} 1 --json`);
    expect(first.status, first.stderr).toBe(10);
    const verify = `${runtime} --cwd ${p.dir} task verify ${PLAN_REL} 1`;
    expect(quoted(JSON.parse(first.stdout).next)).toEqual([verify]);

    // Followed as written from the same subdirectory: iteration 2, then the stop with its handoff.
    expect(shIn(p, sub, verify).status).toBe(10);
    const third = shIn(p, sub, `${verify} --json`);
    expect(third.status, third.stderr).toBe(20);
    const reset = `${runtime} --cwd ${p.dir} task reset ${PLAN_REL} 1`;
    expect(JSON.parse(third.stdout).handoff.markdown).toContain(`\`${reset}\``);
    const done = shIn(p, sub, reset);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain('reset task 1');
  });

  it('`--cwd DIR` from elsewhere: the texts carry it, before the subcommand or after it alike', () => {
    const p = project();
    const elsewhere = tempDir();
    const first = shIn(p, elsewhere, `${runtime} task verify --cwd ${p.dir} ${PLAN_REL} 1 --json`);
    expect(first.status, first.stderr).toBe(10);
    const verify = `${runtime} --cwd ${p.dir} task verify ${PLAN_REL} 1`;
    expect(quoted(JSON.parse(first.stdout).next)).toEqual([verify]);
    expect(shIn(p, elsewhere, verify).status).toBe(10);
    // Run in the project root, the same loop's texts name no --cwd.
    const inRoot = shIn(p, p.dir, `${runtime} task verify ${PLAN_REL} 1 --json`);
    expect(inRoot.status, inRoot.stderr).toBe(20);
    expect(JSON.parse(inRoot.stdout).handoff.markdown).toContain(`\`${runtime} task reset ${PLAN_REL} 1\``);
  });
});

describe('invocationFrom: the rule', () => {
  const dir = tempDir('ralf-invocation-');
  const entry = join(dir, 'rt dir', 'ralf.js');
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(entry, '#!/usr/bin/env node\n', { mode: 0o755 });
  const npmBin = join(dir, 'node_modules', '.bin');
  mkdirSync(npmBin, { recursive: true });
  symlinkSync(entry, join(npmBin, 'ralf'));
  const facts = { entry, execPath: '/opt/node/bin/node', path: npmBin, home: '/home/u', builtRuntime: true };

  it('the engine imported in-process (not the built runtime) says `ralf`', () => {
    expect(invocationFrom({ ...facts, builtRuntime: false })).toBe('ralf');
  });

  it('a `ralf` that npm or npx put on this process\'s PATH (node_modules/.bin) is not on the reader\'s: the command line', () => {
    expect(invocationFrom(facts)).toBe(`"/opt/node/bin/node" "${entry}"`);
  });

  it('for a terminal: `node` and the entry, under HOME as ~/…, quoted for the shell', () => {
    expect(invocationFrom(facts, 'terminal')).toBe(`node '${entry}'`);
    expect(invocationFrom({ ...facts, home: dir }, 'terminal')).toBe("node ~/'rt dir/ralf.js'");
  });
});
