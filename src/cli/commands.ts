/**
 * The subcommand registry. Each entry loads its command lazily, so start-up only
 * evaluates the module a command needs (see load-command.ts).
 * A command module exports `run(argv): Promise<number>` (the exit code) and throws
 * RalfError for user errors; rendering and process.exit live in src/cli.ts.
 */
import { loadCommandModule } from './load-command.js';

export interface CommandModule {
  run(argv: string[]): Promise<number>;
}

export interface CommandEntry {
  summary: string;
  usage: string;
  load: () => Promise<CommandModule>;
}

export const commands: Record<string, CommandEntry> = {
  config: {
    summary: 'Show the effective ralf_lite config with the source of each key (`config schema`: JSON Schema)',
    usage: 'ralf config [schema] [--cwd DIR] [--host opencode|claude] [--config-dir DIR] [--json]',
    load: () => loadCommandModule('config'),
  },
  plan: {
    summary: 'Parse a PLAN.md and show which tasks the loop wraps, skips or refuses (`plan verify`: plan-level loop)',
    usage: 'ralf plan <PLAN.md> [--json] | ralf plan verify <PLAN.md> [--json]',
    load: () => loadCommandModule('plan'),
  },
  task: {
    summary: 'Run the loop for one task: verify, escalate (Rule 4), reset',
    usage: 'ralf task verify <PLAN.md> <N> [--done-confirmed] [--json] | task escalate <PLAN.md> <N> --rule 4 --reason TEXT | task reset <PLAN.md> <N>',
    load: () => loadCommandModule('task'),
  },
  status: {
    summary: 'Show loop state for a plan (or every plan with state under .planning/ralf/)',
    usage: 'ralf status [PLAN.md] [--cwd DIR] [--json]',
    load: () => loadCommandModule('status'),
  },
  fingerprint: {
    summary: 'Print the normalized error fingerprint of verification output (FILE or stdin)',
    usage: 'ralf fingerprint [FILE] [--json]',
    load: () => loadCommandModule('fingerprint'),
  },
  report: {
    summary: 'Write the "## RALF Lite Loop Report" section into the plan\'s SUMMARY.md',
    usage: 'ralf report <PLAN.md> [--summary PATH] [--create] [--dry-run] [--json]',
    load: () => loadCommandModule('report'),
  },
  install: {
    summary: 'Install /execute-plan and /execute-phase into OpenCode and/or Claude Code',
    usage: 'ralf install [--opencode] [--claude] [--global | --local] [--config-dir DIR] [--dry-run] [--json]',
    load: () => loadCommandModule('install'),
  },
  uninstall: {
    summary: 'Remove exactly what `ralf install` installed',
    usage: 'ralf uninstall [--opencode] [--claude] [--global | --local] [--config-dir DIR] [--dry-run] [--json]',
    load: () => loadCommandModule('uninstall'),
  },
  run: {
    summary: 'Drive an agent CLI headless: a fresh agent per iteration until the loop stops',
    usage: 'ralf run <PLAN.md | phase dir> --agent claude|opencode|"<command>" [--duration 4h] [--max-tokens N] [--iteration-timeout 15m] [--commit|--no-commit] [--json]',
    load: () => loadCommandModule('run'),
  },
  demo: {
    summary: 'Run the built-in example: a scripted agent fixing a real plan in a temp project',
    usage: 'ralf demo [--json] [--keep]',
    load: () => loadCommandModule('demo'),
  },
};
