/**
 * The prompt for one agent iteration. Each iteration is a fresh process with no memory
 * but the files, so the prompt carries what it needs: the task, the plan context, how it
 * will be verified, the iteration history, the last failure (compacted) and driver notes
 * (a DONE promise that failed verification, a timeout). Pure: same input, same prompt.
 * The header lines (`Plan:`, `Task N of M:`, `Iteration i of N`) are stable; scripted
 * agents and tests read them.
 */
import type { Check, PlanTask } from '../plan/model.js';
import type { CheckResult, IterationRecord } from '../engine/core/types.js';
import { BLOCKED_PROMISE, DONE_PROMISE } from './promise.js';
import { failed } from '../engine/core/check-status.js';

export interface PromptPlan {
  id: string;
  /** Relative to the project root. */
  path: string;
  objective: string | null;
  task_count: number;
}

export interface PromptInput {
  plan: PromptPlan;
  /** The task, or null for the plan-level loop. */
  task: Pick<PlanTask, 'number' | 'name' | 'type' | 'files' | 'elements' | 'checks' | 'manual'> | null;
  /** Plan-level loop: the plan's checks and criteria. */
  plan_checks?: Check[];
  plan_manual?: string[];
  /** 1-based iteration this prompt starts. */
  iteration: number;
  max_iterations: number;
  /** `loop`: verified after the agent exits; `once`: a skipped task, run once without the loop. */
  mode: 'loop' | 'once';
  history: IterationRecord[];
  /** Notes the driver recorded per iteration (e.g. "said TASK_DONE but checks failed"). */
  notes: Array<{ iteration: number; note: string }>;
  /** Earlier tasks of this plan that are finished. */
  completed: Array<{ number: number; name: string; commit: string | null }>;
  /** What the human answered at checkpoints (`--resume-signal`). */
  checkpoint_replies: Array<{ number: number; name: string; reply: string }>;
}

const MAX_TAIL_CHARS = 1800;
const MAX_FAILING_SHOWN = 3;
const MAX_HISTORY_SHOWN = 8;

export function buildPrompt(input: PromptInput): string {
  const { plan, task } = input;
  const out: string[] = [];
  out.push(
    'You are one iteration of a RALF Lite loop (`ralf run`): a fresh agent process per iteration. You have no memory of earlier iterations; the files on disk and this prompt are all you know.',
    '',
    `Plan: ${plan.path} (id ${plan.id})`,
  );
  if (task) out.push(`Task ${task.number} of ${plan.task_count}: ${task.name}`);
  else out.push(`Plan-level verification of ${plan.id} (all tasks are done; the plan's own checks still fail)`);
  out.push(input.mode === 'loop' ? `Iteration ${input.iteration} of ${input.max_iterations}` : 'Single run (this task has no objective checks, so it is not looped)');
  if (plan.objective) out.push('', '## Plan objective', '', plan.objective.trim());

  if (task) {
    out.push('', '## Your task', '', `<task type="${task.type ?? 'auto'}">`, `<name>${task.name}</name>`);
    if (task.files.length > 0) out.push(`<files>${task.files.join(', ')}</files>`);
    for (const [name, value] of Object.entries(task.elements)) {
      if (name === 'name' || name === 'files') continue;
      out.push(`<${name}>`, value.trim(), `</${name}>`);
    }
    out.push('</task>');
  }

  const checks = task ? task.checks : (input.plan_checks ?? []);
  const manual = task ? task.manual : (input.plan_manual ?? []);
  if (input.mode === 'loop') {
    out.push('', '## How this is verified', '', 'After you exit, ralf runs these checks itself. Verification decides, not your claim:');
    if (checks.length === 0) out.push('- (no executable checks)');
    for (const c of checks) out.push(`- ${describeCheck(c)}`);
    if (manual.length > 0) {
      out.push('', `Criteria you confirm by ending with ${DONE_PROMISE} (only when they are really met):`);
      for (const m of manual) out.push(`- ${oneLine(m)}`);
    }
  }

  if (input.completed.length > 0) {
    out.push('', '## Already done in this plan (do not redo)', '');
    for (const c of input.completed) out.push(`- Task ${c.number}: ${c.name}${c.commit ? ` (commit ${c.commit.slice(0, 7)})` : ''}`);
  }
  if (input.checkpoint_replies.length > 0) {
    out.push('', '## Human responses at checkpoints', '');
    for (const r of input.checkpoint_replies) out.push(`- Task ${r.number} (${r.name}): ${JSON.stringify(r.reply)}`);
  }

  if (input.history.length > 0) {
    out.push('', '## Earlier iterations of this task', '');
    const shown = input.history.slice(-MAX_HISTORY_SHOWN);
    if (shown.length < input.history.length) out.push(`- (${input.history.length - shown.length} earlier iterations not shown)`);
    for (const it of shown) out.push(`- ${historyLine(it, input.notes)}`);
    const last = input.history.at(-1)!;
    if (!last.passed) {
      out.push('', `## Last verification failure (iteration ${last.iteration})`, '');
      const failing = last.checks.filter(failed);
      for (const c of failing.slice(0, MAX_FAILING_SHOWN)) out.push(...failureBlock(c));
      if (failing.length > MAX_FAILING_SHOWN) out.push(`(${failing.length - MAX_FAILING_SHOWN} more failing checks not shown)`);
      if (last.fingerprint) out.push(`Failure fingerprint: ${last.fingerprint}`, 'If you cannot change this failure, say so and end with the BLOCKED promise rather than repeating the same attempt: the loop stops when the same fingerprint repeats.');
    }
  }
  const pending = input.notes.filter((n) => !input.history.some((h) => h.iteration === n.iteration));
  for (const n of pending) out.push('', `Note: ${n.note}`);

  out.push(
    '',
    '## Rules',
    '',
    '- Work only on this task. Keep changes minimal and inside the task\'s files where possible.',
    '- Do not commit, amend, stash, reset, check out, clean or switch branches, and do not edit anything under .planning/ (ralf commits passed tasks, undoes those git commands and keeps the loop state there). Files you did not change in this task (the user\'s uncommitted work) are not yours.',
    '- Fix bugs, missing critical pieces and blockers caused by this task directly (GSD deviation rules 1-3).',
    '- Rule 4: if the fix needs an architectural change (a new database table, a new service layer, switching libraries or frameworks, changing the auth approach, a breaking API change), do not make it. Explain it and end with the BLOCKED promise.',
    '- Run the checks yourself if you can; do not claim success you have not seen.',
    `- When you believe the task is done, end your final message with ${DONE_PROMISE} on its own line.`,
    `- If you cannot continue without a human (missing credentials or secrets, a decision, Rule 4), end with ${BLOCKED_PROMISE} followed by one line saying why.`,
  );
  return `${out.join('\n')}\n`;
}

