/**
 * `ralf run` end to end through the built CLI, against scripted agents (real processes)
 * in temp git repos: progressing, stuck, idle, hanging, rate-limited then fine, lying
 * DONE, blocked; checkpoints and resume; Ctrl-C and resume; budgets; commits.
 */
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { agentCmd, autoTask, checkpointTask, git, makeProject, ofType, prompts, ralfRun, readState, runStableCli, stableCliPath } from './helpers.js';
import { alive } from '../helpers/processes.js';
import { taskLoop } from '../helpers/state.js';

const TWO_FILES = [autoTask(1, 'Write a and b', ['a.txt', 'b.txt'])];

describe.concurrent('ralf run with scripted agents', () => {
  it('progressing agent: passes on iteration 2, commits only the task\'s files, writes the Loop Report', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    writeFileSync(join(p.root, 'untouched.txt'), 'user work in progress\n');
    const r = await ralfRun(p, 'progress');
    expect(r.exitCode).toBe(0);
    expect(r.events[0]).toMatchObject({ type: 'run_start', target_kind: 'gsd-plan', commit: true });
    expect(r.events.at(-1)).toMatchObject({ type: 'run_end', exit_code: 0, outcome: 'complete' });
    const verifies = ofType(r.events, 'verify');
    expect(verifies.map((v) => v.verdict)).toEqual(['retry', 'pass']);
    expect(verifies[0]).toMatchObject({ iteration: 1, checks_passed: 0, suspicious: false });
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ task: 1, outcome: 'passed', stop_reason: 'success', iterations: 2 });
    // One commit, GSD style, with exactly the files the task changed.
    expect(git(p.root, 'log', '-1', '--format=%s')).toBe('feat(01-01): Write a and b');
    expect(git(p.root, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['a.txt', 'b.txt']);
    expect(git(p.root, 'status', '--porcelain', '--', 'untouched.txt')).toBe('?? untouched.txt');
    // The plan finished, so its SUMMARY.md was created with the report.
    const summary = readFileSync(join(p.root, '.planning/phases/01-test/01-01-SUMMARY.md'), 'utf8');
    expect(summary).toContain('## RALF Lite Loop Report');
    expect(ofType(r.events, 'plan_end')[0]).toMatchObject({ outcome: 'complete', report_action: 'created' });
    // The second prompt carried the first failure.
    const ps = prompts(p);
    expect(ps).toHaveLength(2);
    expect(ps[1]).toMatch(/^Iteration 2 of 3$/m);
    expect(ps[1]).toContain('## Last verification failure (iteration 1)');
    expect(ps[1]).toContain('Error: missing b.txt');
    // Engine state and log are the same ones `ralf task verify` writes.
    expect(taskLoop(readState(p), 1)).toMatchObject({ status: 'passed', stop_reason: 'success' });
    const log = readFileSync(join(p.root, '.planning/ralf/01-01.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(log.filter((l) => l.action === 'verify').map((l) => l.verdict)).toEqual(['retry', 'pass']);
    // The driver's own actions are in the same history.
    expect(log.filter((l) => l.event?.startsWith('run.')).map((l) => l.event)).toEqual(['run.plan_start', 'run.agent_exit', 'run.agent_exit', 'run.commit', 'run.task_end', 'run.plan_end']);
    expect(ofType(r.events, 'agent_start')[0]!.pid).toBeGreaterThan(0);
  });

  it('stuck agent: the same fingerprint twice stops the run, restores the task\'s files, hands off (exit 20)', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt']), autoTask(2, 'Write b', ['b.txt'])]);
    const r = await ralfRun(p, 'stuck');
    expect(r.exitCode).toBe(20);
    const end = ofType(r.events, 'task_end')[0]!;
    expect(end).toMatchObject({ task: 1, outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(end.handoff.markdown).toContain('## CHECKPOINT REACHED');
    expect(ofType(r.events, 'revert')[0]).toMatchObject({ scope: 'task', files: ['a.txt'] });
    expect(existsSync(join(p.root, 'a.txt'))).toBe(false);
    expect(ofType(r.events, 'task_start').map((e) => e.task)).toEqual([1]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run_end', outcome: 'stopped', reason: 'repeated_fingerprint' });
    expect(r.events.at(-1)!.tasks[1]).toMatchObject({ task: 2, outcome: 'not_started' });
    expect(git(p.root, 'log', '--format=%s')).toBe('init');
    // A plan that did not finish gets no SUMMARY.md (GSD would take it as complete).
    expect(existsSync(join(p.root, '.planning/phases/01-test/01-01-SUMMARY.md'))).toBe(false);
    // Running again does not loop a stopped task: it shows the handoff again.
    const again = await ralfRun(p, 'progress');
    expect(again.exitCode).toBe(20);
    expect(ofType(again.events, 'agent_start')).toHaveLength(0);
  });

  it('idle agent: no change, no progress: the loop stops without using every iteration', async ({ expect }) => {
    const p = makeProject(TWO_FILES, { config: { max_iterations: 5 } });
    const r = await ralfRun(p, 'idle');
    expect(r.exitCode).toBe(20);
    const end = ofType(r.events, 'task_end')[0]!;
    expect(['no_progress', 'repeated_fingerprint']).toContain(end.stop_reason);
    expect(end.iterations).toBeLessThan(5);
  });

  it('lying agent: TASK_DONE with failing checks is suspicious, noted in the log and the next prompt', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'liar');
    expect(r.exitCode).toBe(0);
    const verifies = ofType(r.events, 'verify');
    expect(verifies[0]).toMatchObject({ verdict: 'retry', suspicious: true });
    expect(verifies[1]).toMatchObject({ verdict: 'pass', suspicious: false });
    expect(ofType(r.events, 'agent_exit')[0]).toMatchObject({ promise: 'done' });
    expect(prompts(p)[1]).toMatch(/said <ralph>TASK_DONE<\/ralph> but verification failed \(suspicious\)/);
  });

  it('rate-limited agent: retried with backoff, not counted as iterations', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'ratelimit', [], { AGENT_FAILS: '2' });
    expect(r.exitCode).toBe(0);
    const backoffs = ofType(r.events, 'backoff');
    expect(backoffs.map((b) => b.reason)).toEqual(['rate_limit', 'rate_limit']);
    expect(backoffs.map((b) => b.attempt)).toEqual([1, 2]);
    expect(ofType(r.events, 'agent_start')).toHaveLength(4);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'passed', iterations: 2 });
  });

  it('rate limits beyond the backoff schedule stop the run with a clear reason; nothing is counted', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'ratelimit', [], { AGENT_FAILS: '99' });
    expect(r.exitCode).toBe(20);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'agent_failed', reason: 'rate_limit_exhausted' });
    expect(ofType(r.events, 'agent_start')).toHaveLength(4);
    expect(taskLoop(readState(p), 1).iterations).toHaveLength(0);
  });

  it('hanging agent: killed with its process tree at the iteration timeout; partial changes reverted', async ({ expect }) => {
    const p = makeProject(TWO_FILES, { config: { max_iterations: 1 } });
    const pids = join(tempDir('ralf-run-pids-'), 'pids');
    const r = await ralfRun(p, 'hang', ['--iteration-timeout', '1s'], { AGENT_PIDS: pids });
    expect(r.exitCode).toBe(20);
    expect(ofType(r.events, 'agent_exit')[0]).toMatchObject({ timed_out: true, classification: 'failed', reason: 'timeout' });
    expect(ofType(r.events, 'revert')[0]).toMatchObject({ scope: 'iteration', files: ['partial.txt'] });
    expect(existsSync(join(p.root, 'partial.txt'))).toBe(false);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'stopped', stop_reason: 'max_iterations' });
    const grandchild = Number(readFileSync(pids, 'utf8').trim());
    expect(alive(grandchild)).toBe(false);
  });

  it('BLOCKED marks the task blocked, restores its files and moves on to the next task', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt']), autoTask(2, 'Write b', ['b.txt'])]);
    const r = await ralfRun(p, 'blocked');
    // Task 2 also says BLOCKED (same scripted agent): both recorded, run finished with exit 20.
    expect(r.exitCode).toBe(20);
    const ends = ofType(r.events, 'task_end');
    expect(ends.map((e) => [e.task, e.outcome, e.stop_reason])).toEqual([
      [1, 'blocked', 'blocked'],
      [2, 'blocked', 'blocked'],
    ]);
    expect(ends[0]!.detail).toBe('needs STRIPE_SECRET_KEY from the Stripe dashboard');
    expect(existsSync(join(p.root, 'a.txt'))).toBe(false);
    expect(ofType(r.events, 'verify')).toHaveLength(0);
    expect(taskLoop(readState(p), 1)).toMatchObject({ status: 'stopped', stop_reason: 'blocked', stop_detail: 'needs STRIPE_SECRET_KEY from the Stripe dashboard' });
    expect(r.events.at(-1)).toMatchObject({ outcome: 'blocked' });
  });

  it('stops at a checkpoint with what the human must do; --resume-signal answers it and the run continues', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt']), checkpointTask(2), autoTask(3, 'Write b', ['b.txt'])]);
    const first = await ralfRun(p, 'progress');
    expect(first.exitCode).toBe(20);
    const cp = ofType(first.events, 'checkpoint')[0]!;
    expect(cp).toMatchObject({ task: 2, resolved_with: null, info: { checkpoint_type: 'checkpoint:human-verify', how_to_verify: 'Open a.txt and check it says ok.', resume_signal: 'Type "approved" or describe issues' } });
    expect(first.events.at(-1)).toMatchObject({ outcome: 'checkpoint' });
    expect(ofType(first.events, 'task_start').map((e) => e.task)).toEqual([1, 2]);
    expect(ofType(first.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([
      [1, 'passed'],
      [2, 'checkpoint'],
    ]);

    const second = await ralfRun(p, 'progress', ['--resume-signal', 'approved']);
    expect(second.exitCode).toBe(0);
    expect(ofType(second.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([
      [1, 'already_done'],
      [2, 'checkpoint_resolved'],
      [3, 'passed'],
    ]);
    const last = prompts(p).at(-1)!;
    expect(last).toMatch(/^Task 3 of 3: Task 3: Write b$/m);
    expect(last).toContain('- Task 2 (Task 2: Look at it): "approved"');
    expect(last).toContain('- Task 1: Task 1: Write a (commit');
    expect(git(p.root, 'log', '--format=%s').split('\n')).toEqual(['feat(01-01): Write b', 'feat(01-01): Write a', 'init']);
  });

  it('a checkpoint names the command that resumes the run, and it runs as written with the answer filled in', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt']), checkpointTask(2), autoTask(3, 'Write b', ['b.txt'])]);
    const env = cleanEnv({ AGENT_LOG_DIR: p.logDir, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') });
    const first = await runStableCli(['run', p.planRel, '--agent', agentCmd('progress'), '--no-spinner'], { cwd: p.root, env, timeout: 60_000 });
    expect(first.exitCode).toBe(20);
    // It used to say `run <same target> --resume-signal ...`: not a command anyone can paste.
    const resume = /then continue with: (.+) --resume-signal "<your answer>"$/m.exec(String(first.stderr))?.[1];
    expect(resume, String(first.stderr)).toBeTruthy();
    const second = spawnSync('bash', ['-c', `${resume} --resume-signal approved`], { cwd: p.root, env: env as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 60_000 });
    expect(second.status, second.stderr).toBe(0);
    expect(git(p.root, 'log', '--format=%s').split('\n')).toEqual(['feat(01-01): Write b', 'feat(01-01): Write a', 'init']);
  });

  it('--max-tokens stops with token_budget, recorded through the engine', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'tokens', ['--max-tokens', '3k']);
    expect(r.exitCode).toBe(20);
    expect(ofType(r.events, 'agent_exit')[0]!.usage).toMatchObject({ input: 5000, output: 100, total: 5100 });
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'budget', stop_reason: 'token_budget' });
    expect(taskLoop(readState(p), 1)).toMatchObject({ stop_reason: 'token_budget' });
    expect(r.events.at(-1)).toMatchObject({ outcome: 'budget', reason: 'token_budget', tokens: 5100 });
  });

  it('--duration stops a hanging agent with time_budget', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'hang', ['--duration', '1s']);
    expect(r.exitCode).toBe(20);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'budget', stop_reason: 'time_budget' });
    expect(taskLoop(readState(p), 1)).toMatchObject({ stop_reason: 'time_budget' });
    expect(existsSync(join(p.root, 'partial.txt'))).toBe(false);
  });

  it('--no-commit leaves the passed task\'s changes uncommitted', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const r = await ralfRun(p, 'progress', ['--no-commit']);
    expect(r.exitCode).toBe(0);
    expect(ofType(r.events, 'commit')).toHaveLength(0);
    expect(git(p.root, 'log', '--format=%s')).toBe('init');
    expect(readFileSync(join(p.root, 'b.txt'), 'utf8')).toBe('ok\n');
  });

  it('an agent command that does not exist is a setup error (exit 2), before any iteration', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const out = await execa(process.execPath, [stableCliPath(), 'run', p.planRel, '--agent', 'ralf-no-such-agent-xyz {prompt}', '--json'], { cwd: p.root, reject: false, env: cleanEnv({ HOME: p.root }), extendEnv: false });
    expect(out.exitCode).toBe(2);
    const end = JSON.parse(String(out.stdout).trim().split('\n').at(-1)!);
    expect(end).toMatchObject({ type: 'run_end', outcome: 'agent_failed', reason: 'not_found' });
  });

  it('usage errors name the flag', async ({ expect }) => {
    const p = makeProject(TWO_FILES);
    const bad = async (...args: string[]) => execa(process.execPath, [stableCliPath(), 'run', p.planRel, ...args], { cwd: p.root, reject: false, env: cleanEnv({ HOME: p.root }), extendEnv: false });
    const a = await bad();
    expect(a.exitCode).toBe(2);
    expect(String(a.stderr)).toContain('missing --agent');
    const b = await bad('--agent', 'x', '--duration', 'soon');
    expect(b.exitCode).toBe(2);
    expect(String(b.stderr)).toContain('--duration: "soon" is not a duration');
    const c = await bad('--agent', 'x', '--max-tokens', '-5');
    expect(String(c.stderr)).toContain('--max-tokens');
  });
});

