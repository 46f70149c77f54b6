/**
 * /execute-plan end to end inside the real Claude Code and OpenCode CLIs, installed with
 * `ralf install`, driven by the scripted model on 127.0.0.1. The fixture plan has:
 * task 1 (auto) whose first attempt fails and whose repair passes, task 2 a
 * checkpoint:human-verify, task 3 (auto) whose check can never pass. Each host runs
 * three turns: the command (stops at the checkpoint), "approved" (task 3's loop stops
 * with a handoff), "defer" (SUMMARY.md + `ralf report`). Assertions are on files, git,
 * loop state and what reached the model.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { claudeEnv, makeSandbox, opencodeEnv, runClaude, runOpencode, type AgentRun, type Sandbox } from './hosts.js';
import { executePlanAgent } from './scripted-model/execute-plan-agent.js';
import { startScriptedModel, type LoggedRequest, type ScriptedModel } from './scripted-model/server.js';
import { taskLoop } from '../helpers/state.js';

const PLAN = '.planning/phases/01-math/01-01-PLAN.md';
const SUMMARY = '.planning/phases/01-math/01-01-SUMMARY.md';

const write = (file: string, body: string) => `mkdir -p src && printf '%s\\n' ${body.split('\n').map((l) => `'${l}'`).join(' ')} > ${file}`;
const agent = executePlanAgent({
  attempts: {
    // First attempt has a bug; the repair after exit 10 fixes it.
    1: [write('src/sum.mjs', 'export function sum(a, b) {\n  return a - b;\n}'), write('src/sum.mjs', 'export function sum(a, b) {\n  return a + b;\n}')],
    // The check contradicts the task: every repair leaves the same error.
    3: [write('src/ratio.mjs', 'export function ratio(a, b) {\n  return a / b;\n}'), write('src/ratio.mjs', 'export function ratio(a, b) {\n  return b === 0 ? a / b : a / b;\n}')],
  },
});

interface TaskState {
  status: string;
  stop_reason: string | null;
  iterations: unknown[];
}

function loopState(sb: Sandbox): { tasks: Record<string, TaskState> } {
  return JSON.parse(readFileSync(join(sb.project, '.planning/ralf/01-01.json'), 'utf8'));
}

async function gitLog(sb: Sandbox): Promise<string> {
  return String((await execa('git', ['log', '--format=%s'], { cwd: sb.project })).stdout);
}

function expectRan(run: AgentRun): void {
  expect(run.timedOut, `agent timed out\n${run.stdout}\n${run.stderr}`).toBe(false);
}

/** The requests of one run that came from the agent loop (not side requests such as titles). */
function agentRequests(model: ScriptedModel, from: number): LoggedRequest[] {
  return model.requests.slice(from).filter((r) => r.shellTool !== null);
}

