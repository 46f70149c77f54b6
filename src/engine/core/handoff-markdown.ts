/**
 * The handoff as Markdown in GSD's subagent checkpoint shape (`## CHECKPOINT REACHED`,
 * `**Type:** decision`; GSD-FORMATS 3.5), with GSD's "⚠️ Architectural Decision Needed"
 * block for Rule 4 (3.8). Pure: the agent prints it verbatim to the human.
 */
import { alreadyFailingEntries } from './baseline.js';
import { resetCommand, verifyCommand } from './commands.js';
import type { LoopContext } from './events.js';
import { bareTaskName } from './label.js';
import { oneLine } from './tail.js';
import type { Handoff, LoopState, StopReason } from './types.js';
// The answers to a stop a human may choose (Rule 4: approve; any task: defer).
import { approveCommand, deferCommand } from './commands.js';

const STOP_EXPLAINED: Record<StopReason, string> = {
  success: 'all checks pass',
  max_iterations: 'the loop used every iteration it was allowed (max_iterations)',
  repeated_fingerprint: 'the same error came back on consecutive iterations (error_fingerprint_repeats)',
  no_progress: 'consecutive iterations made no progress (no_progress_repeats)',
  rule4_architectural: 'an architectural change needs a human decision (deviation Rule 4)',
  interrupted: 'the loop was interrupted; it resumes on the next verify',
  time_budget: 'the time budget ran out',
  token_budget: 'the token budget ran out',
  blocked: 'the agent is blocked and needs a human action',
  unconfirmed: 'the checks pass, but the manual done criteria were never confirmed',
  deferred: 'a human deferred the task; the plan goes on without it',
};

/** Inline code that survives backticks and table pipes inside the text. */
function code(text: string, max = 160): string {
  const s = oneLine(text, max).replace(/\|/g, '\\|');
  const fence = s.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ' ' : ''}${s}${fence === '``' ? ' ' : ''}${fence}`;
}

function fenced(text: string): string {
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return `${fence}\n${text}\n${fence}`;
}

function taskLabel(h: Pick<Handoff, 'scope' | 'task_number' | 'task_name'>): string {
  return h.scope === 'plan' ? `Plan-level verification${h.task_name ? ` (${h.task_name})` : ''}` : `Task ${h.task_number}: ${bareTaskName(h.task_number, h.task_name)}`;
}

function architecturalBlock(h: Omit<Handoff, 'markdown'>): string[] {
  const e = h.escalation;
  if (!e) return [];
  const discovery =
    e.source === 'diff_guard'
      ? `the diff guard found ${e.findings?.length ? e.findings.join('; ') : 'architectural changes'} since the task started`
      : oneLine(e.reason, 600);
  return [
    '⚠️ Architectural Decision Needed',
    '',
    `Current task: ${taskLabel(h)}`,
    `Discovery: ${discovery}`,
    `Proposed change: ${e.proposed_change ? oneLine(e.proposed_change, 600) : e.source === 'diff_guard' ? 'keep the change shown by the diff guard' : oneLine(e.reason, 600)}`,
    `Why needed: ${e.why_needed ? oneLine(e.why_needed, 600) : e.source === 'diff_guard' ? 'the agent made it while repairing the task' : 'see the discovery above'}`,
    `Impact: ${e.impact ? oneLine(e.impact, 600) : 'not stated; review the files changed below'}`,
    `Alternatives: ${e.alternatives ? oneLine(e.alternatives, 600) : 'not stated'}`,
    '',
    'Proceed with proposed change? (yes / different approach / defer)',
    '',
  ];
}

function awaiting(h: Omit<Handoff, 'markdown'>, ctx: LoopContext): string {
  const reset = resetCommand(ctx.plan_path, h.scope === 'plan' ? null : h.task_number, ctx.invocation);
  const approve = approveCommand(ctx.plan_path, h.scope === 'plan' ? null : h.task_number, ctx.invocation);
  // Deferring sets a task aside (the plan goes on); the plan-level loop has nothing to go on to.
  const defer = h.scope === 'plan' ? '**defer** (record it under "Deferred Issues" in SUMMARY.md)' : `**defer** (\`${deferCommand(ctx.plan_path, h.task_number ?? 0, ctx.invocation)}\`: its edits are set aside under a ref, the plan goes on)`;
  switch (h.recommended_action) {
    case 'decision_needed':
      if (h.stop_reason === 'rule4_architectural') return `Your decision: **yes** (proceed: \`${approve}\` records the approval and the loop continues with the change), **different approach** (describe it; then \`${reset}\`), or ${defer}.`;
      if (h.stop_reason === 'unconfirmed') return `Your decision: **confirmed** (the manual done criteria hold: \`${verifyCommand(ctx.plan_path, h.scope === 'plan' ? null : h.task_number, ctx.invocation)} --done-confirmed\`), **not yet** (tell the agent what is missing; then \`${reset}\`), or ${defer}.`;
      return `Your decision: **yes** (proceed; then \`${reset}\`), **different approach** (describe it), or **defer**.`;
    case 'split_task':
      return `Choose: **split** the task into smaller tasks, **another round** (\`${reset}\`, optionally with a higher max_iterations), or ${defer}.`;
    case 'manual_investigation':
      return `Choose: **investigate** and fix by hand, then \`${reset}\`; **change the approach** (describe it); or ${defer}.`;
    default:
      return h.stop_reason === 'interrupted' ? `Remove \`.planning/ralf/STOP\` if present, then run \`${verifyCommand(ctx.plan_path, h.scope === 'plan' ? null : h.task_number, ctx.invocation)}\` to resume.` : 'Nothing.';
  }
}

