/**
 * `ralf plan-prd "<prompt>" --agent claude|opencode|"<command>"`: copilot_ralf's planning step
 * (`ralph-plan.sh`). One fresh agent, with the planning model, turns a rough prompt into a
 * PRD checklist (`.ralph/prd.md`: `- [ ] **Task N: Title** [effort: low]` items with
 * Description, Files and machine-verifiable Acceptance lines), then stops so a person reviews
 * it before `ralf run` loops over it (`--skip-review` goes straight on). An existing PRD is
 * never overwritten without `--force`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style } from '../cli/output.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { shellWord } from '../engine/core/commands.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { readUserText } from '../fs/read-user-text.js';

export const USAGE =
  'ralf plan-prd "<what to build>" --agent claude|opencode|"<command with {prompt}>" [--plan-model M] [-p DIR] [--out FILE] [--force] [--skip-review] [--agent-arg ARG]... [--iteration-timeout 15m] [--cwd DIR] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { joinAgentArgs } = await import('./run.js');
  const { values, positionals } = parseCommandArgs(
    joinAgentArgs(argv),
    {
      agent: { type: 'string' },
      'agent-arg': { type: 'string', multiple: true },
      'plan-model': { type: 'string' },
      model: { type: 'string' },
      project: { type: 'string', short: 'p' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      'skip-review': { type: 'boolean' },
      'iteration-timeout': { type: 'string' },
    },
    USAGE,
  );
  if (positionals.length === 0 || positionals.join(' ').trim() === '') throw usageError('missing the prompt: what should be built', `usage: ${USAGE}`);
  if (!values.agent) throw usageError('missing --agent', 'use --agent claude, --agent opencode, or --agent "<command with {prompt}>"');
  const cwd = resolve(values.cwd ?? process.cwd());
  const projectDir = resolve(cwd, values.project ?? process.env.RALPH_PROJECT_DIR ?? '.');
  const out = values.out !== undefined ? resolve(cwd, values.out) : resolve(projectDir, '.ralph', 'prd.md');
  if (existsSync(out) && !values.force) {
    throw usageError(`${relative(cwd, out) || out} already exists; ralf plan-prd never overwrites a PRD`, 'review or edit it and run `ralf run` on it, or pass --force to plan again (or --out FILE)');
  }
  const { parseDuration } = await import('../run/duration.js');
  const timeoutMs = values['iteration-timeout'] === undefined ? 15 * 60_000 : parseDuration(values['iteration-timeout']);
  if (timeoutMs === null) throw usageError(`--iteration-timeout: "${values['iteration-timeout']}" is not a duration`, 'use e.g. 90s, 15m, 1h');
  const model = values['plan-model'] ?? values.model ?? process.env.RALPH_PLAN_MODEL?.trim() ?? null;

  const { planPrd } = await import('../run/plan-prd.js');
  const { selectAgent } = await import('../run/agents/select.js');
  const agent = selectAgent(values.agent, values['agent-arg'] ?? [], { model: model || null, reasoning: null });
  mkdirSync(dirname(out), { recursive: true });
  const result = await planPrd({ request: positionals.join(' '), out, projectDir, agent, timeoutMs, env: process.env });
  // Relative to where the command was typed (not --cwd): the `next` line runs as written there.
  const rel = relative(process.cwd(), out) || out;
  const next = `${commandInvocation()} run ${shellWord(rel)} --agent ${shellWord(values.agent)}`;
  if (values.json) {
    printJson({ path: out, tasks: result.tasks, with_checks: result.withChecks, warnings: result.warnings, model, next: values['skip-review'] ? null : next });
  } else {
    const s = style();
    const lines = [`${s.bold('Wrote')} ${rel}: ${result.tasks} task${result.tasks === 1 ? '' : 's'}, ${result.withChecks} with a check ralf can run.`];
    for (const w of result.warnings) lines.push(s.yellow(`warning: ${w}`));
    if (!values['skip-review']) lines.push('', 'Review and edit it (reorder, split, sharpen the Acceptance lines), then run the loop:', `  ${next}`);
    printText(lines.join('\n'));
  }
  if (!values['skip-review']) return ExitCode.ok;
  const { run: runLoop } = await import('./run.js');
  return runLoop([out, '--agent', values.agent, ...(values['agent-arg'] ?? []).map((a) => `--agent-arg=${a}`), ...(values.json ? ['--json'] : []), '--cwd', cwd]);
}

export function readPrd(path: string): string {
  try {
    return readUserText(path, { what: 'request file' });
  } catch (err) {
    if (err instanceof RalfError) throw err;
    throw new RalfError('prd_missing', `${path}: ${(err as Error).message}`);
  }
}
