/**
 * ralf's OpenCode plugin in the real OpenCode (1.18.33, devDependency), installed by
 * `ralf install --opencode`, against the scripted model on 127.0.0.1: a checkpoint is not
 * held; another session in the project is not held. (Prompted on after each retry and
 * following the reason to a pass: verdicts-opencode.test.ts.)
 * One `opencode serve` for the file (sessions as in the TUI).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeSandbox, opencodeEnv, type Sandbox } from './hosts.js';
import { startOpencodeServer, type OpencodeServer } from './opencode-server.js';
import { exitOf, type AgentScript, type Reply } from './scripted-model/agent.js';
import { readCommandFacts } from './scripted-model/execute-plan-agent.js';
import { startScriptedModel, type ScriptedModel } from './scripted-model/server.js';
import { taskLoop } from '../helpers/state.js';

const PLAN = '.planning/phases/01-math/01-01-PLAN.md';
const REASON = 'ralf-lite: the loop of';
const bash = (command: string): Reply => ({ bash: `${command}; echo "exit=$?"`, description: 'scripted step' });
const write = (file: string, fn: string, body: string) => bash(`mkdir -p src && printf '%s\\n' 'export function ${fn}(a, b) {' '  return ${body};' '}' > ${file}`);

/** Task N: start, a bug, verify (retry), then end the turn with `ending`; when prompted again, repair and run the command it names. */
function endsAfterRetry(task: number, ending: string): AgentScript {
  const [file, fn, bad, good] = task === 1 ? ['src/sum.mjs', 'sum', 'a - b', 'a + b'] : ['src/ratio.mjs', 'ratio', 'a - b', 'a / b'];
  return function* (ctx) {
    const { runtime, planPath } = readCommandFacts(ctx.prompt);
    yield bash(`${runtime} task start ${planPath} ${task}`);
    yield write(file!, fn!, bad!);
    const first = yield bash(`${runtime} task verify ${planPath} ${task} --json`);
    if (exitOf(first) !== 10) return `SCRIPTED: expected retry, got ${first}`;
    const reply = yield { say: ending };
    const next = /^\s+(.+ task verify .+ --json)\s*$/m.exec(reply)?.[1];
    if (!reply.includes(REASON) || !next) return `SCRIPTED: got "${reply.slice(0, 80)}"`;
    yield write(file!, fn!, good!);
    let second = yield bash(next);
    if ((exitOf(second) === 11 || exitOf(second) === 10) && second.includes('--done-confirmed')) second = yield bash(`${next} --done-confirmed`);
    return `SCRIPTED: held; the verify it named exited ${exitOf(second)}`;
  };
}

describe('OpenCode plugin (real opencode serve, scripted model)', () => {
  let model: ScriptedModel;
  let sb: Sandbox;
  let server: OpencodeServer;
  beforeAll(async () => {
    model = await startScriptedModel({ logFile: process.env.RALF_E2E_LOG });
    sb = await makeSandbox();
    const r = await runCli(['install', '--opencode'], { env: opencodeEnv(sb, model.url), cwd: sb.project });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    server = await startOpencodeServer(sb, model.url);
  }, 90_000);
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  const state = () => JSON.parse(readFileSync(join(sb.project, '.planning/ralf/01-01.json'), 'utf8'));
  const reasonsSince = (from: number) => model.requests.slice(from).filter((r) => r.shellTool !== null && r.userText.includes(REASON));

  it('a checkpoint is not held; another session in the same project is not held', async () => {
    model.setAgent(endsAfterRetry(3, '## CHECKPOINT REACHED\n**Type:** human-verify'));
    let from = model.requests.length;
    const id = await server.newSession();
    await server.command(id, 'execute-plan', PLAN);
    await server.settle(id);
    expect(reasonsSince(from)).toHaveLength(0);
    expect(taskLoop(state(), 3)).toMatchObject({ status: 'running', session: { host: 'opencode', id } });

    model.setAgent(function* () {
      return 'SCRIPTED: second session says hi';
    });
    from = model.requests.length;
    const other = await server.newSession();
    await server.message(other, 'hello');
    await server.settle(other);
    expect(model.requests.at(-1)!.reply).toEqual({ say: 'SCRIPTED: second session says hi' });
    expect(reasonsSince(from)).toHaveLength(0);
  }, 120_000);
});
