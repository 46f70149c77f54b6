/**
 * Readable output of a verify (pure): compact, and exactly what the agent needs to
 * repair — the failing checks' command and last lines of output, the fingerprint,
 * iteration i/N and what to do next. On a stop, the handoff Markdown follows.
 */
import { failed } from '../core/check-status.js';
import { taskTitle } from '../core/label.js';
import { lastLines } from '../core/tail.js';
import type { VerifyOutcome } from '../shell/verify-task.js';

/** Lines of output shown per failing check. */
export const VERIFY_TAIL_LINES = 40;

export interface Styler {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

const plain: Styler = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s };

export function renderVerify(o: VerifyOutcome, s: Styler = plain): string {
  const out: string[] = [];
  const who = o.task ? taskTitle(o.task.number, o.task.name) : `Plan ${o.plan_id} (plan-level checks)`;
  const counter = `iteration ${o.iteration}/${o.max_iterations}`;
  const head =
    o.verdict === 'pass'
      ? s.green(`PASS ${who} — ${counter}`)
      : o.verdict === 'retry'
        ? s.yellow(`RETRY ${who} — ${o.counted ? counter : `${counter} (not counted)`}`)
        : o.verdict === 'confirm'
          ? s.yellow(`CONFIRM ${who} — checks pass; manual criteria to confirm (${counter}, not counted)`)
          : s.red(`STOP ${who} — ${o.stop_reason} after ${counter}`);
  out.push(s.bold(head));
  out.push(o.message);

  const failing = o.checks.filter(failed);
  const passed = o.checks.filter((c) => c.passed).length;
  const skipped = o.checks.filter((c) => c.skipped).length;
  if (o.checks.length > 0) out.push(s.dim(`checks: ${passed} passed, ${failing.length} failed${skipped ? `, ${skipped} skipped` : ''} of ${o.checks.length}`));
  for (const c of o.checks) for (const n of c.notes ?? []) out.push(s.yellow(`note: ${c.command.split('\n')[0]!.slice(0, 60)}: ${n}`));
  if (o.already_failing?.length) out.push(s.dim(`already failing before the task: ${o.already_failing.join('; ')}`));
  if (o.fingerprint && o.verdict !== 'pass') out.push(`fingerprint: ${o.fingerprint}`);
  if (o.counted && o.progress !== null && o.iteration > 1) out.push(`progress: ${o.progress ? 'yes' : 'no'} (${o.progress_reasons.join('; ')})`);

  // On a stop the handoff below carries the still-failing checks with their output tails.
  if (o.verdict === 'retry' || (o.verdict === 'stop' && !o.handoff)) {
    for (const c of failing) {
      const how = c.timed_out ? 'timed out' : c.exit_code !== null ? `exit ${c.exit_code}` : c.signal ? `signal ${c.signal}` : 'failed';
      out.push('', s.red(`✗ ${c.command}`) + s.dim(` (${how}, ${c.duration_ms} ms)`));
      const tail = lastLines(c.output_tail, VERIFY_TAIL_LINES, 8000);
      if (tail) out.push(...tail.split('\n').map((l) => `  ${l}`));
      if (c.failing_tests?.length) out.push(s.dim(`  failing tests: ${c.failing_tests.slice(0, 10).join(', ')}${c.failing_tests.length > 10 ? ` (+${c.failing_tests.length - 10})` : ''}`));
    }
  }
  if (o.requires_confirmation && o.manual.length > 0 && o.verdict !== 'stop') {
    out.push('', o.done_confirmed ? 'manual done criteria (confirmed):' : 'manual done criteria to confirm (--done-confirmed):');
    out.push(...o.manual.map((m) => `  - ${m}`));
  }
  if (o.warning) out.push('', s.yellow(`warning: ${o.warning}`));
  for (const w of o.snapshot?.warnings ?? []) out.push('', s.yellow(`warning: ${w}`));
  out.push('', `${s.bold('next:')} ${o.next}`);
  if (o.verdict === 'stop' && o.handoff) out.push('', o.handoff.markdown);
  return out.join('\n');
}
