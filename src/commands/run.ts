/**
 * `ralf run <PLAN.md | phase dir | seed file> --agent claude|opencode|"<command>"`: the
 * headless driver. A fresh agent process per iteration, verification by the engine
 * in-process, per-task commits, budgets, resume. See docs/RUN.md.
 */
import { relative, resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style } from '../cli/output.js';
import { usageError } from '../errors.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { reportCommand } from '../engine/core/commands.js';

export const USAGE = `ralf run <PLAN.md | phase dir | PRD.md | ralph.json | requirements.json | tasks dir> --agent claude|opencode|"<command with {prompt}>" [--duration 4h] [--max-tokens N] [--iteration-timeout 15m] [--commit|--no-commit] [--resume-signal TEXT] [--agent-arg ARG]... [--model M] [--reasoning none|low|med|high] [--no-spinner] [--cwd DIR] [--json]
       ralf run <target> --dry-run [--json]   how the target is read (items, decisions, checks); nothing runs

Every format:
  --model M                 the agent's model: claude --model M; opencode --model M (sonnet, haiku, opus → anthropic/claude-*); a command gets RALF_MODEL
  --reasoning LEVEL         none|low|med|high: claude --effort low|medium|high (none: MAX_THINKING_TOKENS=0); opencode --variant low|medium|high; a command gets RALF_REASONING
  --agent-arg ARG           one more argument for the agent CLI, repeatable: --agent-arg --model --agent-arg sonnet
  --no-spinner              plain progress lines (no redrawn status line)

ralph1 (requirements.json + history.jsonl):
  --requirements=FILE       the requirements file (instead of the target)
  --history=FILE            the history file (default: history.jsonl beside the requirements)
  --model=sonnet|haiku|opus --reasoning=none|low|med|high --no-spinner --duration=4h   as above

copilot_ralf (.ralph/prd.md, progress.md, AGENTS.md):
  -p DIR                    the project: runs DIR/.ralph/prd.md (else DIR/prd.md); also RALPH_PROJECT_DIR
  --loop-model M            the model for the loop (= --model); also RALPH_LOOP_MODEL
  --plan-model M            the planning model of \`ralf plan-prd\`; also RALPH_PLAN_MODEL
  --loop-only, --skip-review   accepted: \`ralf run\` is the loop, and never stops for a review
  --plan-only               use \`ralf plan-prd "<prompt>" --agent <agent>\` (writes prd.md for review)
  RALPH_MAX_ITERATIONS=N    iterations per item (over the config files)
  RALPH_MAX_STAGNANT=N      no-progress iterations before an item stops, and items in a row that stop before the run halts (default 3 for PRDs)
  RALPH_TASK_TIMEOUT=SECS   the agent's time per iteration
  RALPH_AUTO_COMMIT=false   no commits (like --no-commit)

The Persistence Loop (Approved/ Done/ Rejected/ task files): .specify/config/persistence.yaml is read
  (max_iterations, warn_threshold, retry backoff and jitter, timeout.per_step, timeout.total).

ralph.json: its max_iterations and budget.max_tokens hold unless the project config sets them.`;

/**
 * `--agent-arg --model` would be read as a missing value followed by a flag: an argument that
 * follows --agent-arg is always its value, whatever it looks like.
 */
export function joinAgentArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--agent-arg' && i + 1 < argv.length) out.push(`--agent-arg=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

/** The arguments that start this run again, without its checkpoint answer (`--resume-signal X`, `--resume-signal=X`). */
export function withoutResumeSignal(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--resume-signal') i++;
    else if (!argv[i]!.startsWith('--resume-signal=')) out.push(argv[i]!);
  }
  return out;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    joinAgentArgs(argv),
    {
      agent: { type: 'string' },
      'agent-arg': { type: 'string', multiple: true },
      duration: { type: 'string' },
      'max-tokens': { type: 'string' },
      'iteration-timeout': { type: 'string' },
      commit: { type: 'boolean' },
      'no-commit': { type: 'boolean' },
      'resume-signal': { type: 'string' },
      model: { type: 'string' },
      reasoning: { type: 'string' },
      'no-spinner': { type: 'boolean' },
      requirements: { type: 'string' },
      history: { type: 'string' },
      project: { type: 'string', short: 'p' },
      'plan-model': { type: 'string' },
      'loop-model': { type: 'string' },
      'skip-review': { type: 'boolean' },
      'plan-only': { type: 'boolean' },
      'loop-only': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    },
    USAGE,
  );
  const cwd = resolve(values.cwd ?? process.cwd());
  const { resolveSeedOptions } = await import('../run/seed-flags.js');
  const seed = resolveSeedOptions(
    {
      requirements: values.requirements,
      history: values.history,
      model: values.model,
      reasoning: values.reasoning,
      noSpinner: values['no-spinner'],
      project: values.project,
      planModel: values['plan-model'],
      loopModel: values['loop-model'],
      skipReview: values['skip-review'],
      loopOnly: values['loop-only'],
      planOnly: values['plan-only'],
    },
    process.env,
    cwd,
    positionals[0],
  );
  if (seed.target !== null && positionals.length === 0) positionals.push(seed.target);
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'missing the plan (PLAN.md, phase directory or seed file)' : `unexpected argument "${positionals[1]}"`, `usage: ${USAGE}`);
  if (values['dry-run']) {
    // How the target is read, before any agent or check runs; no --agent needed.
    const { previewRun, previewText } = await import('../run/dry-run.js');
    const preview = await previewRun(resolve(cwd, positionals[0]!), { historyPath: seed.historyPath });
    if (values.json) printJson(preview);
    else printText(previewText(preview, (p) => relative(cwd, p)));
    return 0;
  }
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
  const result = await runCommand({
    target: resolve(cwd, positionals[0]!),
    agentSpec: values.agent,
    agentArgs: values['agent-arg'] ?? [],
    durationMs: duration,
    maxTokens,
    iterationTimeoutMs: iterationTimeout ?? (seed.iterationTimeoutSeconds !== null ? seed.iterationTimeoutSeconds * 1000 : null),
    commit: values['no-commit'] ? false : values.commit ? true : seed.commit,
    model: { model: seed.model, reasoning: seed.reasoning },
    runLimits: seed.runLimits,
    maxStagnant: seed.maxStagnant,
    historyPath: seed.historyPath,
    live: seed.live,
    notes: seed.notes,
    resumeSignal: values['resume-signal'] ?? null,
    json: values.json === true,
    rerunArgs: withoutResumeSignal(joinAgentArgs(argv)),
  });
  if (!values.json) {
    const { summaryTable, runVerdictLine } = await import('../run/summary-table.js');
    const s = style();
    const lines = ['', s.bold('ralf run summary'), '', summaryTable(result), ''];
    for (const r of result.reports) if (r.action !== 'not_written') lines.push(`Loop Report: ${r.action} ${r.path}`);
    for (const r of result.reports) if (r.action === 'not_written') lines.push(s.dim(`Loop Report for ${r.plan_id} not written: the plan is not finished and has no SUMMARY.md yet (\`${reportCommand(r.plan_path, commandInvocation())} --create\` writes one).`));
    lines.push(runVerdictLine(result));
    printText(lines.join('\n'));
  }
  return result.exit_code;
}