export function renderHandoffMarkdown(h: Omit<Handoff, 'markdown'>, loop: LoopState, ctx: LoopContext): string {
  const out: string[] = [];
  const type = h.stop_reason === 'blocked' ? 'human-action' : 'decision';
  const status = type === 'human-action' ? 'blocked' : 'awaiting decision';
  out.push('## CHECKPOINT REACHED', '');
  out.push(`**Type:** ${type}`);
  out.push(`**Plan:** ${ctx.plan_id}`);
  if (ctx.plan_progress) out.push(`**Progress:** ${ctx.plan_progress.completed}/${ctx.plan_progress.total} tasks complete`);
  out.push('', '### Current Task', '');
  out.push(h.scope === 'plan' ? `**Plan-level verification:** ${h.task_name}` : `**Task ${h.task_number}:** ${bareTaskName(h.task_number, h.task_name)}`);
  out.push(`**Status:** ${status}`);
  out.push(`**Blocked by:** RALF Lite loop stopped with \`${h.stop_reason}\` after ${h.iterations}/${h.max_iterations} iterations`);
  out.push('', '### Checkpoint Details', '');
  if (h.stop_reason === 'rule4_architectural') out.push(...architecturalBlock(h));
  out.push(`**Stop reason:** \`${h.stop_reason}\` — ${STOP_EXPLAINED[h.stop_reason]}${loop.stop_detail ? ` (${oneLine(loop.stop_detail, 300)})` : ''}`);
  out.push(`**Iterations:** ${h.iterations}/${h.max_iterations}`);
  if (h.fingerprints.length > 0) {
    out.push('', '| Iteration | Fingerprint | Progress |', '| --- | --- | --- |');
    for (const f of h.fingerprints) {
      const it = loop.iterations.find((i) => i.iteration === f.iteration);
      const progress = !it ? '' : it.passed ? 'passed' : it.iteration === 1 && it.progress ? '—' : it.progress ? 'yes' : 'no';
      out.push(`| ${f.iteration} | ${f.fingerprint ? code(f.fingerprint, 140) : '—'} | ${progress} |`);
    }
  }
  out.push('', '**Already auto-fixed:**');
  out.push(...(h.auto_fixed.length > 0 ? h.auto_fixed.map((a) => `- ${a.startsWith('test: ') ? `test ${code(a.slice(6))}` : `${code(a)} now passes`}`) : ['- nothing yet']));
  out.push('', `**Files changed since the start:** ${h.files_changed.length > 0 ? h.files_changed.slice(0, 30).map((f) => code(f)).join(', ') + (h.files_changed.length > 30 ? ` and ${h.files_changed.length - 30} more` : '') : 'none'}`);
  if (h.still_failing.length > 0) {
    out.push('', '**Still failing:**', '');
    for (const s of h.still_failing) {
      out.push(`- ${code(s.command)}${s.fingerprint ? ` — ${code(s.fingerprint, 140)}` : ''}`);
      if (s.output_tail) out.push('', fenced(s.output_tail), '');
    }
  }
  // The entries behind h.already_failing (same baseline, same last checks), with the command apart.
  const before = alreadyFailingEntries(loop.baseline, loop.iterations.at(-1)?.checks);
  if (before.length > 0) {
    out.push('', '**Already failing before the task** (recorded before the first edit; not caused by it):', '');
    out.push(...before.map((e) => `- ${code(e.command)}${e.note}`));
  }
  // What the agent did to the loop's own measures, for the human to weigh (checks-at-start.ts, skips.ts).
  const last = loop.iterations.at(-1);
  const edited = [...new Set(loop.iterations.flatMap((i) => i.plan_checks_edited ?? []))];
  if (loop.iterations.some((i) => i.plan_checks_edited)) {
    out.push('', `**Checks edited in the plan during the loop** (not run; the loop ran the ones it started with): ${edited.length > 0 ? edited.map((c) => code(c)).join(', ') : 'every check removed'}`);
  }
  if (last?.skipped_more?.length) out.push('', `**More tests skipped than where the loop started:** ${last.skipped_more.map((m) => `${code(m.command)} ${m.before} → ${m.now}`).join(', ')}`);
  if (last?.fewer_tests?.length) out.push('', `**Fewer tests run than earlier in the loop:** ${last.fewer_tests.map((m) => `${code(m.command)} ${m.before} → ${m.now}`).join(', ')}`);
  out.push('', `**Recommended next action:** \`${h.recommended_action}\` — ${h.recommendation}`);
  out.push('', '### Awaiting', '', awaiting(h, ctx), '');
  // Collapse runs of blank entries (not blank lines inside a fenced output tail).
  return out.filter((line, i) => !(line === '' && out[i - 1] === '')).join('\n');
}