function expectCommandReachedModel(reqs: LoggedRequest[], runtimePath: string): void {
  expect(reqs.length).toBeGreaterThan(0);
  const first = reqs[0]!.userText;
  expect(first).toContain(`Plan path: ${PLAN}`);
  expect(first).toContain(`ralf runtime: "${process.execPath}" "${runtimePath}"`);
  // The workflow's content (rendered with the same runtime) and the injected plan analysis.
  expect(first).toContain('# ralf-lite: execute one PLAN.md');
  expect(first).toContain(`"${runtimePath}" task verify PLAN N --json`);
  expect(first).toMatch(/<plan_json>\s*\{[\s\S]*"plan_decision"[\s\S]*"decision": "refuse"[\s\S]*<\/plan_json>/);
  expect(first).not.toMatch(/CLAUDE_PLUGIN_ROOT|\{\{RALF\}\}/);
  for (const r of reqs) expect(r.divergences).toEqual([]);
}

/** Turn 1: task 1 loops to green and is committed; execution stops at the checkpoint. */
async function expectStoppedAtCheckpoint(sb: Sandbox, run: AgentRun): Promise<void> {
  expectRan(run);
  expect(run.stdout).toContain('## CHECKPOINT REACHED');
  expect(run.stdout).toContain('sum() in src/sum.mjs');
  expect(readFileSync(join(sb.project, 'src/sum.mjs'), 'utf8')).toContain('return a + b;');
  const state = loopState(sb);
  expect(taskLoop(state, 1)).toMatchObject({ status: 'passed', stop_reason: 'success' });
  expect(taskLoop(state, 1)!.iterations).toHaveLength(2);
  // Nothing after the checkpoint ran.
  expect(taskLoop(state, 3)).toBeUndefined();
  expect(existsSync(join(sb.project, 'src/ratio.mjs'))).toBe(false);
  expect(await gitLog(sb)).toContain('feat(01-01): Task 1: Add sum()');
}

/** Turn 2 ("approved"): task 3's loop stops on the repeated fingerprint with a handoff; no SUMMARY yet. */
function expectLoopStopped(sb: Sandbox, run: AgentRun): void {
  expectRan(run);
  expect(run.stdout).toContain('repeated_fingerprint');
  expect(run.stdout).toContain('Add ratio()');
  expect(taskLoop(loopState(sb), 3)).toMatchObject({ status: 'stopped', stop_reason: 'repeated_fingerprint' });
  expect(existsSync(join(sb.project, SUMMARY))).toBe(false);
}

/** Turn 3 ("defer"): SUMMARY.md with the Loop Report, committed. */
async function expectSummary(sb: Sandbox, run: AgentRun): Promise<void> {
  expectRan(run);
  expect(run.stdout).toContain('## PLAN COMPLETE');
  const summary = readFileSync(join(sb.project, SUMMARY), 'utf8');
  expect(summary).toContain('## Deferred Issues');
  expect(summary).toContain('## RALF Lite Loop Report');
  expect(summary).toMatch(/\|\s*1\. Add sum\(\)\s*\|\s*loop\s*\|\s*2\/3\s*\|\s*success\s*\|/);
  expect(summary).toMatch(/\|\s*2\. .*\|\s*refuse\s*\|/);
  expect(summary).toMatch(/\|\s*3\. Add ratio\(\)\s*\|\s*loop\s*\|\s*2\/3\s*\|\s*repeated_fingerprint\s*\|/);
  // The workflow recorded the human's "defer" (ralf task defer): the loop keeps why it stopped.
  expect(taskLoop(loopState(sb), 3)).toMatchObject({ stop_reason: 'repeated_fingerprint', deferred: { reason: 'deferred by the human after the loop stopped' } });
  expect(summary).toContain('deferred — deferred by the human after the loop stopped');
  expect(await gitLog(sb)).toMatch(/^docs\(01-01\): complete plan$/m);
}

describe('/execute-plan in Claude Code (real CLI, scripted model)', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({ agent, logFile: process.env.RALF_E2E_LOG });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('global install: loop repair, checkpoint stop, loop handoff, SUMMARY with the Loop Report', async () => {
    const sb = await makeSandbox();
    const install = await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project });
    expect(install.exitCode, String(install.stderr)).toBe(0);
    const runtimePath = join(sb.home, '.claude', 'ralf-lite', 'ralf.js');

    let from = model.requests.length;
    const turn1 = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    await expectStoppedAtCheckpoint(sb, turn1);
    expectCommandReachedModel(agentRequests(model, from), runtimePath);
    expect(agentRequests(model, from)[0]!.userText).toContain('<command-name>/execute-plan</command-name>');

    from = model.requests.length;
    expectLoopStopped(sb, await runClaude(sb, model.url, 'approved', { continue: true }));
    expect(agentRequests(model, from).at(-1)!.userText).toContain('approved');

    await expectSummary(sb, await runClaude(sb, model.url, 'defer', { continue: true }));
  }, 240_000);

  it('/execute-phase reaches the model with its workflow and the phase listing', async () => {
    const sb = await makeSandbox();
    expect((await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    model.setAgent(function* () {
      return 'SCRIPTED: phase received';
    });
    try {
      const from = model.requests.length;
      const run = await runClaude(sb, model.url, '/execute-phase 1');
      expectRan(run);
      expect(run.stdout).toContain('SCRIPTED: phase received');
      const first = agentRequests(model, from)[0]!.userText;
      expect(first).toContain('Phase: 1');
      expect(first).toContain('.planning/phases/01-math/');
      expect(first).toContain('# ralf-lite: execute a phase');
      expect(first).toContain(`"${join(sb.home, '.claude', 'ralf-lite', 'ralf.js')}" install --render workflows/execute-plan.md`);
    } finally {
      model.setAgent(agent);
    }
  }, 60_000);

  it('local install: the project command runs the project runtime', async () => {
    const sb = await makeSandbox();
    const install = await runCli(['install', '--claude', '--local'], { env: claudeEnv(sb, model.url), cwd: sb.project });
    expect(install.exitCode, String(install.stderr)).toBe(0);
    expect(existsSync(join(sb.home, '.claude', 'commands'))).toBe(false);
    const from = model.requests.length;
    const turn1 = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    await expectStoppedAtCheckpoint(sb, turn1);
    expectCommandReachedModel(agentRequests(model, from), join(sb.project, '.claude', 'ralf-lite', 'ralf.js'));
  }, 120_000);
});

describe('/execute-plan in OpenCode (real CLI, scripted model)', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({ agent, logFile: process.env.RALF_E2E_LOG });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('global install: loop repair, checkpoint stop, loop handoff, SUMMARY with the Loop Report', async () => {
    const sb = await makeSandbox();
    const install = await runCli(['install', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project });
    expect(install.exitCode, String(install.stderr)).toBe(0);
    const runtimePath = join(sb.home, '.config', 'opencode', 'ralf-lite', 'ralf.js');

    let from = model.requests.length;
    const turn1 = await runOpencode(sb, model.url, { command: 'execute-plan', args: [PLAN] });
    await expectStoppedAtCheckpoint(sb, turn1);
    expectCommandReachedModel(agentRequests(model, from), runtimePath);

    from = model.requests.length;
    expectLoopStopped(sb, await runOpencode(sb, model.url, { continue: 'approved' }));
    expect(agentRequests(model, from).at(-1)!.userText).toContain('approved');

    await expectSummary(sb, await runOpencode(sb, model.url, { continue: 'defer' }));
  }, 300_000);
});
