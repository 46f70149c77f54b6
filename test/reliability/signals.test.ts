/**
 * Signals and kills leave no process behind: SIGHUP to `ralf task verify` kills the running
 * check; a check child that moved into a process group of its own (same session) does not
 * survive the verify; after `kill -9` of `ralf run` the next run stops the orphaned agent
 * (and what it started) before starting its own, so two agents never run at once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT, agentCmd, git, makeProject, runStableCli } from '../run/helpers.js';
import { cleanEnv } from '../helpers/cli.js';
import { PLAN_REL, Project, alive, cleanupTempDirs, scratch, start, task, waitUntil } from './helpers.js';

afterAll(cleanupTempDirs);

describe.concurrent('signals and kills', () => {
  it('SIGHUP to ralf task verify kills the running check (exit 130)', async () => {
    const pidFile = join(scratch('ralf-hup-'), 'pid');
    const p = new Project({ tasks: [task('Task 1: Hang', `sh -c 'echo $$ > ${pidFile}; exec sleep 300'`)], git: false });
    const child = p.start(['task', 'verify', PLAN_REL, '1', '--json']);
    expect(await waitUntil(() => { try { return readFileSync(pidFile, 'utf8').trim() !== ''; } catch { return false; } }, 20_000)).toBe(true);
    const checkPid = Number(readFileSync(pidFile, 'utf8').trim());
    child.kill('SIGHUP');
    const r = await child.done;
    expect(r.code).toBe(130);
    expect(await waitUntil(() => !alive(checkPid), 5000)).toBe(true);
  });

  it('a check child that moved into its own process group (same session) does not survive the verify', async () => {
    const pidFile = join(scratch('ralf-pgrp-'), 'pid');
    // perl's setpgrp: a process group of its own, still in the check shell's session.
    const p = new Project({ tasks: [task('Task 1: Leak', `sh -c 'perl -e "setpgrp(0,0); open(F, q(>), q(${pidFile})); print F \\$\\$; close F; sleep 300" & sleep 1; exit 1'`)], git: false });
    const v = await p.verify(1);
    expect(v.code).toBe(10);
    const leaked = Number(readFileSync(pidFile, 'utf8').trim());
    expect(await waitUntil(() => !alive(leaked), 5000)).toBe(true);
  });

  it('after kill -9 of ralf run, the next run stops the orphaned agent before starting its own', async () => {
    const p = makeProject([
      `<task type="auto">\n  <name>Task 1: Write a</name>\n  <files>a.txt</files>\n  <action>Write ok into a.txt.</action>\n  <verify><automated>node check.mjs a</automated></verify>\n  <done>ok</done>\n</task>`,
    ]);
    const pids = join(scratch('ralf-orphan-'), 'pids');
    const env = cleanEnv({ AGENT_LOG_DIR: p.logDir, AGENT_PIDS: pids, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') });
    const first = start(['run', p.planRel, '--agent', agentCmd('hang'), '--json'], { cwd: p.root, env });
    // The agent started (it wrote its grandchild's pid), then ralf dies without cleaning up.
    expect(await waitUntil(() => { try { return readFileSync(pids, 'utf8').trim() !== ''; } catch { return false; } }, 30_000)).toBe(true);
    first.kill('SIGKILL');
    await first.done;
    const grandchild = Number(readFileSync(pids, 'utf8').trim());
    expect(alive(grandchild)).toBe(true);
    const second = await runStableCli(['run', p.planRel, '--agent', `node ${JSON.stringify(AGENT)} progress {prompt}`, '--json'], { cwd: p.root, env, timeout: 60_000 });
    expect(alive(grandchild)).toBe(false);
    const events = String(second.stdout).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    expect(events.some((e) => e.type === 'warning' && /stopped the agent .* of an earlier `ralf run`/.test(e.message))).toBe(true);
    expect(second.exitCode).toBe(0);
  });
  it("after kill -9 of ralf run mid-agent, the next run puts that agent's files back (kept under a ref) and leaves the user's work alone", async () => {
    const p = makeProject([
      `<task type="auto">\n  <name>Task 1: Write a</name>\n  <files>a.txt</files>\n  <action>Write ok into a.txt.</action>\n  <verify><automated>node check.mjs a</automated></verify>\n  <done>ok</done>\n</task>`,
    ]);
    // The user's own work: a dirty tracked file, a staged file, an untracked file.
    writeFileSync(join(p.root, 'README.md'), '# test project\n\nmy unsaved edit\n');
    writeFileSync(join(p.root, 'docs.md'), 'staged by me\n');
    git(p.root, 'add', '--', 'docs.md');
    writeFileSync(join(p.root, 'notes.txt'), 'my own notes\n');
    const pids = join(scratch('ralf-interrupted-'), 'pids');
    const env = cleanEnv({ AGENT_LOG_DIR: p.logDir, AGENT_PIDS: pids, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') });
    // The agent writes partial.txt, then works forever; ralf is killed with -9 meanwhile.
    const first = start(['run', p.planRel, '--agent', agentCmd('hang'), '--json'], { cwd: p.root, env });
    expect(await waitUntil(() => { try { return readFileSync(pids, 'utf8').trim() !== '' && existsSync(join(p.root, 'partial.txt')); } catch { return false; } }, 30_000)).toBe(true);
    first.kill('SIGKILL');
    await first.done;

    const second = await runStableCli(['run', p.planRel, '--agent', `node ${JSON.stringify(AGENT)} progress {prompt}`, '--json'], { cwd: p.root, env, timeout: 60_000 });
    expect(second.exitCode, String(second.stderr)).toBe(0);
    const events = String(second.stdout).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    const revert = events.find((e) => e.type === 'revert' && /interrupted/.test(e.why));
    expect(revert).toMatchObject({ task: 1, files: ['partial.txt'] });
    expect(revert!.saved_as).toMatch(/^refs\/ralf\/attempts\/01-01\/task-1\//);
    expect(events.some((e) => e.type === 'warning' && /killed while its agent worked on task 1 .*put back.*partial\.txt.*Nothing is lost/.test(e.message))).toBe(true);
    // Said before any agent of this run started.
    expect(events.findIndex((e) => e === revert)).toBeLessThan(events.findIndex((e) => e.type === 'agent_start'));
    expect(existsSync(join(p.root, 'partial.txt'))).toBe(false);
    // The user's work as it was; the task's commit holds only the agent's file.
    expect(readFileSync(join(p.root, 'README.md'), 'utf8')).toBe('# test project\n\nmy unsaved edit\n');
    expect(git(p.root, 'diff', '--cached', '--name-only')).toBe('docs.md');
    expect(readFileSync(join(p.root, 'notes.txt'), 'utf8')).toBe('my own notes\n');
    expect(git(p.root, 'show', '--name-only', '--format=', 'HEAD')).toBe('a.txt');
    // The interrupted attempt comes back as printed, even after gc.
    git(p.root, 'gc', '--prune=now', '--quiet');
    execFileSync('sh', ['-c', revert!.restore_command], { cwd: p.root });
    expect(readFileSync(join(p.root, 'partial.txt'), 'utf8')).toBe('half-written\n');
  });
});
