/**
 * The `## RALF Lite Loop Report` section as an mdast tree. Pure: the same input always
 * gives the same tree (no clock), so re-running `ralf report` leaves the file unchanged.
 * Building nodes (not strings) leaves escaping of pipes, backticks and emphasis markers
 * in user text to remark's serializer.
 */
import type { AlreadyFailingEntry } from '../engine/core/baseline.js';
import type { AlignType, BlockContent, List, ListItem, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell } from 'mdast';
import { configValue, flattenConfig } from './config-values.js';
import { displayTaskName, formatDuration, oneLine, plural, shortFingerprint } from './format.js';
import { reportRows } from './rows.js';
import { approveCommand, reportCommand, resetCommand, verifyCommand } from '../engine/core/commands.js';
import type { ReportInput, ReportRow } from './types.js';
// A Rule 4 stop in the report names the approval that answers it.

export const REPORT_HEADING = 'RALF Lite Loop Report';

const text = (value: string): PhrasingContent => ({ type: 'text', value });
const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value: oneLine(value) });
const strong = (...children: PhrasingContent[]): PhrasingContent => ({ type: 'strong', children });
const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children: merge(children) });
const item = (...children: BlockContent[]): ListItem => ({ type: 'listItem', spread: false, children });
const list = (items: ListItem[]): List => ({ type: 'list', ordered: false, spread: false, children: items });

/** Adjacent text nodes serialize the same as one; merging keeps the tree tidy for tests. */
function merge(children: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const c of children) {
    const prev = out.at(-1);
    if (c.type === 'text' && prev?.type === 'text') prev.value += c.value;
    else out.push(c);
  }
  return out;
}

/** `a`, `a and b`, `a, b and c` over phrasing nodes. */
function joined(parts: PhrasingContent[][], last = ' and '): PhrasingContent[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [text(i === parts.length - 1 ? last : ', '), ...p]));
}

const STOP_LABEL: Record<NonNullable<ReportRow['stop_reason']>, string> = {
  success: 'success',
  max_iterations: 'max_iterations',
  repeated_fingerprint: 'repeated_fingerprint',
  no_progress: 'no_progress',
  rule4_architectural: 'rule4_architectural',
  interrupted: 'interrupted',
  time_budget: 'time_budget',
  token_budget: 'token_budget',
  blocked: 'blocked',
  unconfirmed: 'unconfirmed',
  deferred: 'deferred',
  'not run': 'not run',
  running: 'in progress',
};

function rowLabel(row: ReportRow): string {
  return row.scope === 'plan' ? 'Plan-level loop' : `${row.number}. ${displayTaskName(row.name)}`;
}

function detailLabel(row: ReportRow): string {
  return row.scope === 'plan' ? 'Plan-level loop' : `Task ${row.number}: ${displayTaskName(row.name)}`;
}

const isStopped = (row: ReportRow) => row.stop_reason !== 'success' && row.stop_reason !== 'not run' && row.stop_reason !== 'running' && row.stop_reason !== null;

function cell(value: string): TableCell {
  return { type: 'tableCell', children: value ? [text(oneLine(value))] : [] };
}

function taskTable(rows: ReportRow[]): Table {
  const header = ['Task', 'Decision', 'Iterations', 'Stop reason', 'Verify time'];
  const align: AlignType[] = [null, null, 'right', null, 'right'];
  const body = rows.map((row) => {
    const looped = row.decision === 'loop' || row.iterations > 0;
    const total = row.iterations_total ?? row.iterations;
    const iterations = looped ? `${row.iterations}/${row.max_iterations ?? '?'}${total > row.iterations ? ` (${total} in all)` : ''}` : '—';
    const time = total > 0 ? formatDuration(row.verify_ms) : '—';
    return [rowLabel(row), row.decision, iterations, row.stop_reason ? STOP_LABEL[row.stop_reason] : '—', time];
  });
  return {
    type: 'table',
    align,
    children: [header, ...body].map((cells) => ({ type: 'tableRow', children: cells.map(cell) })),
  };
}

function fingerprintLine(row: ReportRow): PhrasingContent[] {
  const parts = row.fingerprints.map((f, i): PhrasingContent[] => {
    if (f.fingerprint === null) return [text(`#${f.iteration} passed`)];
    // A repeat is what `repeated_fingerprint` counts; saying so beats printing it twice.
    if (i > 0 && row.fingerprints[i - 1]?.fingerprint === f.fingerprint) return [text(`#${f.iteration} same`)];
    return [text(`#${f.iteration} `), code(shortFingerprint(f.fingerprint))];
  });
  return [text('Fingerprints: '), ...joined(parts, ', ')];
}