export function describeCheck(c: Check): string {
  switch (c.kind) {
    case 'command_succeeds':
      return `\`${oneLine(c.command)}\` exits 0`;
    case 'tests_pass':
      return `tests pass: \`${oneLine(c.command)}\``;
    case 'no_type_errors':
      return `no type errors: \`${oneLine(c.command)}\``;
    case 'lint_clean':
      return `lint clean: \`${oneLine(c.command)}\``;
    case 'file_exists':
      return `file exists: ${c.path}`;
    case 'contains_text':
      return `${c.path} contains ${JSON.stringify(c.text)}`;
    case 'min_lines':
      return `${c.path} has at least ${c.min_lines} lines`;
  }
}

function historyLine(it: IterationRecord, notes: PromptInput['notes']): string {
  const parts = [`iteration ${it.iteration}: ${it.passed ? 'passed' : 'failed'}`];
  if (it.fingerprint) parts.push(`fingerprint ${JSON.stringify(it.fingerprint)}`);
  const passed = it.checks.filter((c) => c.passed).length;
  parts.push(`${passed}/${it.checks.length} checks passed`);
  if (!it.passed) parts.push(it.progress ? `progress (${it.progress_reasons.join('; ') || 'yes'})` : 'no progress');
  if (it.files_changed.length > 0) parts.push(`files changed: ${it.files_changed.slice(0, 6).join(', ')}${it.files_changed.length > 6 ? ', ...' : ''}`);
  for (const n of notes) if (n.iteration === it.iteration) parts.push(`note: ${n.note}`);
  return parts.join('; ');
}

function failureBlock(c: CheckResult): string[] {
  const status = c.timed_out ? 'timed out' : c.signal ? `killed by ${c.signal}` : `exit ${c.exit_code ?? '?'}`;
  const lines = [`$ ${oneLine(c.command)}  (${status})`];
  const tail = compactTail(c.output_tail);
  if (tail) lines.push('```', tail, '```');
  return lines;
}

/** Keeps the head and tail of long output: errors show at the start (compilers) or the end (test runners). */
export function compactTail(text: string, max = MAX_TAIL_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r\n?/g, '\n').trim();
  if (clean.length <= max) return clean;
  const head = clean.slice(0, Math.floor(max * 0.35));
  const tail = clean.slice(clean.length - Math.floor(max * 0.6));
  return `${head.slice(0, head.lastIndexOf('\n') > 0 ? head.lastIndexOf('\n') : head.length)}\n[... ${clean.length - head.length - tail.length} characters cut ...]\n${tail.slice(tail.indexOf('\n') + 1 || 0)}`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
