/**
 * The Stop hook in the real Claude Code (the devDependency's version), installed by
 * `ralf install --claude`, against the scripted model on 127.0.0.1: a model at a checkpoint or
 * after a loop stop is not held; a second session in the same project is not held. (Held after
 * each retry and following the reason to a pass: verdicts-claude.test.ts.) One scripted model
 * server for the file; one claude process per turn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { claudeEnv, makeSandbox, runClaude, type AgentRun, type Sandbox } from './hosts.js';
import { exitOf, type AgentScript, type Reply } from './scripted-model/agent.js';
import { readCommandFacts } from './scripted-model/execute-plan-agent.js';
import { startScriptedModel, type LoggedRequest, type ScriptedModel } from './scripted-model/server.js';
import { taskLoop } from '../helpers/state.js';

const PLAN = '.planning/phases/01-math/01-01-PLAN.md';
const HELD = 'Stop hook feedback';
const bash = (command: string): Reply => ({ bash: `${command}; echo "exit=$?"`, description: 'scripted step' });
const writeSum = (body: string) => bash(`mkdir -p src && printf '%s\\n' 'export function sum(a, b) {' '  return ${body};' '}' > src/sum.mjs`);

/**
 * Starts task 1, writes a bug, verifies (retry), then tries to end its turn with `ending`.
 * Held: follows the reason (repair, then the exact command it names). Not held: done.
 */
function endsAfterRetry(ending: string): AgentScript {
  return function* (ctx) {
    const { runtime, planPath } = readCommandFacts(ctx.prompt);
    yield bash(`${runtime} task start ${planPath} 1`);
    yield writeSum('a - b');
    const first = yield bash(`${runtime} task verify ${planPath} 1 --json`);
    if (exitOf(first) !== 10) return `SCRIPTED: expected retry, got ${first}`;
    const reply = yield { say: ending };
    if (!reply.includes(HELD)) return `SCRIPTED: not held (${reply.slice(0, 80)})`;
    const next = /^\s+(.+ task verify .+ --json)\s*$/m.exec(reply)?.[1];
    if (!next) return `SCRIPTED: held, but the reason names no verify command:\n${reply}`;
    yield writeSum('a + b');
    let second = yield bash(next);
    // The task's <done> is a manual criterion: the check proves it, so confirm it (the workflow's step).
    if ((exitOf(second) === 11 || exitOf(second) === 10) && second.includes('--done-confirmed')) second = yield bash(`${next} --done-confirmed`);
    return `SCRIPTED: held; the verify it named exited ${exitOf(second)}`;
  };
}

function heldRequests(model: ScriptedModel, from: number): LoggedRequest[] {
  return model.requests.slice(from).filter((r) => r.shellTool !== null && r.userText.includes(HELD));
}

function expectRan(run: AgentRun): void {
  expect(run.timedOut, `claude timed out\n${run.stdout}\n${run.stderr}`).toBe(false);
}

function task1(sb: Sandbox): { status: string; iterations: unknown[]; session?: { id: string } } {
  return taskLoop(JSON.parse(readFileSync(join(sb.project, '.planning/ralf/01-01.json'), 'utf8')), 1);
}

describe('Claude Code Stop hook (real CLI, scripted model)', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel({ logFile: process.env.RALF_E2E_LOG });
  });
  afterAll(async () => {
    await model?.close();
  });

  async function installed(): Promise<Sandbox> {
    const sb = await makeSandbox();
    const r = await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    return sb;
  }

  it('a checkpoint handed to the human is not held; a second session in the project is not held', async () => {
    const sb = await installed();
    model.setAgent(endsAfterRetry('## CHECKPOINT REACHED\n**Type:** human-verify\n### Awaiting\nType "approved"'));
    let from = model.requests.length;
    const run = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    expectRan(run);
    // Not held: the checkpoint is the turn's last word.
    expect(run.stdout).toContain('## CHECKPOINT REACHED');
    expect(heldRequests(model, from)).toHaveLength(0);
    // The loop is still open (retry), recorded for the first session.
    expect(task1(sb)).toMatchObject({ status: 'running' });
    const first = task1(sb).session!.id;

    // Another session in the same project ends its turn: not held.
    model.setAgent(function* () {
      return 'SCRIPTED: second session says hi';
    });
    from = model.requests.length;
    const other = await runClaude(sb, model.url, 'hello');
    expectRan(other);
    expect(other.stdout).toContain('SCRIPTED: second session says hi');
    expect(heldRequests(model, from)).toHaveLength(0);
    expect(task1(sb).session!.id).toBe(first);
  }, 120_000);

  it('a stopped loop (handoff to the human) is not held', async () => {
    const sb = await installed();
    model.setAgent(function* (ctx) {
      const { runtime, planPath } = readCommandFacts(ctx.prompt);
      yield bash(`${runtime} task start ${planPath} 1`);
      let code: number | null = null;
      for (let i = 0; i < 3 && code !== 20; i++) {
        yield writeSum(`a - b - ${i}`);
        code = exitOf(yield bash(`${runtime} task verify ${planPath} 1 --json`));
      }
      const reply = yield { say: `Loop stopped (exit ${code}): here is the handoff.` };
      return `SCRIPTED: ${reply.includes(HELD) ? 'held' : 'not held'}`;
    });
    const from = model.requests.length;
    const run = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    expectRan(run);
    expect(task1(sb)).toMatchObject({ status: 'stopped' });
    expect(run.stdout).toContain('Loop stopped (exit 20)');
    expect(heldRequests(model, from)).toHaveLength(0);
  }, 120_000);
});
