/**
 * The subcommand registry. Each entry loads its command lazily, so start-up only
 * evaluates the module a command needs (see load-command.ts).
 * A command module exports `run(argv): Promise<number>` (the exit code) and throws
 * RalfError for user errors; rendering and process.exit live in src/cli.ts.
 */
import { loadCommandModule } from './load-command.js';

export interface CommandModule {
  run(argv: string[]): Promise<number>;
  /** The command's usage line(s), shown by `ralf <command> --help` and in usage errors. */
  USAGE?: string;
}

export interface CommandEntry {
  summary: string;
  load: () => Promise<CommandModule>;
}

export const commands: Record<string, CommandEntry> = {
  config: {
    summary: 'Show the effective ralf_lite config with the source of each key (`config schema`: JSON Schema)',
    load: () => loadCommandModule('config'),
  },
  plan: {
    summary: 'Parse a PLAN.md and show which tasks the loop wraps, skips or refuses (`plan verify`: plan-level loop)',
    load: () => loadCommandModule('plan'),
  },
  task: {
    summary: 'Run the loop for one task: start, verify, escalate (Rule 4), approve (a Rule 4 stop), defer, reset',
    load: () => loadCommandModule('task'),
  },
  status: {
    summary: 'Show where a plan stands task by task, where to resume and the last handoff (or every plan with state under .planning/ralf/)',
    load: () => loadCommandModule('status'),
  },
  fingerprint: {
    summary: 'Print the normalized error fingerprint of verification output (FILE or stdin)',
    load: () => loadCommandModule('fingerprint'),
  },
  report: {
    summary: 'Write the "## RALF Lite Loop Report" section into the plan\'s SUMMARY.md',
    load: () => loadCommandModule('report'),
  },
  install: {
    summary: 'Install /execute-plan and /execute-phase into OpenCode and/or Claude Code',
    load: () => loadCommandModule('install'),
  },
  uninstall: {
    summary: 'Remove exactly what `ralf install` installed',
    load: () => loadCommandModule('uninstall'),
  },
  hook: {
    summary: 'Host hooks: `hook stop` is the Claude Code Stop hook (and the OpenCode plugin\'s rule): hold an agent whose loop is open',
    load: () => loadCommandModule('hook'),
  },
  run: {
    summary: 'Drive an agent CLI headless: a fresh agent per iteration until the loop stops',
    load: () => loadCommandModule('run'),
  },
  'plan-prd': {
    summary: 'Plan a PRD checklist from a rough prompt with one agent (copilot_ralf\'s ralph-plan), for review before `ralf run`',
    load: () => loadCommandModule('plan-prd'),
  },
  demo: {
    summary: 'Run the built-in example: a scripted agent fixing a real plan in a temp project',
    load: () => loadCommandModule('demo'),
  },
};
