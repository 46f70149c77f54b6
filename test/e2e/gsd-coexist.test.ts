/**
 * ralf-lite beside the real GSD Core 1.14.0 (installed by its own installer, on Node 24)
 * in the real Claude Code and OpenCode: GSD's commands, agents, hooks and plugin files stay
 * untouched, both Stop hooks run (GSD's context monitor leaves its marker file while
 * ralf's hook holds the agent), and uninstalling ralf gives back GSD's config dir exactly.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { treeListing } from '../install/helpers.js';
import { gsdCore, installGsdCore, type GsdCore } from './gsd-core.js';
import { claudeBin, claudeEnv, makeSandbox, opencodeEnv, type Sandbox } from './hosts.js';
import { startOpencodeServer } from './opencode-server.js';
import { exitOf, type AgentScript, type Reply } from './scripted-model/agent.js';
import { readCommandFacts } from './scripted-model/execute-plan-agent.js';
import { startScriptedModel, type ScriptedModel } from './scripted-model/server.js';
import { execa } from 'execa';

const PLAN = '.planning/phases/01-math/01-01-PLAN.md';
const bash = (command: string): Reply => ({ bash: `${command}; echo "exit=$?"`, description: 'scripted step' });
const writeSum = (body: string) => bash(`mkdir -p src && printf '%s\\n' 'export function sum(a, b) {' '  return ${body};' '}' > src/sum.mjs`);

/** Task 1 with a bug, verify (retry), try to end the turn; held: repair and run the command the reason names. */
const heldAgent: AgentScript = function* (ctx) {
  const { runtime, planPath } = readCommandFacts(ctx.prompt);
  const env = yield bash('echo "gsd_dir=${GSD_DIR:-unset}"');
  yield bash(`${runtime} task start ${planPath} 1`);
  yield writeSum('a - b');
  yield bash(`${runtime} task verify ${planPath} 1 --json`);
  const reply = yield { say: 'Task 1 is implemented.' };
  const next = /^\s+(.+ task verify .+ --json)\s*$/m.exec(reply)?.[1];
  if (!next) return `SCRIPTED: not held (${env.trim()})`;
  yield writeSum('a + b');
  let second = yield bash(next);
  if ((exitOf(second) === 11 || exitOf(second) === 10) && second.includes('--done-confirmed')) second = yield bash(`${next} --done-confirmed`);
  return `SCRIPTED: held; verify exited ${exitOf(second)} (${env.trim()})`;
};

/** After ralf's install: every file GSD had is still there unchanged (but settings.json, checked on its own), and everything new is ralf's. */
function expectGsdUntouched(before: Record<string, string>, after: Record<string, string>): void {
  for (const [rel, hash] of Object.entries(before)) if (rel !== 'settings.json') expect(after[rel], rel).toBe(hash);
  const added = Object.keys(after).filter((rel) => !(rel in before));
  expect(added.filter((rel) => !/^(ralf-lite\/|commands?\/(execute-(plan|phase)\.md)?$|plugin\/(ralf-lite\.js)?$|settings\.json$)/.test(rel))).toEqual([]);
}

const RALF_FILE = /^(ralf-lite\/|commands?\/(execute-(plan|phase)\.md)?$|plugin\/(ralf-lite\.js)?$|settings\.json$)/;
const withoutRalf = (listing: Record<string, string>) => Object.fromEntries(Object.entries(listing).filter(([rel]) => !RALF_FILE.test(rel)));

/** After ralf's uninstall: GSD's files exactly as before, and nothing of ralf's left (the host's own session files may be new). */
function expectGsdRestored(before: Record<string, string>, after: Record<string, string>): void {
  for (const [rel, hash] of Object.entries(before)) expect(after[rel], rel).toBe(hash);
  expect(Object.keys(after).filter((rel) => !(rel in before) && /ralf|execute-(plan|phase)/.test(rel))).toEqual([]);
}

const hookCommands = (settings: any): Record<string, string[]> =>
  Object.fromEntries(Object.entries(settings.hooks ?? {}).map(([event, groups]) => [event, (groups as any[]).flatMap((g) => (g.hooks ?? []).map((h: any) => h.command as string))]));

