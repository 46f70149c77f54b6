/**
 * `ralf plan <PLAN.md> [--json]`: parse a GSD plan and show, for every task, whether the
 * loop wraps it (`loop`), leaves it to run once (`skip`) or refuses it (`refuse`), with
 * the reason and the checks it would run; then the plan-level decision and warnings.
 * `ralf plan verify ...` is the plan-level loop (src/commands/plan-verify.ts).
 */
import { loadCommandModule } from '../cli/load-command.js';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style, table } from '../cli/output.js';
import { usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { Check, Plan, PlanTask } from '../plan/model.js';

export const USAGE =
  'ralf plan <PLAN.md> [--json] [--cwd DIR] [--host opencode|claude] [--config-dir DIR] | ralf plan --arguments-stdin [--json] | ralf plan verify <PLAN.md> [--done-confirmed] [--json]   (verify exits 0 pass, 10 retry, 11 confirm, 20 stop)';

// A variable specifier keeps the bundler from inlining the engine (execa, git, fingerprints)
// into this command's file: `ralf plan` stays small, and `ralf plan verify` loads its
// sibling bundle (dist/cmd/plan-verify.js, or src/commands/plan-verify.ts) on demand.

export async function run(argv: string[]): Promise<number> {
  if (argv[0] === 'verify') return (await loadCommandModule('plan-verify')).run(argv.slice(1));
  const { values, positionals } = parseCommandArgs(argv, { host: { type: 'string' }, 'config-dir': { type: 'string' }, 'arguments-stdin': { type: 'boolean' } }, USAGE);
  const cwd = resolve(values.cwd ?? process.cwd());
  // The slash commands hand their raw arguments over on stdin (a quoted here-document), so
  // no shell ever interprets them; the plan path is taken from that text here.
  if (values['arguments-stdin'] && positionals.length > 0) throw usageError('give the plan path either as an argument or on stdin (--arguments-stdin), not both', `usage: ${USAGE}`);
  const [planArg, ...extra] = values['arguments-stdin'] ? [planPathFromArguments(readFileSync(0, 'utf8'), (p) => existsSync(resolve(cwd, p)))] : positionals;
  if (planArg === undefined) throw usageError('missing <PLAN.md>', `usage: ${USAGE}`);
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`, `usage: ${USAGE}`);
  const { readPlan } = await import('../plan/read.js');
  const plan = readPlan(resolve(cwd, planArg), { loadConfig: { host: values.host, configDir: values['config-dir'] } });
  if (values.json) printJson(planJson(plan));
  else printText(renderPlan(plan, cwd));
  return ExitCode.ok;
}

/**
 * The plan path in a slash command's raw arguments: the whole text when that names a
 * file (a path with spaces), else the text without the quotes a host put around it,
 * else its first word. Nothing here is ever run.
 */
export function planPathFromArguments(raw: string, exists: (path: string) => boolean): string {
  const text = raw.replace(/\r?\n$/, '').trim();
  if (text === '') throw usageError('no plan path in the command\'s arguments', 'run the command with the plan, e.g. /execute-plan .planning/phases/01-x/01-01-PLAN.md');
  const unquoted = /^(["'])(.*)\1$/s.exec(text)?.[2] ?? text;
  for (const candidate of [text, unquoted]) if (exists(candidate)) return candidate;
  return /^(["'])(.*?)\1/s.exec(unquoted)?.[2] ?? unquoted.split(/\s+/)[0]!;
}

function counts(plan: Plan): Record<'tasks' | 'loop' | 'skip' | 'refuse', number> {
  const c = { tasks: plan.tasks.length, loop: 0, skip: 0, refuse: 0 };
  for (const t of plan.tasks) c[t.decision]++;
  return c;
}

/** The `--json` document: frontmatter under `plan`, then decisions (see the shape). */
export function planJson(plan: Plan) {
  return {
    plan: { ...plan.frontmatter },
    id: plan.id,
    path: plan.path,
    frontmatter_source: plan.frontmatter_source,
    objective: plan.objective,
    plan_decision: plan.plan_decision,
    plan_checks: plan.plan_checks,
    plan_manual: plan.plan_manual,
    summary: counts(plan),
    tasks: plan.tasks.map((t) => ({
      number: t.number,
      name: t.name,
      type: t.type,
      tdd: t.tdd,
      gate: t.gate,
      attributes: t.attributes,
      line: t.line,
      end_line: t.end_line,
      files: t.files,
      decision: t.decision,
      reason: t.reason,
      checks: t.checks,
      manual: t.manual,
    })),
    warnings: plan.warnings,
  };
}

/** Plan text is untrusted: no control characters or bidi overrides reach the terminal. */
function clean(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\uFFFD').replace(/[\t\n]+/g, ' ');
}

function clip(s: string, n: number): string {
  const c = clean(s);
  return c.length > n ? `${c.slice(0, n - 1)}…` : c;
}

function checkLabel(c: Check): string {
  switch (c.kind) {
    case 'command_succeeds':
      return `$ ${c.command}`;
    case 'file_exists':
      return `file_exists ${c.path}`;
    case 'contains_text':
      return `contains_text ${c.path} ${JSON.stringify(c.text)}`;
    case 'min_lines':
      return `min_lines ${c.path} >= ${c.min_lines}`;
    default:
      return `${c.kind}: $ ${c.command}`;
  }
}

const SHORT: Record<Check['kind'], string> = {
  command_succeeds: 'cmd',
  file_exists: 'file',
  contains_text: 'text',
  min_lines: 'lines',
  tests_pass: 'tests',
  no_type_errors: 'types',
  lint_clean: 'lint',
};

function checkSummary(checks: Check[]): string {
  if (checks.length === 0) return '-';
  const n = new Map<string, number>();
  for (const c of checks) n.set(SHORT[c.kind], (n.get(SHORT[c.kind]) ?? 0) + 1);
  return [...n].map(([k, v]) => `${v} ${k}`).join(', ');
}

function typeLabel(t: PlanTask): string {
  const type = t.type ?? '(none)';
  return t.tdd && t.type !== 'tdd' ? `${type} tdd` : type;
}

function checkLines(checks: Check[], max = 6): string[] {
  const out = checks.slice(0, max).map((c) => `    ${clip(checkLabel(c), 110)}  (${c.source.element}:${c.source.line})`);
  if (checks.length > max) out.push(`    … ${checks.length - max} more (--json lists all)`);
  return out;
}

export function renderPlan(plan: Plan, cwd: string): string {
  const s = style();
  const fm = plan.frontmatter;
  const rel = relative(cwd, plan.path);
  const where = rel && !rel.startsWith('..') ? rel : plan.path;
  const meta = [
    fm.phase !== null ? `phase ${fm.phase}` : null,
    fm.plan !== null ? `plan ${fm.plan}` : null,
    fm.type !== null ? `type ${fm.type}` : null,
    fm.wave !== null ? `wave ${fm.wave}` : null,
    `autonomous: ${fm.autonomous === null ? '(not set)' : fm.autonomous}`,
    `metadata: ${plan.frontmatter_source}`,
  ].filter((x): x is string => x !== null);
  const c = counts(plan);
  const lines = [s.bold(`Plan ${clean(plan.id)}`) + `  ${clean(where)}`, clean(meta.join(' · ')), ''];

  if (plan.tasks.length > 0) {
    const rows = plan.tasks.map((t) => [String(t.number), String(t.line), clip(t.name, 48), clip(typeLabel(t), 26), t.decision, checkSummary(t.checks), clean(t.reason)]);
    lines.push(table(['#', 'line', 'task', 'type', 'decision', 'checks', 'reason'], rows));
    lines.push('', `${c.tasks} task${c.tasks === 1 ? '' : 's'}: ${c.loop} loop, ${c.skip} skip, ${c.refuse} refuse`);
    for (const t of plan.tasks.filter((x) => x.decision === 'loop')) {
      lines.push(`  task ${t.number} checks:`, ...checkLines(t.checks));
    }
  } else {
    lines.push('no <task> elements: nothing for the task loop to wrap');
  }

  const d = plan.plan_decision;
  const colour = d.decision === 'loop' ? s.green : d.decision === 'refuse' ? s.red : s.yellow;
  lines.push('', `plan-level: ${colour(d.decision)} — ${clean(d.reason)}`);
  if (plan.plan_checks.length > 0) lines.push(`  plan checks:`, ...checkLines(plan.plan_checks));
  if (plan.warnings.length > 0) {
    lines.push('', s.yellow('warnings:'), ...plan.warnings.map((w) => `  - ${clean(w)}`));
  }
  return lines.join('\n');
}
