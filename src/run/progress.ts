/**
 * The live progress view for people, on stderr. On a TTY: one status line (task,
 * iteration i/N, last fingerprint, elapsed, tokens) redrawn in place with \r and ANSI
 * erase, with the run's milestones printed above it as they happen. Otherwise (a log
 * file, CI): the milestones as plain lines, no redraws.
 */
import { shellWord } from '../engine/core/commands.js';
import { commandInvocation } from '../engine/shell/invocation.js';
import { formatElapsed } from './duration.js';
import type { RunEvent, RunEventSink } from './events.js';

export interface ProgressOptions {
  stream: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean; columns?: number };
  color?: boolean;
  /** Redraw the status line this often (elapsed time) on a TTY; 0: only on events. */
  tickMs?: number;
  now?: () => number;
  /** How much of a stop's handoff to print: the whole GSD checkpoint (default) or its recommendation. */
  handoff?: 'full' | 'brief';
  /** false: never redraw a status line (`--no-spinner`), even on a terminal. */
  live?: boolean;
  /** The `ralf run` arguments that started this run, without `--resume-signal`: a checkpoint names the command that resumes it. */
  rerunArgs?: readonly string[];
}

interface Status {
  plan: string;
  task: string;
  iteration: string;
  fingerprint: string | null;
  tokens: number;
  runTokens: number;
  activity: string;
  startedAt: number;
}

