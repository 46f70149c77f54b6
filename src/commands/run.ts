/**
 * `ralf run <PLAN.md | phase dir | seed file> --agent claude|opencode|"<command>"`: the
 * headless driver. A fresh agent process per iteration, verification by the engine
 * in-process, per-task commits, budgets, resume. See docs/RUN.md.
 */
import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printText, style } from '../cli/output.js';
import { usageError } from '../errors.js';

export const USAGE =
  'ralf run <PLAN.md | phase dir | PRD.md | ralph.json | requirements.json | tasks dir> --agent claude|opencode|"<command with {prompt}>" [--duration 4h] [--max-tokens N] [--iteration-timeout 15m] [--commit|--no-commit] [--resume-signal TEXT] [--agent-arg ARG]... [--cwd DIR] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      agent: { type: 'string' },
      'agent-arg': { type: 'string', multiple: true },
      duration: { type: 'string' },
      'max-tokens': { type: 'string' },
      'iteration-timeout': { type: 'string' },
      commit: { type: 'boolean' },
      'no-commit': { type: 'boolean' },
      'resume-signal': { type: 'string' },
    },
    USAGE,
  );
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'missing the plan (PLAN.md, phase directory or seed file)' : `unexpected argument "${positionals[1]}"`, `usage: ${USAGE}`);
  if (!values.agent) throw usageError('missing --agent', 'use --agent claude, --agent opencode, or --agent "<command with {prompt}>" (the prompt goes to stdin when there is no {prompt})');
  if (values.commit && values['no-commit']) throw usageError('--commit and --no-commit contradict each other');

  const { parseDuration } = await import('../run/duration.js');
  const duration = values.duration === undefined ? null : parseDuration(values.duration);
  if (values.duration !== undefined && duration === null) throw usageError(`--duration: "${values.duration}" is not a duration`, 'use e.g. 90s, 15m, 4h, 1h30m');
  const iterationTimeout = values['iteration-timeout'] === undefined ? null : parseDuration(values['iteration-timeout']);
  if (values['iteration-timeout'] !== undefined && iterationTimeout === null) throw usageError(`--iteration-timeout: "${values['iteration-timeout']}" is not a duration`, 'use e.g. 90s, 15m, 1h');
  let maxTokens: number | null = null;
  if (values['max-tokens'] !== undefined) {
    const raw = values['max-tokens'].replace(/_/g, '').trim().toLowerCase();
    const m = /^(\d+(?:\.\d+)?)(k|m)?$/.exec(raw);
    maxTokens = m ? Math.round(Number(m[1]) * (m[2] === 'k' ? 1e3 : m[2] === 'm' ? 1e6 : 1)) : NaN;
    if (!Number.isFinite(maxTokens) || maxTokens <= 0) throw usageError(`--max-tokens: "${values['max-tokens']}" is not a positive number`, 'use e.g. 200000, 500k or 2m');
  }

  const { runCommand } = await import('../run/run-command.js');
  const cwd = resolve(values.cwd ?? process.cwd());
  const result = await runCommand({
    target: resolve(cwd, positionals[0]!),
    agentSpec: values.agent,
    agentArgs: values['agent-arg'] ?? [],
    durationMs: duration,
    maxTokens,
    iterationTimeoutMs: iterationTimeout,
    commit: values['no-commit'] ? false : values.commit ? true : null,
    resumeSignal: values['resume-signal'] ?? null,
    json: values.json === true,
  });
  if (!values.json) {
    const { summaryTable, runVerdictLine } = await import('../run/summary-table.js');
    const s = style();
    const lines = ['', s.bold('ralf run summary'), '', summaryTable(result), ''];
    for (const r of result.reports) if (r.action !== 'not_written') lines.push(`Loop Report: ${r.action} ${r.path}`);
    for (const r of result.reports) if (r.action === 'not_written') lines.push(s.dim(`Loop Report for ${r.plan_id} not written: the plan is not finished and has no SUMMARY.md yet (\`ralf report <PLAN> --create\` writes one).`));
    lines.push(runVerdictLine(result));
    printText(lines.join('\n'));
  }
  return result.exit_code;
}
