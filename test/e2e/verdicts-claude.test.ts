/**
 * Verdicts as a user of /execute-plan and /execute-phase meets them in the real Claude Code
 * (installed with `ralf install --claude`, its Stop hook on, beside the original GSD,
 * get-shit-done-cc, installed by its own installer), driven by a scripted model whose
 * agent follows workflows/execute-plan.md and every text ralf or the host hands it literally.
 * One project (test/e2e/fixtures/verdicts), one HOME, one model server; each step a real
 * `claude -p` process:
 *
 * 1. /execute-plan 01-01: task 1 has three failing tests and the agent fixes one per verify,
 *    in an order that is not the sorted one (mul, sub, add), trying to end its turn after each
 *    retry; task 2's agent lies (an unrelated file each time) and is stopped.
 * 2. /execute-plan 01-01 again in a NEW session: resumes at the stopped task 2 (task 1 is never
 *    re-opened), the human says defer, the plan-level loop asks to confirm must_haves.truths
 *    (exit 11), the agent confirms, SUMMARY.md gets the Loop Report.
 * 3. /execute-phase 2: two plans of one wave run by two subagents at once (the Agent tool) in the
 *    same checkout; plan 02-02 deletes src/legacy.mjs while plan 02-01's loop is open beside it.
 *
 * The user's uncommitted edit of a tracked file and untracked file stay byte-identical throughout.
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { taskLoop } from '../helpers/state.js';
import { gsdCcInstaller, installGsdCc } from './gsd-core.js';
import { claudeEnv, makeSandbox, runClaude, type AgentRun, type Sandbox } from './hosts.js';
import type { AgentScript } from './scripted-model/agent.js';
import { executePlanAgent, readSubagentFacts } from './scripted-model/execute-plan-agent.js';
import { PLAN, SUMMARY, planAgent } from './verdicts-scenario.js';
import { startScriptedModel, type LoggedRequest, type ScriptedModel } from './scripted-model/server.js';

const HELD = 'Stop hook feedback';

interface Loop {
  status: string;
  stop_reason: string | null;
  iterations: Array<{ verdict: string; fingerprint: string | null; delta?: { tests_fixed?: string[] } }>;
  segments?: unknown[];
  deferred?: { reason: string };
}

const state = (sb: Sandbox, id: string) => JSON.parse(readFileSync(join(sb.project, `.planning/ralf/${id}.json`), 'utf8'));
const loopOf = (sb: Sandbox, id: string, n: number): Loop => taskLoop(state(sb, id), n);
const agentRequests = (model: ScriptedModel, from: number): LoggedRequest[] => model.requests.slice(from).filter((r) => r.shellTool !== null);
const heldTexts = (reqs: LoggedRequest[]): string[] => {
  // Each hold adds one hook message to the conversation; the last request has them all.
  const last = reqs.at(-1)?.userText ?? '';
  return last.split(HELD).slice(1);
};

function expectRan(run: AgentRun): void {
  expect(run.timedOut, `claude timed out\n${run.stdout}\n${run.stderr}`).toBe(false);
}

/** The user's own uncommitted work: an edit of a tracked file and an untracked file. */
const USER_FILES: Record<string, string> = {
  'README.md': '# calc\n\nA tiny project for ralf-lite\'s end-to-end verdicts.\n\nMy notes, not committed yet.\n',
  'scratch/todo.txt': 'ask about division\n',
};

function writeUserWork(sb: Sandbox): void {
  mkdirSync(join(sb.project, 'scratch'), { recursive: true });
  for (const [rel, text] of Object.entries(USER_FILES)) writeFileSync(join(sb.project, rel), text);
}

async function expectUserWorkIntact(sb: Sandbox): Promise<void> {
  for (const [rel, text] of Object.entries(USER_FILES)) expect(readFileSync(join(sb.project, rel), 'utf8'), rel).toBe(text);
  const status = String((await execa('git', ['status', '--porcelain', '--', 'README.md', 'scratch'], { cwd: sb.project })).stdout);
  expect(status.split('\n').sort()).toEqual([' M README.md', '?? scratch/']);
}

const gitLog = async (sb: Sandbox) => String((await execa('git', ['log', '--format=%s'], { cwd: sb.project })).stdout).split('\n');