export function progressSink(opts: ProgressOptions): RunEventSink {
  const out = opts.stream;
  // `--no-spinner` (live: false): plain lines, no redrawn status line.
  const tty = out.isTTY === true && opts.live !== false;
  const now = opts.now ?? Date.now;
  const c = colors(opts.color ?? (tty && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb'));
  const st: Status = { plan: '', task: '', iteration: '', fingerprint: null, tokens: 0, runTokens: 0, activity: 'starting', startedAt: now() };
  let shown = false;
  let ticker: NodeJS.Timeout | null = null;

  const statusLine = (): string => {
    const parts = [c.cyan('ralf run'), st.plan && st.task ? `${st.plan} ${st.task}` : st.plan, st.iteration, st.activity];
    // Elapsed and tokens before the fingerprint: a narrow terminal cuts the end of the line.
    parts.push(formatElapsed(now() - st.startedAt), `${formatTokens(st.runTokens + st.tokens)} tok`);
    if (st.fingerprint) parts.push(`fp ${c.dim(short(st.fingerprint, 60))}`);
    const line = parts.filter(Boolean).join(' · ');
    const width = (out as { columns?: number }).columns || Number(process.env.COLUMNS) || 100;
    return truncateVisible(line, Math.max(20, width - 1));
  };
  const draw = () => {
    if (!tty) return;
    out.write(`\r\u001b[2K${statusLine()}`);
    shown = true;
  };
  const clear = () => {
    if (tty && shown) out.write('\r\u001b[2K');
    shown = false;
  };
  const say = (line: string) => {
    clear();
    out.write(`${line}\n`);
    draw();
  };

  return {
    emit(e: RunEvent) {
      switch (e.type) {
        case 'run_start':
          st.startedAt = now() - e.elapsed_ms;
          say(`${c.bold('ralf run')} ${e.target} with ${e.agent}: ${e.plans.length} plan(s)${e.budgets.duration_ms ? `, --duration ${formatElapsed(e.budgets.duration_ms)}` : ''}${e.budgets.max_tokens ? `, --max-tokens ${e.budgets.max_tokens}` : ''}`);
          if (tty && (opts.tickMs ?? 1000) > 0) {
            ticker = setInterval(draw, opts.tickMs ?? 1000);
            ticker.unref();
          }
          break;
        case 'plan_start':
          st.plan = e.plan_id;
          say(`${c.bold(`Plan ${e.plan_id}`)} ${c.dim(e.path)}`);
          break;
        case 'plan_skip':
          say(`${c.dim(`Plan ${e.plan_id}: skipped (${e.reason})`)}`);
          break;
        case 'task_start':
          if (e.not_runnable !== undefined) {
            // Finished or not approved in its own file: one line, with the file's reason (no "runs once").
            say(`  ${c.dim('–')} Task ${e.task}: ${e.name} ${c.dim(`— not run: ${e.not_runnable}`)}`);
            break;
          }
          st.task = e.task === null ? 'plan-level' : `task ${e.task}/${e.task_count}`;
          st.iteration = e.decision === 'loop' ? `iteration ${e.iterations_done + 1}/${e.max_iterations}` : '';
          st.fingerprint = null;
          st.activity = e.decision === 'loop' ? 'starting' : e.decision === 'skip' ? 'single run' : 'checkpoint';
          say(`  ${e.task === null ? 'Plan-level loop' : `Task ${e.task}`}: ${e.name}${taskStartNote(e) ? c.dim(taskStartNote(e)) : ''}`);
          break;
        case 'agent_start':
          if (e.task === null) st.task = 'plan-level';
          st.iteration = `iteration ${e.iteration}${st.iteration.includes('/') ? `/${st.iteration.split('/')[1]}` : ''}`;
          st.activity = e.attempt > 1 ? `agent (attempt ${e.attempt})` : 'agent working';
          st.tokens = 0;
          draw();
          break;
        case 'agent_output':
          st.tokens = e.tokens;
          draw();
          break;
        case 'agent_exit': {
          st.runTokens += e.usage?.total ?? st.tokens;
          st.tokens = 0;
          st.activity = 'verifying';
          const promise = e.promise ? ` said ${e.promise === 'done' ? 'TASK_DONE' : 'BLOCKED'}` : '';
          const how = e.timed_out ? c.yellow('timed out') : e.exit_code === 0 ? 'exit 0' : c.yellow(e.detail);
          say(`    iteration ${e.iteration}: agent ${how} in ${formatElapsed(e.duration_ms)}${e.usage ? `, ${formatTokens(e.usage.total)} tokens` : ''}${promise}`);
          break;
        }
        case 'backoff':
          st.activity = `waiting ${formatElapsed(e.delay_ms)} (${e.reason})`;
          say(`    ${c.yellow(`${e.reason}`)}: ${short(e.detail, 80)}; retrying in ${formatElapsed(e.delay_ms)} (attempt ${e.attempt + 1}, not an iteration)`);
          break;
        case 'revert':
          if (e.files.length > 0) {
            say(`    ${c.dim(`reverted ${e.files.length} file(s) the agent changed (${e.why})${e.saved_as ? `; the attempt is kept as ${e.saved_as}` : ''}`)}`);
            if (e.restore_command) say(`    ${c.dim(`to get it back: ${e.restore_command}`)}`);
          }
          break;
        case 'verify': {
          st.fingerprint = e.fingerprint;
          st.iteration = `iteration ${e.iteration}/${e.max_iterations}`;
          const mark = e.verdict === 'pass' ? c.green('pass') : e.verdict === 'retry' ? c.yellow('retry') : e.verdict === 'confirm' ? c.yellow('confirm') : c.red(`stop: ${e.stop_reason ?? ''}`);
          say(`    verify ${e.iteration}/${e.max_iterations}: ${mark} (${e.checks_passed}/${e.checks_total} checks)${e.fingerprint ? ` fp ${short(e.fingerprint, 60)}` : ''}${e.suspicious ? c.yellow(' — said TASK_DONE but checks failed (suspicious)') : ''}`);
          break;
        }
        case 'commit':
          say(`    ${c.dim(`commit ${e.sha.slice(0, 7)} ${e.message}`)}`);
          break;
        case 'checkpoint':
          if (e.resolved_with !== null) say(`    checkpoint answered: ${JSON.stringify(e.resolved_with)}`);
          else say(checkpointText(e.info, e.task, e.name, c, opts.rerunArgs));
          break;
        case 'task_end':
          // Checkpoints print their own block; an item its file keeps from running was said at its start.
          if (e.outcome === 'checkpoint' || e.outcome === 'checkpoint_resolved' || e.outcome === 'not_runnable') break;
          say(`  ${outcomeMark(e.outcome, c)} ${e.task === null ? 'Plan-level loop' : `Task ${e.task}`}: ${OUTCOME_WORDS[e.outcome] ?? e.outcome}${e.stop_reason && e.stop_reason !== 'success' ? ` (${e.stop_reason})` : ''}${e.iterations && e.outcome !== 'already_done' ? ` after ${e.iterations} iteration(s)` : ''}${e.detail && e.outcome !== 'passed' && e.outcome !== 'already_done' ? ` — ${short(e.detail, 120)}` : ''}`);
          if (e.handoff && (e.outcome === 'stopped' || e.outcome === 'budget')) {
            if (opts.handoff === 'brief') say(`    ${c.bold('Handoff')} (${e.handoff.recommended_action}): ${e.handoff.recommendation}`);
            else say(indent(e.handoff.markdown, '    '));
          }
          break;
        case 'plan_end':
          if (e.report) say(`  ${c.dim(`Loop Report: ${e.report_action ?? 'written to'} ${e.report}`)}`);
          break;
        case 'warning':
          say(`${c.yellow('warning:')} ${e.message}`);
          break;
        case 'run_end':
          if (ticker) clearInterval(ticker);
          ticker = null;
          clear();
          break;
      }
    },
    close() {
      if (ticker) clearInterval(ticker);
      ticker = null;
      clear();
    },
  };
}

function taskStartNote(e: Extract<RunEvent, { type: 'task_start' }>): string {
  if (e.earlier === 'passed') return ` (passed in an earlier run, ${e.iterations_done} iteration(s))`;
  if (e.earlier === 'stopped' || e.earlier === 'blocked') return ` (${e.earlier} in an earlier run)`;
  if (e.earlier === 'ran_once') return ' (ran in an earlier run)';
  if (e.decision === 'skip') return ' [not looped: runs once, unverified]';
  if (e.decision === 'refuse') return ' [refused by the loop: needs a human]';
  return e.iterations_done > 0 ? ` (resuming after ${e.iterations_done} iteration(s))` : '';
}

export function checkpointText(info: import('./events.js').CheckpointInfo, task: number, name: string, c = colors(false), rerunArgs?: readonly string[]): string {
  const kind = info.checkpoint_type.replace(/^checkpoint:/, '');
  const title = kind === 'decision' ? 'Decision Required' : kind === 'human-action' ? 'Action Required' : 'Verification Required';
  const lines = ['', c.bold(`  CHECKPOINT: ${title}`), `  Task ${task}: ${name} (${info.checkpoint_type}${info.gate ? `, gate=${info.gate}` : ''})`];
  const block = (label: string, v: string | null) => {
    if (v && v.trim()) lines.push(`  ${label}:`, indent(v.trim(), '    '));
  };
  block('What was built', info.what_built);
  block('How to verify', info.how_to_verify);
  block('Decision', info.decision);
  block('Options', info.options);
  block('Action', info.action);
  lines.push(`  → YOUR ACTION: ${info.resume_signal?.trim() || 'do what the task asks'}`, `    then continue with: ${commandInvocation()} run ${rerunArgs ? rerunArgs.map(shellWord).join(' ') : '<same target>'} --resume-signal "<your answer>"`, '');
  return lines.join('\n');
}

const OUTCOME_WORDS: Record<string, string> = {
  passed: 'passed',
  deferred: 'deferred',
  stopped: 'stopped',
  blocked: 'blocked',
  ran_once: 'ran once (not verified)',
  already_done: 'done in an earlier run',
  not_runnable: 'not run',
  interrupted: 'interrupted, state saved',
  budget: 'budget ran out',
  agent_failed: 'agent failed',
};

function outcomeMark(o: string, c: ReturnType<typeof colors>): string {
  if (o === 'passed' || o === 'already_done' || o === 'checkpoint_resolved' || o === 'ran_once') return c.green('✓');
  if (o === 'not_runnable') return c.dim('–');
  if (o === 'checkpoint' || o === 'blocked') return c.yellow('■');
  return c.red('✗');
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function short(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function indent(s: string, pad: string): string {
  return s.split('\n').map((l) => (l ? pad + l : l)).join('\n');
}

function truncateVisible(s: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const visible = s.replace(/\u001b\[[0-9;]*m/g, '');
  if (visible.length <= max) return s;
  // eslint-disable-next-line no-control-regex
  return `${visible.slice(0, max - 1)}…`;
}

function colors(on: boolean) {
  const wrap = (open: number, close: number) => (s: string) => (on ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}