const commands = (label: string, values: string[]): PhrasingContent[] => [text(`${label}: `), ...joined(values.map((v) => [code(v)]), ', ')];

/** Each pre-existing failure: its command as code, what is known about it as text. */
const alreadyFailingLine = (entries: AlreadyFailingEntry[]): PhrasingContent[] => [text('Already failing before the task: '), ...joined(entries.map((e) => (e.note ? [code(e.command), text(e.note)] : [code(e.command)])), ', ')];

/** What the human does next, short; the full handoff is in `ralf status`. */
const NEXT_STEP: Record<string, string> = {
  decision_needed: 'decide on the architectural change (proceed, different approach, or defer), then run',
  manual_investigation: 'investigate the still-failing checks by hand, fix the cause or clarify the task, then run',
  split_task: 'every iteration made progress and most fixed something, but it did not converge: split the task, or raise max_iterations and run',
};

function resetCommandOf(row: ReportRow, planPath: string, invocation: string | undefined): string {
  return resetCommand(planPath, row.scope === 'plan' ? null : row.number, invocation);
}

function nextLine(row: ReportRow, planPath: string, invocation: string | undefined): PhrasingContent[] | null {
  if (row.stop_reason === 'interrupted') {
    const verify = verifyCommand(planPath, row.scope === 'plan' ? null : row.number, invocation);
    return [text(`Next: run the verification again to resume with iteration ${row.iterations + 1} (interrupted iterations do not count): `), code(verify), text('.')];
  }
  const action = row.recommended_action;
  if (row.stop_reason === 'rule4_architectural') return rule4Next(row, planPath, invocation);
  if (row.stop_reason === 'unconfirmed') return unconfirmedNext(row, planPath, invocation);
  const step = action ? NEXT_STEP[action] : undefined;
  if (action && step) return [text('Next: '), code(action), text(` — ${step} `), code(resetCommandOf(row, planPath, invocation)), text('.')];
  if (row.recommendation) return [text(`Next: ${oneLine(row.recommendation)}`)];
  return null;
}

const ENDED_BY: Record<NonNullable<ReportRow['segments']>[number]['ended_by'], string> = { reset: 'reset', approve: 'Rule 4 change approved' };

/** One line per earlier segment (before a reset or an approval): the iterations a restart would otherwise hide. */
function segmentLines(row: ReportRow): PhrasingContent[][] {
  return (row.segments ?? []).map((seg, i) => {
    const parts: PhrasingContent[] = [text(`Segment ${i + 1} (ended: ${ENDED_BY[seg.ended_by]}): ${plural(seg.iterations, 'iteration')}`)];
    if (seg.stop_reason && seg.stop_reason !== 'running' && seg.stop_reason !== 'not run') parts.push(text(', '), code(STOP_LABEL[seg.stop_reason]));
    if (seg.escalation) parts.push(text(` — ${oneLine(seg.escalation)}`));
    if (seg.fingerprints.length > 0) parts.push(text('; '), ...fingerprintLine({ ...row, fingerprints: seg.fingerprints }));
    return parts;
  });
}

/** A Rule 4 stop is answered with an approval (or a reset for a different approach). */
function rule4Next(row: ReportRow, planPath: string, invocation: string | undefined): PhrasingContent[] {
  const n = row.scope === 'plan' ? null : row.number;
  return [text('Next: '), code('decision_needed'), text(' — to proceed with the architectural change run '), code(approveCommand(planPath, n, invocation)), text('; for a different approach revert it and run '), code(resetCommand(planPath, n, invocation)), text('.')];
}

/** The checks pass; only the manual done criteria were never confirmed: a human checks them. */
function unconfirmedNext(row: ReportRow, planPath: string, invocation: string | undefined): PhrasingContent[] {
  const n = row.scope === 'plan' ? null : row.number;
  return [text('Next: '), code('decision_needed'), text(' — check the manual done criteria yourself; if they hold run '), code(`${verifyCommand(planPath, n, invocation)} --done-confirmed`), text(', otherwise tell the agent what is missing and run '), code(resetCommand(planPath, n, invocation)), text('.')];
}