describe('ralf-lite beside GSD Core 1.14.0 (real installers, real hosts)', () => {
  let gsd: GsdCore;
  let model: ScriptedModel;
  beforeAll(async () => {
    gsd = await gsdCore();
    model = await startScriptedModel({ agent: heldAgent, logFile: process.env.RALF_E2E_LOG });
  }, 600_000);
  afterAll(async () => {
    await model?.close();
  });

  it('Claude Code: GSD untouched, both Stop hooks run, uninstall gives GSD\'s config dir back', async () => {
    const sb: Sandbox = await makeSandbox();
    const config = join(sb.home, '.claude');
    await installGsdCore(gsd, 'claude', config, sb.home);
    const gsdBefore = treeListing(config);
    const gsdSettings = JSON.parse(readFileSync(join(config, 'settings.json'), 'utf8'));
    expect(hookCommands(gsdSettings).Stop?.some((c) => c.includes('gsd-context-monitor.js'))).toBe(true);

    expect((await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    expectGsdUntouched(gsdBefore, treeListing(config));
    const merged = JSON.parse(readFileSync(join(config, 'settings.json'), 'utf8'));
    for (const [event, commands] of Object.entries(hookCommands(gsdSettings))) expect(hookCommands(merged)[event]!.slice(0, commands.length)).toEqual(commands);
    const { hooks: _h, ...gsdRest } = gsdSettings;
    const { hooks: _m, ...mergedRest } = merged;
    expect(mergedRest).toEqual(gsdRest);

    // GSD's context monitor (its Stop hook) warns when the statusline's bridge file says the
    // context is nearly full, and leaves `claude-ctx-<session>-warned.json`: the marker.
    const tmp = join(sb.base, 'tmp');
    mkdirSync(tmp);
    const session = randomUUID();
    writeFileSync(join(tmp, `claude-ctx-${session}.json`), JSON.stringify({ session_id: session, remaining_percentage: 10, used_pct: 90, timestamp: Math.floor(Date.now() / 1000) }));
    const run = await execa(claudeBin, ['-p', `/execute-plan ${PLAN}`, '--allowedTools', 'Bash', '--model', 'scripted-model', '--session-id', session], {
      cwd: sb.project,
      env: { ...claudeEnv(sb, model.url), TMPDIR: tmp, PWD: sb.project },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 120_000,
    });
    expect(String(run.stdout)).toContain('SCRIPTED: held; verify exited 0');
    expect(existsSync(join(tmp, `claude-ctx-${session}-warned.json`))).toBe(true);

    const beforeUninstall = treeListing(config);
    expect((await runCli(['uninstall', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    const after = treeListing(config);
    expectGsdRestored(withoutRalf(beforeUninstall), after);
    expect(after['settings.json']).toBe(gsdBefore['settings.json']);
  }, 300_000);

  it('OpenCode: GSD\'s plugin and ralf\'s both load and run their hooks, GSD untouched', async () => {
    const sb: Sandbox = await makeSandbox();
    const config = join(sb.home, '.config', 'opencode');
    await installGsdCore(gsd, 'opencode', config, sb.home);
    const gsdBefore = treeListing(config);
    expect((await runCli(['install', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    expectGsdUntouched(gsdBefore, treeListing(config));

    // Both plugins load and their hooks run: GSD's shell.env sets GSD_DIR, ralf's sets the session id
    // (the hold itself: hold-opencode.test.ts; GSD's session.idle handler is a no-op).
    model.setAgent(function* () {
      const env = yield bash('echo "gsd=${GSD_DIR:-unset} ralf=${OPENCODE_SESSION_ID:-unset}"');
      return `SCRIPTED: ${env.replace(/exit=\d+/, '').trim()}`;
    });
    const server = await startOpencodeServer(sb, model.url);
    try {
      const id = await server.newSession();
      await server.message(id, 'show the environment');
      await server.settle(id);
      expect(model.requests.at(-1)!.reply).toEqual({ say: `SCRIPTED: gsd=${join(config, 'gsd-core')} ralf=${id}` });
    } finally {
      await server.close();
      model.setAgent(heldAgent);
    }
    const beforeUninstall = treeListing(config);
    expect((await runCli(['uninstall', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project })).exitCode).toBe(0);
    expectGsdRestored(withoutRalf(beforeUninstall), treeListing(config));
  }, 300_000);
});
