import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, style, writeStderr } from '../cli/output.js';
import { usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { hostSession } from '../hosts/host.js';

export const USAGE = [
  'ralf task verify <PLAN.md> <N> [--done-confirmed] [--json]',
  'ralf task escalate <PLAN.md> <N> --rule 4 --reason TEXT [--proposed TEXT] [--why TEXT] [--impact TEXT] [--alternatives TEXT] [--json]',
  'ralf task reset <PLAN.md> (<N> | --plan | --all) [--dry-run] [--json]',
  'ralf task start <PLAN.md> <N> [--json]',
  'ralf task approve <PLAN.md> (<N> | --plan) [--note TEXT] [--json]',
  'ralf task defer <PLAN.md> <N> --reason TEXT [--json]',
  '(verify exits 0 pass, 10 retry, 11 confirm: checks pass, rerun with --done-confirmed once the manual criteria hold, 20 stop;',
  ' approve answers a rule4_architectural stop: exit 0 approved, 2 nothing to approve; defer exits 0, or 2 for a passed task)',
].join('\n       ');

const SUBCOMMANDS = ['verify', 'escalate', 'reset', 'start', 'approve', 'defer'];

function taskNumber(value: string | undefined): number {
  if (value === undefined) throw usageError('missing task number <N>', `usage: ${USAGE}`);
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError(`task number must be a positive integer, got "${value}"`, `usage: ${USAGE}`);
  return Number(value);
}

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseCommandArgs(
    rest,
    {
      'done-confirmed': { type: 'boolean' },
      rule: { type: 'string' },
      reason: { type: 'string' },
      proposed: { type: 'string' },
      why: { type: 'string' },
      impact: { type: 'string' },
      alternatives: { type: 'string' },
      plan: { type: 'boolean' },
      all: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      note: { type: 'string' },
      host: { type: 'string' },
      'config-dir': { type: 'string' },
    },
    USAGE,
  );
  const json = values.json === true;
  const [planArg, nArg, ...extra] = positionals;
  if (sub === undefined) throw usageError('missing subcommand (verify, escalate, reset, start, approve or defer)', `usage: ${USAGE}`);
  if (!SUBCOMMANDS.includes(sub)) throw usageError(`unknown subcommand "${sub}" (expected verify, escalate, reset, start, approve or defer)`, `usage: ${USAGE}`);
  if (planArg === undefined) throw usageError('missing <PLAN.md>', `usage: ${USAGE}`);
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`, `usage: ${USAGE}`);
  const planPath = resolve(values.cwd ?? process.cwd(), planArg);
  const common = { planPath, cwd: values.cwd, host: values.host, configDir: values['config-dir'] };
  // The agent's host session, so the Stop hook / OpenCode plugin hold only this session.
  const session = hostSession(process.env);

  switch (sub) {
    case 'verify': {
      const n = taskNumber(nArg);
      const [{ verifyTask }, { runVerifyCommand }] = await Promise.all([import('../engine/shell/verify-task.js'), import('../engine/cli/verify.js')]);
      return runVerifyCommand(json, (signal, onCheckStart) => verifyTask({ ...common, session, taskNumber: n, doneConfirmed: values['done-confirmed'] === true, signal, onCheckStart }));
    }
    case 'escalate': {
      if (values.rule !== '4') throw usageError(values.rule === undefined ? 'missing --rule 4' : `only --rule 4 can be escalated, got --rule ${values.rule}`, 'Rules 1-3 are fixed automatically inside the loop; Rule 4 (architectural change) needs a human decision.');
      if (!values.reason?.trim()) throw usageError('missing --reason "..."', 'Say what you found and what change it needs, e.g. --reason "needs a new users table".');
      const n = values.plan ? null : taskNumber(nArg);
      const { escalateTask } = await import('../engine/shell/escalate-task.js');
      const o = await escalateTask({
        ...common,
        taskNumber: n,
        rule: 4,
        reason: values.reason,
        details: { proposed_change: values.proposed, why_needed: values.why, impact: values.impact, alternatives: values.alternatives },
      });
      warnLog(o, json);
      if (json) printJson(o);
      else printText([style().red(style().bold(`STOP ${o.task ? `Task ${o.task.number}` : 'plan-level loop'} — rule4_architectural`)), o.message, '', `next: ${o.next}`, '', o.handoff?.markdown ?? ''].join('\n'));
      return o.exit_code;
    }
    case 'reset': {
      const which = values.all ? 'all' : values.plan ? 'plan' : taskNumber(nArg);
      if ((values.all || values.plan) && nArg !== undefined) throw usageError(`unexpected argument "${nArg}" with --${values.all ? 'all' : 'plan'}`, `usage: ${USAGE}`);
      const { resetTask } = await import('../engine/shell/reset-task.js');
      const r = await resetTask({ ...common, which, dryRun: values['dry-run'] === true });
      for (const o of r.reset) warnLog(o, json);
      if (json) printJson(r);
      else printText([r.message, ...(r.stop_flag ? ['note: .planning/ralf/STOP exists; every loop stays paused until you delete it.'] : [])].join('\n'));
      return ExitCode.ok;
    }
    case 'start': {
      const n = taskNumber(nArg);
      const { startTask } = await import('../engine/shell/start-task.js');
      const o = await startTask({ ...common, session, taskNumber: n });
      warnLog(o, json);
      if (json) printJson(o);
      else printText(`${o.message}${o.start_ref ? ` Start point: ${o.start_ref.slice(0, 12)}.` : ' (not a git repository: no start snapshot)'}\nnext: ${o.next}`);
      return ExitCode.ok;
    }
    case 'approve': {
      if (values.plan && nArg !== undefined) throw usageError(`unexpected argument "${nArg}" with --plan`, `usage: ${USAGE}`);
      const which = values.plan ? ('plan' as const) : taskNumber(nArg);
      const { approveTask } = await (await import('../bundle/human-decisions.js')).loadHumanDecisions();
      const o = await approveTask({ ...common, which, note: values.note });
      if (json) printJson(o);
      else printText([style().green(style().bold(`APPROVED ${o.task ? `Task ${o.task.number}` : 'plan-level loop'} — Rule 4`)), o.message, '', `next: ${o.next}`].join('\n'));
      return ExitCode.ok;
    }
    case 'defer': {
      const n = taskNumber(nArg);
      if (!values.reason?.trim()) throw usageError('missing --reason "..."', 'Say why the task is set aside, e.g. --reason "needs the payments API key"; it goes under Deferred Issues.');
      const { deferTask } = await (await import('../bundle/human-decisions.js')).loadHumanDecisions();
      const o = await deferTask({ ...common, taskNumber: n, reason: values.reason.trim() });
      if (json) printJson(o);
      else {
        const d = o.deferral;
        printText([
          style().yellow(style().bold(`DEFERRED Task ${n}`)) + ` — ${d.reason}`,
          ...(d.removed.length > 0 ? [`removed the loop's edits: ${d.removed.join(', ')}`, `kept as ${d.ref}; to get them back: ${d.restore_command ?? `git restore --source=${d.ref} -- <files>`}`] : ['no edits of the loop to remove']),
          ...d.left.map((l) => `left ${l.path}: ${l.reason}`),
          '',
          `next: ${o.next}`,
        ].join('\n'));
      }
      return ExitCode.ok;
    }
    default:
      throw usageError(`unknown subcommand "${sub}" (expected verify, escalate, reset, start, approve or defer)`, `usage: ${USAGE}`);
  }
}

/** The history log could not be appended (the state was written): say so on stderr (under --json it is the document's log_warning). */
function warnLog(o: { log_warning?: string }, json: boolean): void {
  if (o.log_warning && !json) writeStderr(`ralf: warning: ${o.log_warning}\n`);
}