/** A bullet with sub-bullets for a row that did not simply succeed; null when nothing to say. */
function detailItem(row: ReportRow, planPath: string, invocation: string | undefined): ListItem | null {
  const head: PhrasingContent[] = [strong(text(detailLabel(row))), text(': ')];
  const sub: PhrasingContent[][] = [];
  if (row.stop_reason === null) {
    head.push(text(`${row.decision === 'refuse' ? 'refused' : 'skipped'}${row.reason ? ` — ${oneLine(row.reason)}` : ''}`));
  } else if (row.stop_reason === 'not run') {
    return null; // listed together, see notRunItem
  } else if (row.stop_reason === 'running') {
    head.push(text(`in progress, ${row.iterations} of ${plural(row.max_iterations ?? 0, 'iteration')} used`));
    if (row.awaiting_confirmation) head.push(text('; checks pass, waiting for the agent to confirm the done criteria'));
    if (row.fingerprints.length > 0) sub.push(fingerprintLine(row));
    if (row.still_failing.length > 0 && !row.awaiting_confirmation) sub.push(commands('Failing', row.still_failing));
    if (row.already_failing?.length) sub.push(alreadyFailingLine(row.already_failing));
  } else if (row.stop_reason === 'success') {
    if (row.iterations <= 1 && earlierLines(row).length === 0) return null;
    head.push(text(`passed on iteration ${row.iterations}`));
    if (row.auto_fixed.length > 0) head.push(text('; auto-fixed: '), ...joined(row.auto_fixed.map((v) => [code(v)]), ', '));
  } else {
    head.push(text('stopped with '), code(row.stop_reason), text(` after ${row.iterations} of ${plural(row.max_iterations ?? 0, 'iteration')}`));
    if (row.detail) head.push(text(` (${oneLine(row.detail)})`));
    if (row.deferred) head.push(text(`; deferred — ${oneLine(row.deferred)}`));
    if (row.escalation) sub.push([text(`Rule 4 (architectural): ${oneLine(row.escalation)}`)]);
    if (row.fingerprints.length > 0) sub.push(fingerprintLine(row));
    if (row.auto_fixed.length > 0) sub.push(commands('Auto-fixed', row.auto_fixed));
    if (row.still_failing.length > 0) sub.push(commands('Still failing', row.still_failing));
    if (row.already_failing?.length) sub.push(alreadyFailingLine(row.already_failing));
    const next = nextLine(row, planPath, invocation);
    if (next) sub.push(next);
  }
  // What ran before a reset or an approval, and what a human approved, come first.
  sub.unshift(...earlierLines(row));
  const children: BlockContent[] = [paragraph(...head)];
  if (sub.length > 0) children.push(list(sub.map((s) => item(paragraph(...s)))));
  return item(...children);
}

/** One line per earlier segment, then the approved Rule 4 findings, checks edited in the plan mid-loop and tests skipped since the start. */
function earlierLines(row: ReportRow): PhrasingContent[][] {
  return [
    ...segmentLines(row),
    ...(row.approved?.length ? [commands('Approved (Rule 4)', row.approved)] : []),
    ...(row.checks_edited?.length ? [commands('Checks edited in the plan during the loop, not run (the loop ran the ones it started with)', row.checks_edited)] : []),
    ...(row.skipped_more?.length ? [commands('More tests skipped than where the loop started (a skipped test verifies nothing)', row.skipped_more)] : []),
    ...(row.fewer_tests?.length ? [commands('Fewer tests run than earlier in the loop (a deleted test verifies nothing)', row.fewer_tests)] : []),
    ...(row.same_tree_failed !== undefined ? [[text(`Passed on the code that failed at iteration ${row.same_tree_failed} (unchanged tree): the checks are flaky unless something outside the tree changed`)]] : []),
    ...(row.tests_edited ? [commands(`Passed after ${row.tests_edited.kind}s changed since the checks failed at iteration ${row.tests_edited.since} (review them: a weakened test passes like a fix)`, row.tests_edited.paths)] : []),
  ];
}

/** Looped work with no state yet, in one bullet: one line each would bury the stops. */
function notRunItem(rows: ReportRow[]): ListItem | null {
  const notRun = rows.filter((r) => r.stop_reason === 'not run');
  if (notRun.length === 0) return null;
  const tasks = notRun.filter((r) => r.scope === 'task').map((r) => String(r.number));
  const names = [...(tasks.length > 0 ? [`${tasks.length === 1 ? 'Task' : 'Tasks'} ${tasks.join(', ')}`] : []), ...(notRun.some((r) => r.scope === 'plan') ? ['the plan-level loop'] : [])];
  return item(paragraph(strong(text('Not run yet')), text(`: ${names.join(' and ')} (no loop state recorded)`)));
}