describe('ralf run: Ctrl-C and resume', () => {
  it('SIGINT kills the agent, saves `interrupted` (exit 130); the next run resumes with the right counts', async () => {
    const p = makeProject(TWO_FILES);
    const child = execa(process.execPath, [stableCliPath(), 'run', p.planRel, '--agent', agentCmd('hang'), '--json'], {
      cwd: p.root,
      reject: false,
      env: cleanEnv({ HOME: p.root, AGENT_LOG_DIR: p.logDir }),
      extendEnv: false,
    });
    let seen = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (c: Buffer) => {
        seen += c.toString();
        if (seen.includes('"type":"agent_start"')) resolve();
      });
    });
    // Give the agent a moment to write its partial file before the interrupt.
    await waitFor(() => existsSync(join(p.root, 'partial.txt')));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const events = String(r.stdout).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', outcome: 'interrupted', exit_code: 130 });
    expect(taskLoop(readState(p), 1)).toMatchObject({ status: 'stopped', stop_reason: 'interrupted' });
    expect(taskLoop(readState(p), 1).iterations).toHaveLength(0);

    const again = await ralfRun(p, 'progress');
    expect(again.exitCode).toBe(0);
    expect(ofType(again.events, 'task_start')[0]).toMatchObject({ task: 1, iterations_done: 0 });
    expect(ofType(again.events, 'task_end')[0]).toMatchObject({ outcome: 'passed', iterations: 2 });
  });
});

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}
