/**
 * `ralf run --agent claude|opencode` against the real CLIs (node_modules/.bin) and the
 * scripted model on 127.0.0.1 (test/e2e/scripted-model): the model answers with one shell
 * call that applies the fix, then a final text with the promise string.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentScript } from '../e2e/scripted-model/agent.js';
import { startScriptedModel, type ScriptedModel } from '../e2e/scripted-model/server.js';
import { claudeEnv, opencodeEnv } from '../e2e/hosts.js';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { startFlakyProxy, type FlakyProxy } from './flaky-proxy.js';
import { autoTask, git, makeProject, ofType, runStableCli, type Project } from './helpers.js';

/** Writes one file per iteration: a.txt on iteration 1 (no promise), b.txt and DONE on iteration 2. */
const oneFilePerIteration: AgentScript = function* (ctx) {
  if (/^Iteration 1 of/m.test(ctx.prompt)) {
    yield { bash: 'echo ok > a.txt', description: 'first half of the fix' };
    return 'Wrote a.txt. b.txt is next.';
  }
  yield { bash: 'echo ok > a.txt && echo ok > b.txt', description: 'finish the fix' };
  return 'Both files say ok now.\n<ralph>TASK_DONE</ralph>';
};

const allAtOnce: AgentScript = function* () {
  yield { bash: 'echo ok > a.txt && echo ok > b.txt', description: 'apply the fix' };
  return 'Done.\n<ralph>TASK_DONE</ralph>';
};

let model: ScriptedModel;
let proxy: FlakyProxy;

beforeAll(async () => {
  model = await startScriptedModel();
  proxy = await startFlakyProxy(model.url);
});
afterAll(async () => {
  await proxy?.close();
  await model?.close();
});

/** One HOME per project (outside it: the hosts' own files must not dirty its tree). */
const homes = new Map<string, string>();

function env(p: Project, which: 'claude' | 'opencode'): Record<string, string | undefined> {
  let home = homes.get(p.root);
  if (home === undefined) homes.set(p.root, (home = tempDir('ralf-run-home-')));
  const sb = { base: home, home, project: p.root };
  const e = which === 'claude' ? claudeEnv(sb, proxy.url) : opencodeEnv(sb, proxy.url);
  return { ...e, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
}

async function run(p: Project, agent: string, e: Record<string, string | undefined>) {
  const r = await runStableCli(['run', p.planRel, '--agent', agent, '--json'], { cwd: p.root, env: e, timeout: 120_000 });
  const events = String(r.stdout).trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
  return { exitCode: r.exitCode, events, stderr: String(r.stderr) };
}

describe('ralf run with the real Claude Code CLI', () => {
  it('two fresh claude processes: progress on iteration 1, pass on iteration 2; tokens counted; commit', async () => {
    model.setAgent(oneFilePerIteration);
    const p = makeProject([autoTask(1, 'Write a and b', ['a.txt', 'b.txt'])]);
    const r = await run(p, 'claude', env(p, 'claude'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'verify').map((v) => v.verdict)).toEqual(['retry', 'pass']);
    const exits = ofType(r.events, 'agent_exit');
    expect(exits.map((e) => e.promise)).toEqual([null, 'done']);
    expect(exits[0]!.usage.total).toBeGreaterThan(0);
    expect(r.events.at(-1)!.tokens).toBe(exits[0]!.usage.total + exits[1]!.usage.total);
    expect(git(p.root, 'log', '-1', '--format=%s')).toBe('feat(01-01): Write a and b');
    // The prompt reached the model, with the iteration header and the last failure.
    const prompts = model.requests.filter((q) => q.shellTool === 'Bash').map((q) => q.userText);
    expect(prompts.some((t) => t.includes('Iteration 2 of 3') && t.includes('Error: missing b.txt'))).toBe(true);
  });

  it('a 429 from the provider is retried with backoff and does not use an iteration', async () => {
    model.setAgent(allAtOnce);
    proxy.failNext(1, 429);
    const p = makeProject([autoTask(1, 'Write a and b', ['a.txt', 'b.txt'])]);
    const r = await run(p, 'claude', env(p, 'claude'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(proxy.failed).toBeGreaterThanOrEqual(1);
    expect(ofType(r.events, 'backoff')[0]).toMatchObject({ reason: 'rate_limit' });
    expect(ofType(r.events, 'agent_exit')[0]).toMatchObject({ classification: 'transient', reason: 'rate_limit' });
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'passed', iterations: 1 });
  });
});

describe('ralf run with the real OpenCode CLI', () => {
  it('one opencode process fixes the task (prompt on stdin); tokens from --format json', async () => {
    model.setAgent(allAtOnce);
    const p = makeProject([autoTask(1, 'Write a and b', ['a.txt', 'b.txt'])]);
    const r = await run(p, 'opencode', env(p, 'opencode'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'agent_exit')[0]).toMatchObject({ exit_code: 0, promise: 'done' });
    expect(ofType(r.events, 'agent_exit')[0]!.usage.total).toBeGreaterThan(0);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'passed', iterations: 1 });
    expect(git(p.root, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['a.txt', 'b.txt']);
  }, 120_000);
});