describe('verdicts through the real Claude Code: /execute-plan, resume in a new session, /execute-phase', () => {
  let model: ScriptedModel;
  let sb: Sandbox;
  beforeAll(async () => {
    model = await startScriptedModel({ agent: planAgent, logFile: process.env.RALF_E2E_LOG });
    sb = await makeSandbox('verdicts');
    // Beside the original GSD, installed by its own installer (its hooks run in every session).
    await installGsdCc(await gsdCcInstaller(), 'claude', join(sb.home, '.claude'), sb.home);
    const install = await runCli(['install', '--claude'], { env: claudeEnv(sb, model.url), cwd: sb.project });
    expect(install.exitCode, String(install.stderr)).toBe(0);
    writeUserWork(sb);
  }, 60_000);
  afterAll(async () => {
    await model?.close();
  });

  it('fix one of three tests per verify in any order: held on each retry, pass at 3; a liar stops at 2, released on the handoff', async () => {
    const from = model.requests.length;
    const run = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    expectRan(run);
    const reqs = agentRequests(model, from);
    for (const r of reqs) expect(r.divergences).toEqual([]);

    const task1 = loopOf(sb, '01-01', 1);
    expect(task1.status, run.stdout).toBe('passed');
    expect(task1.iterations.map((i) => i.verdict)).toEqual(['retry', 'retry', 'pass']);
    expect(task1.iterations[1]!.delta?.tests_fixed).toEqual(['sub']);
    // The answer the agent read at iteration 2 says what it fixed, not that all three still fail.
    expect(reqs.some((r) => r.lastResult?.includes('add, mul, sub (still failing: add; now passing: mul, sub)'))).toBe(true);
    expect(task1.iterations[2]!.delta).toMatchObject({ checks_fixed: ['node --test test/calc.test.mjs'] });

    const task2 = loopOf(sb, '01-01', 2);
    expect(task2).toMatchObject({ status: 'stopped', stop_reason: 'repeated_fingerprint' });
    expect(task2.iterations).toHaveLength(2);

    // What the host told the agent: one hold per retry (task 1 at iterations 1 and 2, task 2 at 1),
    // each naming the exact verify and what still fails; none after the stop's handoff.
    const held = heldTexts(reqs);
    expect(held).toHaveLength(3);
    expect(held[0]).toContain('iteration 1 of 3');
    expect(held[0]).toContain('failing: add, sub');
    expect(held[1]).toContain('iteration 2 of 3');
    expect(held[1]).toContain('failing: add');
    expect(held[2]).toContain('Task 2 "Task 2: Add greet()"');
    for (const h of held) expect(h).toMatch(/^\s+".+ralf\.js" task verify "\.planning\/phases\/01-calc\/01-01-PLAN\.md" [12] --json$/m);
    expect(run.stdout).toContain('## CHECKPOINT REACHED');
    expect(run.stdout).toContain('repeated_fingerprint');
    expect(await gitLog(sb)).toContain('feat(01-01): Task 1: Implement add, mul and sub');
    await expectUserWorkIntact(sb);
  }, 120_000);

  it('a new session resumes at the stopped task (task 1 never re-opened); defer; plan-level confirm (exit 11), --done-confirmed; the Loop Report', async () => {
    const before = loopOf(sb, '01-01', 1);
    let from = model.requests.length;
    const first = await runClaude(sb, model.url, `/execute-plan ${PLAN}`);
    expectRan(first);
    // The resume point's handoff goes to the human before anything runs.
    expect(first.stdout).toContain('## CHECKPOINT REACHED');
    expect(first.stdout).toContain('Add greet()');
    expect(heldTexts(agentRequests(model, from))).toEqual([]);

    from = model.requests.length;
    const second = await runClaude(sb, model.url, 'defer', { continue: true });
    expectRan(second);
    expect(second.stdout).toContain('## PLAN COMPLETE');
    const reqs = agentRequests(model, from);
    for (const r of reqs) expect(r.divergences).toEqual([]);
    const commands = reqs.map((r) => ('bash' in r.reply ? r.reply.bash : ''));
    expect(commands.filter((c) => / task (start|verify) \S+ 1\b/.test(c))).toEqual([]);
    expect(loopOf(sb, '01-01', 1)).toEqual(before);
    expect(loopOf(sb, '01-01', 2)).toMatchObject({ status: 'stopped', stop_reason: 'repeated_fingerprint', deferred: { reason: 'deferred by the human after the loop stopped' } });
    // The liar's files left the tree with the deferral; the user's stayed.
    expect(existsSync(join(sb.project, 'docs/notes-1.md'))).toBe(false);

    const plan = state(sb, '01-01').plan as Loop & { iterations: Array<{ verdict: string }> };
    expect(plan.status).toBe('passed');
    const planVerifies = commands.filter((c) => c.includes(' plan verify '));
    expect(planVerifies).toHaveLength(2);
    expect(planVerifies[1]).toContain('--done-confirmed');
    const confirm = reqs.find((r) => r.lastResult?.includes('"verdict": "confirm"'));
    expect(confirm?.lastResult).toMatch(/"scope": "plan"[\s\S]*exit=11\s*$/);
    expect(plan.iterations.map((i) => i.verdict)).toEqual(['pass']);

    const summary = readFileSync(join(sb.project, SUMMARY), 'utf8');
    expect(summary).toMatch(/\|\s*1\. Implement add, mul and sub\s*\|\s*loop\s*\|\s*3\/3\s*\|\s*success\s*\|/);
    expect(summary).toMatch(/\|\s*2\. Add greet\(\)\s*\|\s*loop\s*\|\s*2\/3\s*\|\s*repeated_fingerprint\s*\|/);
    expect(summary).toMatch(/\|\s*Plan-level loop\s*\|\s*loop\s*\|\s*1\/3\s*\|\s*success\s*\|/);
    expect(summary).toContain('deferred — deferred by the human after the loop stopped');
    // The report's Next: names a command a person can type in a terminal (no home directory in the file).
    expect(summary).toContain('`node ~/.claude/ralf-lite/ralf.js task reset .planning/phases/01-calc/01-01-PLAN.md 2`');
    expect(await gitLog(sb)).toContain('docs(01-01): complete plan');
    await expectUserWorkIntact(sb);
  }, 120_000);
  it('/execute-phase 2: two plans of one wave in two subagents at once; plan 02-02 deletes a file while 02-01\'s loop is open: no Rule 4, each plan passes', async () => {
    const barrier = join(sb.base, 'barrier');
    mkdirSync(barrier);
    const waitFor = (test: string) => `for i in $(seq 150); do ${test} && break; sleep 0.1; done`;
    const fn = (name: string) => `mkdir -p src && printf '%s\\n' 'export const ${name} = () => "${name}";' > src/${name}.mjs`;
    const plans: Record<string, AgentScript> = {
      // 02-01 implements a() once 02-02's subagent has deleted src/legacy.mjs (its loop open, not verified).
      '02-01': executePlanAgent({ attempts: { 1: [`${waitFor(`test -f ${barrier}/b-edited`)}; test -f ${barrier}/b-edited && touch ${barrier}/a-saw-b; ${fn('a')}`] } }),
      // 02-02 deletes the legacy helper and adds b(), then verifies only after 02-01 finished.
      '02-02': executePlanAgent({ attempts: { 1: [`rm src/legacy.mjs && ${fn('b')} && touch ${barrier}/b-edited; ${waitFor('git log --format=%s | grep -q "^docs(02-01)"')}`] } }),
    };
    model.setAgent(function* (ctx) {
      const sub = readSubagentFacts(ctx.prompt);
      if (sub) {
        const id = sub.planPath.split('/').pop()!.replace(/-PLAN\.md$/, '');
        return yield* plans[id]!(ctx);
      }
      // The phase workflow: find the phase's plans, read each, one subagent per plan (files_modified do not overlap).
      const runtime = /^ralf runtime: (.+)$/m.exec(ctx.prompt)?.[1]?.trim();
      const dir = /^(\.planning\/phases\/02-[^/\n]*)\/$/m.exec(ctx.prompt)?.[1];
      if (!runtime || !dir) return 'SCRIPTED: the /execute-phase body did not reach the model';
      const listing = yield { bash: `ls -1 ${dir}/*-PLAN.md; echo "exit=$?"` };
      const paths = listing.split('\n').filter((l) => l.endsWith('-PLAN.md'));
      const files: string[] = [];
      for (const p of paths) {
        const plan = JSON.parse(/\{[\s\S]*\}/.exec(yield { bash: `${runtime} plan ${p} --json; echo "exit=$?"` })![0]);
        if (plan.plan.wave !== 1 || plan.plan.files_modified.some((f: string) => files.includes(f))) return 'SCRIPTED: not one wave of disjoint plans';
        files.push(...plan.plan.files_modified);
      }
      const results = yield {
        agents: paths.map((p) => ({
          description: `Execute plan ${p.split('/').pop()}`,
          prompt: `Execute the GSD plan ${p}.\nFirst run: ${runtime} install --render workflows/execute-plan.md\nand follow the workflow it prints exactly, step by step, for this plan.\nYou are a subagent: at a checkpoint or a loop stop, return the block it tells you to return.`,
        })),
      };
      const complete = results.split('## PLAN COMPLETE').length - 1;
      for (const p of paths) {
        const status = yield { bash: `${runtime} status ${p} --json; echo "exit=$?"` };
        if (!/"resume_at": null/.test(status)) return `SCRIPTED: ${p} is not finished`;
      }
      return `SCRIPTED: Phase 02 executed (${complete} plans complete)`;
    });
    try {
      const from = model.requests.length;
      const run = await runClaude(sb, model.url, '/execute-phase 2', { timeoutMs: 120_000 });
      expectRan(run);
      expect(run.stdout).toContain('SCRIPTED: Phase 02 executed (2 plans complete)');
      for (const r of model.requests.slice(from)) expect(r.divergences).toEqual([]);
      // The two subagents overlapped: 02-01 verified after 02-02 deleted src/legacy.mjs.
      expect(existsSync(join(barrier, 'a-saw-b'))).toBe(true);
      const a = loopOf(sb, '02-01', 1) as Loop & { iterations: Array<{ verdict: string; files_changed?: string[] }> };
      expect(a).toMatchObject({ status: 'passed', stop_reason: 'success' });
      expect(a.iterations).toHaveLength(1);
      expect(a.iterations[0]!.files_changed).toEqual(['src/a.mjs']);
      expect(loopOf(sb, '02-02', 1)).toMatchObject({ status: 'passed', stop_reason: 'success' });
      const log = await gitLog(sb);
      for (const subject of ['feat(02-01): Task 1: Add a()', 'feat(02-02): Task 1: Replace legacy() with b()', 'docs(02-01): complete plan', 'docs(02-02): complete plan']) expect(log).toContain(subject);
      expect(existsSync(join(sb.project, 'src/legacy.mjs'))).toBe(false);
      await expectUserWorkIntact(sb);
    } finally {
      model.setAgent(planAgent);
    }
  }, 150_000);
});
