/**
 * The verdicts of verdicts-claude.test.ts through the real OpenCode (`opencode serve`, as the
 * TUI runs it) with ralf's plugin installed by `ralf install --opencode`, beside the original
 * GSD (get-shit-done-cc) installed by its own installer: the same project, plan and literal
 * agent. Task 1 (one of three tests fixed per verify, in a non-sorted order) is prompted on by
 * the plugin after each retry and passes at 3; the liar of task 2 is stopped at 2 and not
 * prompted again; a new session resumes at the stopped task, the human's "defer", the plan-level
 * confirm and --done-confirmed, SUMMARY.md with the Loop Report. The user's uncommitted work
 * stays byte-identical.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { taskLoop } from '../helpers/state.js';
import { gsdCcInstaller, installGsdCc } from './gsd-core.js';
import { makeSandbox, opencodeEnv, type Sandbox } from './hosts.js';
import { startOpencodeServer, type OpencodeServer } from './opencode-server.js';
import { PLAN, SUMMARY, planAgent } from './verdicts-scenario.js';
import { startScriptedModel, type ScriptedModel } from './scripted-model/server.js';

const REASON = 'ralf-lite: the loop of';

const USER_FILES: Record<string, string> = {
  'README.md': '# calc\n\nA tiny project for ralf-lite\'s end-to-end verdicts.\n\nMy notes, not committed yet.\n',
  'scratch/todo.txt': 'ask about division\n',
};

describe('verdicts through the real OpenCode (opencode serve, ralf\'s plugin, beside get-shit-done-cc)', () => {
  let model: ScriptedModel;
  let sb: Sandbox;
  let server: OpencodeServer;
  beforeAll(async () => {
    model = await startScriptedModel({ agent: planAgent, logFile: process.env.RALF_E2E_LOG });
    sb = await makeSandbox('verdicts');
    await installGsdCc(await gsdCcInstaller(), 'opencode', join(sb.home, '.config', 'opencode'), sb.home);
    const r = await runCli(['install', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    mkdirSync(join(sb.project, 'scratch'));
    for (const [rel, text] of Object.entries(USER_FILES)) writeFileSync(join(sb.project, rel), text);
    server = await startOpencodeServer(sb, model.url);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const state = () => JSON.parse(readFileSync(join(sb.project, '.planning/ralf/01-01.json'), 'utf8'));
  const lastSay = () => {
    const r = model.requests.at(-1)!.reply;
    return 'say' in r ? r.say : '';
  };
  async function expectUserWorkIntact(): Promise<void> {
    for (const [rel, text] of Object.entries(USER_FILES)) expect(readFileSync(join(sb.project, rel), 'utf8'), rel).toBe(text);
    const status = String((await execa('git', ['status', '--porcelain', '--', 'README.md', 'scratch'], { cwd: sb.project })).stdout);
    expect(status.split('\n').sort()).toEqual([' M README.md', '?? scratch/']);
  }

  it('prompted on after each retry, pass at 3; the liar stopped at 2 and left alone; a new session resumes, defers, confirms the plan', async () => {
    const id = await server.newSession();
    await server.command(id, 'execute-plan', PLAN);
    await server.settle(id);
    for (const r of model.requests) expect(r.divergences).toEqual([]);
    expect(taskLoop(state(), 1)).toMatchObject({ status: 'passed', session: { host: 'opencode', id } });
    expect(taskLoop(state(), 1).iterations.map((i: { verdict: string }) => i.verdict)).toEqual(['retry', 'retry', 'pass']);
    expect(taskLoop(state(), 2)).toMatchObject({ status: 'stopped', stop_reason: 'repeated_fingerprint' });
    expect(taskLoop(state(), 2).iterations).toHaveLength(2);
    // What the plugin told the agent: one prompt per retry (task 1 twice, task 2 once), none after the handoff.
    const prompts = model.requests.at(-1)!.userText.split(REASON).slice(1);
    expect(prompts).toHaveLength(3);
    expect(prompts[1]).toContain('iteration 2 of 3');
    expect(prompts[2]).toContain('Task 2 "Task 2: Add greet()"');
    expect(lastSay()).toContain('## CHECKPOINT REACHED');
    await expectUserWorkIntact();

    const before = taskLoop(state(), 1);
    const next = await server.newSession();
    await server.command(next, 'execute-plan', PLAN);
    await server.settle(next);
    expect(lastSay()).toContain('Add greet()');
    await server.message(next, 'defer');
    await server.settle(next);
    expect(lastSay()).toContain('## PLAN COMPLETE');
    expect(taskLoop(state(), 1)).toEqual(before);
    expect(taskLoop(state(), 2)).toMatchObject({ deferred: { reason: 'deferred by the human after the loop stopped' } });
    expect(state().plan).toMatchObject({ status: 'passed' });
    expect(existsSync(join(sb.project, 'docs/notes-1.md'))).toBe(false);
    const summary = readFileSync(join(sb.project, SUMMARY), 'utf8');
    expect(summary).toMatch(/\|\s*1\. Implement add, mul and sub\s*\|\s*loop\s*\|\s*3\/3\s*\|\s*success\s*\|/);
    expect(summary).toMatch(/\|\s*Plan-level loop\s*\|\s*loop\s*\|\s*1\/3\s*\|\s*success\s*\|/);
    expect(summary).toContain('`node ~/.config/opencode/ralf-lite/ralf.js task reset .planning/phases/01-calc/01-01-PLAN.md 2`');
    await expectUserWorkIntact();
  }, 240_000);
});
