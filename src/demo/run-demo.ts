/**
 * `ralf demo`: the product working on a fresh machine, no model, no network. Copies the
 * example project (a real GSD PLAN.md, `autonomous: false`, four tasks) into a temp git
 * repo and drives `ralf run` with a scripted agent: a real process started through the
 * generic `--agent "<command> {prompt}"` path, exactly as a Claude Code or OpenCode wrapper
 * would be. Two runs and a report show the four outcomes:
 *   run 1  task 1 passes on iteration 2 (one bug fixed per iteration); task 2 is a
 *          checkpoint:human-verify: refused, the run pauses and shows what the human must do
 *   run 2  the demo answers the checkpoint (`--resume-signal approved`, as the human would);
 *          task 3 gets stuck: the same failure twice → repeated_fingerprint → handoff, stop
 *   report the Loop Report written into the plan's SUMMARY.md, printed
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { shellWord } from '../engine/core/commands.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { runGit } from '../git/run-git.js';
import { commandAgent } from '../run/agents/command.js';
import { formatCommandLine } from '../run/command-line.js';
import type { DriverResult } from '../run/driver.js';
import { fanOut, type RunEvent, type RunEventSink } from '../run/events.js';
import { progressSink } from '../run/progress.js';
import { writeLoopReport } from '../run/report.js';
import { runCommand } from '../run/run-command.js';
import { summaryTable } from '../run/summary-table.js';
import { demoAssets } from './assets.js';

export const DEMO_PLAN = '.planning/phases/01-text-utils/01-01-PLAN.md';

export interface DemoRun {
  title: string;
  command: string;
  exit_code: number;
  outcome: DriverResult['outcome'];
  reason: string | null;
  rows: DriverResult['rows'];
  events: RunEvent[];
}

export interface DemoOutcomes {
  passed_on_iteration_2: { task: number; iterations: number; commit: string | null } | null;
  refused_checkpoint: { task: number; type: string } | null;
  stuck: { task: number; stop_reason: string; iterations: number } | null;
  report: { path: string; action: string } | null;
}

export interface DemoResult {
  ok: boolean;
  dir: string;
  kept: boolean;
  plan: string;
  agent_command: string;
  runs: DemoRun[];
  outcomes: DemoOutcomes;
  summary_path: string;
  report_markdown: string;
}

export interface DemoOptions {
  keep: boolean;
  json: boolean;
  /** Where the narrative and progress go (text mode). */
  out: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean; columns?: number };
}