function summaryLine(rows: ReportRow[], enabled: boolean, enabledSource: string | undefined): Paragraph {
  const tasks = rows.filter((r) => r.scope === 'task');
  const looped = tasks.filter((r) => r.decision === 'loop' || r.iterations > 0);
  const parts: PhrasingContent[] = [];
  if (enabled) parts.push(text('Loop '), strong(text('enabled')), text('. '));
  else parts.push(text('Loop '), strong(text('disabled')), text(` (enabled: false${enabledSource && enabledSource !== 'default' ? `, from ${enabledSource}` : ''}): tasks run once, without the loop. `));

  if (looped.length > 0) {
    const counts: string[] = [];
    const passed = looped.filter((r) => r.stop_reason === 'success').length;
    if (passed > 0) counts.push(`${passed} passed`);
    const stopped = looped.filter(isStopped);
    if (stopped.length > 0) counts.push(`${stopped.length} stopped (${[...new Set(stopped.map((r) => r.stop_reason))].join(', ')})`);
    const running = looped.filter((r) => r.stop_reason === 'running').length;
    if (running > 0) counts.push(`${running} in progress`);
    const notRun = looped.filter((r) => r.stop_reason === 'not run').length;
    if (notRun > 0) counts.push(`${notRun} not run`);
    parts.push(text(`${plural(looped.length, 'task')} looped: ${counts.join(', ')}. `));
  }
  const refused = tasks.filter((r) => r.stop_reason === null && r.decision === 'refuse').length;
  const skipped = tasks.filter((r) => r.stop_reason === null && r.decision === 'skip').length;
  const notLooped = [refused > 0 ? `${refused} refused` : '', skipped > 0 ? `${skipped} skipped` : ''].filter(Boolean);
  if (notLooped.length > 0) parts.push(text(`${notLooped.join(', ')}. `));

  const planRow = rows.find((r) => r.scope === 'plan');
  if (planRow && (planRow.decision === 'loop' || planRow.iterations > 0)) {
    const what = planRow.stop_reason === 'success' ? `passed after ${plural(planRow.iterations, 'iteration')}` : planRow.stop_reason ? STOP_LABEL[planRow.stop_reason] : '—';
    parts.push(text(`Plan-level loop: ${what}. `));
  }
  const total = rows.reduce((sum, r) => sum + (r.iterations > 0 ? r.verify_ms : 0), 0);
  if (rows.some((r) => r.iterations > 0)) parts.push(text(`Verification time: ${formatDuration(total)} in total.`));
  const last = parts.at(-1);
  if (last?.type === 'text') last.value = last.value.trimEnd();
  return paragraph(...parts);
}

function configValueText(value: unknown): string {
  return typeof value === 'string' || Array.isArray(value) || (typeof value === 'object' && value !== null) ? JSON.stringify(value) : String(value);
}

/** The effective config grouped by where each value came from. */
function configSection(input: ReportInput): RootContent[] {
  const leaves = flattenConfig(input.config.values);
  if (leaves.length === 0) return [];
  const groups = new Map<string, string[]>();
  for (const [key, value] of leaves) {
    const source = input.config.sources[key] ?? 'default';
    const entries = groups.get(source) ?? [];
    entries.push(`${key}: ${configValueText(value)}`);
    groups.set(source, entries);
  }
  const order = [...groups.keys()].sort((a, b) => (a === 'default' ? 1 : 0) - (b === 'default' ? 1 : 0));
  const items = order.map((source) => {
    const label = source === 'default' ? text('defaults') : code(source);
    return item(paragraph(label, text(': '), ...joined((groups.get(source) ?? []).map((e) => [code(e)]), ', ')));
  });
  return [paragraph(strong(text('Config')), text(' (effective, by source):')), list(items)];
}

/** Names the command that wrote the section, as it runs where the report is read: run it again to refresh. */
function footer(input: ReportInput): Paragraph {
  const where = input.state_path ?? `.planning/ralf/${input.plan.id}.json`;
  const by = code(reportCommand(input.plan.path, input.invocation));
  if (!input.state) return paragraph({ type: 'emphasis', children: [text('Written by '), by, text('; no loop state recorded yet ('), code(where), text(' not found).')] });
  return paragraph({
    type: 'emphasis',
    children: [text('Written by '), by, text(' from '), code(where), text(` (updated ${input.state.updated_at}).`)],
  });
}

/** The whole section: heading, one-line summary, table, details, config, footer. */
export function buildLoopReport(input: ReportInput): Root {
  const rows = reportRows(input);
  const enabled = configValue(input.config.values, 'enabled') !== false;
  const children: RootContent[] = [
    { type: 'heading', depth: 2, children: [text(REPORT_HEADING)] },
    summaryLine(rows, enabled, input.config.sources.enabled),
  ];
  const anyLoopData = rows.some((r) => r.iterations > 0 || r.decision === 'loop');
  if (rows.length > 0 && (enabled || anyLoopData)) {
    children.push(taskTable(rows));
    const details = [...rows.map((r) => detailItem(r, input.plan.path, input.invocation)), notRunItem(rows)].filter((d): d is ListItem => d !== null);
    if (details.length > 0) children.push(list(details));
  }
  children.push(...configSection(input), footer(input));
  return { type: 'root', children };
}
