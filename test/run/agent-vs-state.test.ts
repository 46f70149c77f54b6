/**
 * Agents that go after ralf's own files in `.planning/ralf/` (the loop's state, the run's
 * memory, the touched-paths ledger): `git clean -fdx` or `rm -rf .planning/ralf` between
 * verifies restarted the loop's count every iteration, so `ralf run` never stopped (and an agent
 * quick enough to delete the directory before its log file opened crashed the run with an
 * unhandled ENOENT). A link out of the project put where the directory was must never be
 * written through.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { autoTask, git, makeProject, ofType, runResultOf, runStableCli, type Project } from './helpers.js';
import { captureLoopFiles, restoreLoopFiles } from '../../src/run/loop-files-guard.js';

/** An agent that runs `script` in the project (never fixing the task) and logs each prompt. */
function scriptAgent(p: Project, script: string): string {
  const file = join(p.logDir, 'agent.sh');
  writeFileSync(file, `#!/bin/bash\nn=$(ls "${p.logDir}" | grep -c '\\.txt$')\ncat > "${p.logDir}/$((n + 1)).txt"\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function run(p: Project, agent: string) {
  const r = await runStableCli(['run', p.planRel, '--agent', agent, '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') }), timeout: 60_000 });
  return runResultOf(r);
}

describe.concurrent('ralf run: the agent cannot reset or redirect the loop by touching .planning/ralf/', () => {
  for (const wipe of ['git clean -fdxq', 'rm -rf .planning/ralf']) {
    it(`\`${wipe}\` every iteration: the count goes on and the task stops within max_iterations`, async () => {
      const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { max_iterations: 4, error_fingerprint_repeats: 9, no_progress_repeats: 9 } });
      const r = await run(p, scriptAgent(p, `${wipe}\necho "try $RANDOM" > a.txt`));
      expect(r.stderr).toBe('');
      expect(r.exitCode, r.stdout.slice(-1500)).toBe(20);
      const end = ofType(r.events, 'task_end')[0]!;
      expect(end.outcome).toBe('stopped');
      expect([end.iterations, end.stop_reason], JSON.stringify(ofType(r.events, "verify").map((e) => e.message))).toEqual([4, "max_iterations"]);
      const warnings = ofType(r.events, 'warning').map((e) => String(e.message));
      expect(warnings.filter((m) => m.includes("ralf's own files")).length).toBe(4);
      // The next agent is told, in its prompt.
      expect(readFileSync(join(p.logDir, '2.txt'), 'utf8')).toMatch(/Leave \.planning\/ralf\/ alone/);
      // The agent's edit of a.txt is put back at the stop; the loop's files stay out of git.
      expect(existsSync(join(p.root, 'a.txt'))).toBe(false);
      expect(git(p.root, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    });
  }

  it('`git clean -fd` (no -x) leaves the self-ignoring state directory alone: nothing to put back', async () => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { max_iterations: 2 } });
    const r = await run(p, scriptAgent(p, 'git clean -fdq\necho ok > a.txt'));
    expect(r.exitCode, r.stdout.slice(-1500)).toBe(0);
    expect(ofType(r.events, 'warning').map((e) => String(e.message)).filter((m) => m.includes("ralf's own files"))).toEqual([]);
    expect(readFileSync(join(p.root, '.planning', 'ralf', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it('.planning/ralf replaced by a link out of the project: nothing is written through it, the run stops naming the link', async () => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { max_iterations: 3 } });
    const outside = tempDir('ralf-outside-');
    writeFileSync(join(outside, 'keep.txt'), 'not ralf\'s\n');
    const r = await run(p, scriptAgent(p, `rm -rf .planning/ralf\nln -s ${JSON.stringify(outside)} .planning/ralf\necho nope > a.txt`));
    expect(r.exitCode, r.stdout.slice(-1500)).toBe(2);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
    expect(r.stdout + r.stderr).toMatch(/symbolic link to .*outside/);
  });
});

describe('loop-files guard (no processes)', () => {
  it('puts back changed and deleted files, leaves files that did not exist and unchanged ones alone', () => {
    const root = tempDir('ralf-guard-');
    const dir = join(root, '.planning', 'ralf');
    mkdirSync(join(dir, 'run'), { recursive: true });
    const state = join(dir, '01-01.json');
    const memory = join(dir, 'run', '01-01.json');
    const same = join(dir, 'same.json');
    const absent = join(dir, 'later.json');
    writeFileSync(state, '{"iterations":3}\n');
    writeFileSync(memory, '{"tasks":{}}\n');
    writeFileSync(same, 'x\n');
    const captured = captureLoopFiles([state, memory, same, absent]);
    rmSync(dir, { recursive: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(same, 'x\n');
    writeFileSync(absent, 'made after the capture\n');
    expect(restoreLoopFiles(root, captured)).toEqual({ restored: ['.planning/ralf/01-01.json', '.planning/ralf/run/01-01.json'], failed: [] });
    expect(readFileSync(state, 'utf8')).toBe('{"iterations":3}\n');
    expect(readFileSync(memory, 'utf8')).toBe('{"tasks":{}}\n');
    expect(readFileSync(absent, 'utf8')).toBe('made after the capture\n');
    expect(existsSync(join(dir, '.gitignore'))).toBe(true);
  });

  it('refuses to write through a link out of the project', () => {
    const root = tempDir('ralf-guard-');
    const outside = tempDir('ralf-guard-out-');
    mkdirSync(join(root, '.planning'), { recursive: true });
    symlinkSync(outside, join(root, '.planning', 'ralf'));
    expect(() => restoreLoopFiles(root, [{ path: join(root, '.planning', 'ralf', '01-01.json'), text: '{}\n' }])).toThrow(/outside/);
    expect(readdirSync(outside)).toEqual([]);
  });
});