export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const assets = demoAssets();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ralf-demo-')));
  const project = join(dir, 'project');
  const say = (s = '') => {
    if (!o.json) o.out.write(`${s}\n`);
  };
  try {
    cpSync(assets.project, project, { recursive: true });
    await initRepo(project, dir);
    // The user's own global ralf_lite config must not change the demo: point both hosts'
    // config dirs at an empty directory.
    const emptyConfig = join(dir, 'no-global-config');
    mkdirSync(emptyConfig);
    const env: NodeJS.ProcessEnv = { ...process.env, OPENCODE_CONFIG_DIR: emptyConfig, CLAUDE_CONFIG_DIR: emptyConfig };
    delete env.RALF_HOST;
    delete env.OPENCODE_CONFIG;

    const agentArgv = [process.execPath, assets.agent, '{prompt}'];
    const agentCommand = formatCommandLine(['node', assets.agent, '{prompt}']);
    const agent = commandAgent(agentArgv, agentCommand);
    const planPath = join(project, DEMO_PLAN);

    say('ralf demo: a scripted agent works through a real GSD plan in a temp project (no model, no network).');
    say();
    say(`  project  ${project}  (a copy of examples/demo-project, git init + first commit)`);
    say(`  plan     ${DEMO_PLAN}  (4 tasks, autonomous: false)`);
    say(`  agent    ${agentCommand}`);
    say('           a deterministic program started like any `--agent "<command> {prompt}"`; it fixes');
    say('           one bug per iteration, or gets stuck, and ends with <ralph>TASK_DONE</ralph>');

    const runs: DemoRun[] = [];
    const oneRun = async (title: string, resumeSignal: string | null): Promise<DemoRun> => {
      const command = `ralf run ${DEMO_PLAN} --agent "${agentCommand}"${resumeSignal ? ` --resume-signal ${resumeSignal}` : ''}`;
      say();
      say(`── ${title}`);
      say(`$ ${command}`);
      const events: RunEvent[] = [];
      const collect: RunEventSink = { emit: (e) => void events.push(e), close() {} };
      const sinks = [collect];
      if (!o.json) sinks.push(progressSink({ stream: o.out, handoff: 'brief', tickMs: 0, rerunArgs: [planPath, '--agent', agentCommand] }));
      const r = await runCommand({
        target: planPath,
        agent,
        durationMs: null,
        maxTokens: null,
        iterationTimeoutMs: 60_000,
        commit: null,
        resumeSignal,
        json: false,
        sink: fanOut(sinks),
        env,
      });
      say();
      say(summaryTable(r).split('\n').map((l) => `  ${l}`).join('\n'));
      say(`  exit ${r.exit_code} (${r.outcome}${r.reason ? `: ${r.reason}` : ''})`);
      const run: DemoRun = { title, command, exit_code: r.exit_code, outcome: r.outcome, reason: r.reason, rows: r.rows, events };
      runs.push(run);
      return run;
    };

    await oneRun('Run 1: ralf run drives the agent, one fresh process per iteration', null);
    say();
    say('   The run paused at the checkpoint. The human checks slugify, then answers:');
    await oneRun('Run 2: the same command with the human\'s answer; the run resumes after task 1', 'approved');

    // The plan did not finish (task 3 needs a human), so `ralf run` left SUMMARY.md alone;
    // the demo records the outcome as `ralf report <PLAN> --create` would.
    const stateConfig = JSON.parse(readFileSync(join(project, '.planning', 'ralf', '01-01.json'), 'utf8')) as { config: Record<string, unknown>; config_sources: Record<string, string> };
    const { readPlan } = await import('../plan/read.js');
    const plan = readPlan(planPath, {});
    const report = writeLoopReport({ plan, projectRoot: project, config: stateConfig.config, configSources: stateConfig.config_sources, create: true });
    say();
    say(`── The Loop Report ($ ralf report ${DEMO_PLAN} --create)`);
    say(`   ${report.action} ${relative(project, report.path)}:`);
    say();
    say(report.section.trimEnd());

    const outcomes = findOutcomes(runs, report.action === 'not_written' ? null : { path: report.path, action: report.action });
    const ok = outcomes.passed_on_iteration_2 !== null && outcomes.refused_checkpoint !== null && outcomes.stuck !== null && outcomes.report !== null;
    say();
    say('── What you just saw');
    say(mark(outcomes.passed_on_iteration_2, (x) => `Task ${x.task} passed on iteration ${x.iterations}: the first fix was not enough, verification said so, the next fresh agent fixed the rest${x.commit ? ` (commit ${x.commit.slice(0, 7)})` : ''}`, 'a task passing on iteration 2'));
    say(mark(outcomes.refused_checkpoint, (x) => `Task ${x.task} (${x.type}) was refused by the loop: the run paused until a human answered (--resume-signal)`, 'a refused checkpoint'));
    say(mark(outcomes.stuck, (x) => `Task ${x.task} got stuck: the same failure fingerprint twice → ${x.stop_reason} after ${x.iterations} iterations; its changes were restored and the run stopped with a handoff`, 'a stuck task'));
    say(mark(outcomes.report, (x) => `The Loop Report is in ${relative(project, x.path)}`, 'the Loop Report'));
    say();
    // The project has no node_modules: `npx ralf` there would ask the npm registry, so name this runtime.
    if (o.keep) say(`Temp project kept: ${project}  (try: cd ${shellWord(project)} && git log --oneline && ${commandInvocation()} status)`);
    else say(`Temp project: ${project} (removed; run with --keep to keep it)`);
    return {
      ok,
      dir: project,
      kept: o.keep,
      plan: DEMO_PLAN,
      agent_command: agentCommand,
      runs,
      outcomes,
      summary_path: report.path,
      report_markdown: report.section,
    };
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

async function initRepo(project: string, dir: string): Promise<void> {
  const hooks = join(dir, 'no-hooks');
  mkdirSync(hooks);
  const git = (args: string[]) => runGit(args, { cwd: project });
  await git(['init', '--quiet']);
  // Local identity and no hooks or signing: the demo must commit on any machine.
  for (const [k, v] of [
    ['user.name', 'ralf demo'],
    ['user.email', 'demo@ralf-lite.invalid'],
    ['commit.gpgsign', 'false'],
    ['core.hooksPath', hooks],
  ] as const) {
    await git(['config', k, v]);
  }
  await git(['add', '--', '.']);
  await git(['commit', '--quiet', '-m', 'Initial commit: demo-text-utils with a GSD plan']);
}

function findOutcomes(runs: DemoRun[], report: DemoOutcomes['report']): DemoOutcomes {
  const events = runs.flatMap((r) => r.events);
  const ends = events.filter((e): e is Extract<RunEvent, { type: 'task_end' }> => e.type === 'task_end');
  const passed = ends.find((e) => e.outcome === 'passed' && e.iterations === 2);
  const checkpoint = events.find((e): e is Extract<RunEvent, { type: 'checkpoint' }> => e.type === 'checkpoint' && e.resolved_with === null);
  const stuck = ends.find((e) => e.outcome === 'stopped' && e.stop_reason === 'repeated_fingerprint');
  return {
    passed_on_iteration_2: passed && passed.task !== null ? { task: passed.task, iterations: passed.iterations, commit: passed.commit } : null,
    refused_checkpoint: checkpoint ? { task: checkpoint.task, type: checkpoint.info.checkpoint_type } : null,
    stuck: stuck && stuck.task !== null ? { task: stuck.task, stop_reason: stuck.stop_reason ?? '', iterations: stuck.iterations } : null,
    report,
  };
}

function mark<T>(value: T | null, text: (v: T) => string, missing: string): string {
  return value === null ? `  ✗ missing: ${missing} (this is a bug in the demo)` : `  ✓ ${text(value)}`;
}
