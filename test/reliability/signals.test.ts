/**
 * Signals and kills leave no process behind: SIGHUP to `ralf task verify` kills the running
 * check; a check child that moved into a process group of its own (same session) does not
 * survive the verify; after `kill -9` of `ralf run` the next run stops the orphaned agent
 * (and what it started) before starting its own, so two agents never run at once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT, agentCmd, makeProject, runStableCli } from '../run/helpers.js';
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
});
