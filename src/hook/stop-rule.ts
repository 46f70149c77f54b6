/**
 * The Stop rule (pure): may the agent of this host session end its turn now, or is a
 * loop it runs still open? Shared by the Claude Code Stop/SubagentStop hook and the
 * OpenCode plugin (session.idle), which only translate their host's event into a
 * StopEvent and the decision back.
 *
 * Hold (block) only when ALL of these are true, else allow:
 * - the hooks are enabled (config `hooks.enabled`) and the event names a session;
 * - the host is not already continuing because of an earlier block (`stop_hook_active`) with
 *   the loop where ralf's last hold left it: an agent that verified again since (a new
 *   iteration, a confirm request) or went on to the next task's loop, and still has a loop
 *   open, is held again, so a retrying agent is held after each verify, not only once per
 *   turn (bounded by `hooks.max_blocks` per loop; each hold needs a new verify, which the
 *   loop's own bounds count). After another hook's block (ralf held nothing in this session)
 *   the stop is allowed;
 * - `.planning/ralf/STOP` is absent and the agent did not just hand a checkpoint to the human;
 * - a loop recorded for THIS session is open: started and not verified, or its last
 *   verdict was retry/confirm with iterations left (a passed or stopped loop is closed:
 *   a stop's handoff belongs to the human);
 * - for a subagent, the loop is one it ran itself (its transcript names the task's command);
 * - the loop was held fewer than `hooks.max_blocks` times.
 */
import type { LoopState, PlanState } from '../engine/core/types.js';
import { newestFirst } from '../compare-text.js';
import { failed } from '../engine/core/check-status.js';

export const DEFAULT_MAX_BLOCKS = 3;

/** What the host says about the stop. */
export interface StopEvent {
  sessionId: string | null;
  /** The host is already continuing because a Stop hook blocked (Claude Code's `stop_hook_active`). */
  stopHookActive: boolean;
  /** The text the agent ended its turn with, when the host gives it. */
  lastMessage: string | null;
  /** A subagent is stopping (Claude Code's SubagentStop). */
  subagent: boolean;
  /**
   * The stopping agent's own transcript text (tail), when readable. A subagent is held only
   * for a loop it ran (the transcript names `task start|verify <plan> <N>`); null: unknown.
   */
  transcript: string | null;
}

/** One plan's state file, as read from `.planning/ralf/`. */
export interface StateFile {
  planId: string;
  state: PlanState;
}

export interface StopContext {
  enabled: boolean;
  maxBlocks: number;
  /** `.planning/ralf/STOP` exists: every loop is paused by the human. */
  stopFlag: boolean;
  /** Blocks already spent on this loop (see loopKey). */
  blocksSoFar: (key: string) => number;
  /** `holdMark` of ralf's last hold in this session (loop and where it stood), or null when it held none. */
  lastHold: string | null;
  /** The runtime's command line, e.g. `"/usr/bin/node" "/home/u/.claude/ralf-lite/ralf.js"`. */
  runtime: string;
  /** The plan path as the agent's shell should type it (quoted), from the project-relative path. */
  planArg: (planRel: string) => string;
}

/** A loop this session holds open. */
export interface OpenLoop {
  planId: string;
  planRel: string;
  loop: LoopState;
  /** Identifies this run of the loop for the block counter (a reset starts a new one). */
  key: string;
}

export type StopDecision =
  | { decision: 'allow'; why: string; loop?: OpenLoop }
  | { decision: 'block'; why: string; reason: string; loop: OpenLoop };

/** The marker of GSD's checkpoint block (and of the workflows' own): the human decides next. */
const CHECKPOINT_MARKER = /^#{1,3} *CHECKPOINT REACHED\b/m;

export function decideStop(event: StopEvent, states: readonly StateFile[], ctx: StopContext): StopDecision {
  if (!ctx.enabled) return { decision: 'allow', why: 'hooks.enabled is false' };
  if (!event.sessionId) return { decision: 'allow', why: 'the host gave no session id' };
  if (ctx.stopFlag) return { decision: 'allow', why: '.planning/ralf/STOP is present: every loop is paused' };
  if (event.lastMessage && CHECKPOINT_MARKER.test(event.lastMessage)) return { decision: 'allow', why: 'the agent handed a checkpoint to the human' };

  const open = openLoops(states, event.sessionId).filter((l) => event.transcript === null || ranIn(event.transcript, l));
  if (open.length === 0) {
    return { decision: 'allow', why: event.subagent && event.transcript === null ? 'no transcript to tell which loop this subagent runs' : 'no open loop started in this session' };
  }
  if (event.subagent && event.transcript === null) return { decision: 'allow', why: 'no transcript to tell which loop this subagent runs' };
  // The loop touched last is the one the agent is in.
  const loop = open.sort((a, b) => newestFirst(a.loop, b.loop))[0]!;
  if (event.stopHookActive) {
    // The host continues because a Stop hook blocked. Ours, on this loop as it is now: the agent
    // did nothing the loop recorded since, so a second hold in a row would only repeat itself;
    // another hook's (ralf held nothing here): not ours to prolong. Ours before a verify that
    // moved the loop, or on another task's loop: judge as any stop.
    if (ctx.lastHold === null) return { decision: 'allow', why: 'the host is already continuing after another hook\'s block (stop_hook_active)', loop };
    if (ctx.lastHold === holdMark(loop)) return { decision: 'allow', why: 'the host is already continuing after a block (stop_hook_active) and the loop did not move since', loop };
  }
  const spent = ctx.blocksSoFar(loop.key);
  if (spent >= ctx.maxBlocks) return { decision: 'allow', why: `held ${spent} time(s) already (hooks.max_blocks = ${ctx.maxBlocks})`, loop };
  return { decision: 'block', why: 'open loop started in this session', reason: blockReason(loop, ctx, spent + 1), loop };
}

/** Which loop and where it stands, for telling whether the agent verified again since ralf held it. */
export function holdMark(open: OpenLoop): string {
  return `${open.key}#${open.loop.iterations.length}|${open.loop.updated_at ?? ''}`;
}

/** A loop the agent must carry on: started, or retry/confirm with iterations left. */
export function isOpen(loop: LoopState): boolean {
  // `task start` leaves the loop idle with a start time until the first verify.
  if (loop.status === 'idle') return loop.started_at !== null && loop.iterations.length === 0;
  if (loop.status !== 'running') return false;
  return loop.iterations.length < loop.max_iterations || loop.awaiting_confirmation === true;
}

export function openLoops(states: readonly StateFile[], sessionId: string): OpenLoop[] {
  const out: OpenLoop[] = [];
  for (const { planId, state } of states) {
    const loops = [...Object.values(state.tasks ?? {}), ...(state.plan ? [state.plan] : [])];
    for (const loop of loops) {
      if (!loop || loop.session?.id !== sessionId || !isOpen(loop)) continue;
      const which = loop.scope === 'plan' ? 'plan' : `task ${loop.task_number}`;
      out.push({ planId, planRel: state.plan_path, loop, key: `${planId}|${which}|${loop.started_at ?? ''}` });
    }
  }
  return out;
}

/** The transcript shows this agent running the loop's command (`task start|verify <plan> <N>`, `plan verify <plan>`). */
export function ranIn(transcript: string, open: OpenLoop): boolean {
  const file = escapeRegExp(open.planRel.split('/').pop() ?? open.planRel);
  const pattern =
    open.loop.scope === 'plan'
      ? new RegExp(`plan verify [^\\n]*?${file}`)
      : new RegExp(`task (?:start|verify) [^\\n]*?${file}['"\\\\]* +${open.loop.task_number}\\b`);
  return pattern.test(transcript);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function lastVerdict(loop: LoopState): string | null {
  return loop.iterations.at(-1)?.verdict ?? null;
}

/** The text the host shows the agent: which task, the exact next command, what still fails. */
export function blockReason(open: OpenLoop, ctx: StopContext, blockNumber: number): string {
  const { loop } = open;
  const plan = ctx.planArg(open.planRel);
  const what = loop.scope === 'plan' ? `the plan-level loop of ${open.planId}` : `Task ${loop.task_number} "${loop.task_name}" of plan ${open.planId}`;
  const verify = loop.scope === 'plan' ? `${ctx.runtime} plan verify ${plan} --json` : `${ctx.runtime} task verify ${plan} ${loop.task_number} --json`;
  const n = loop.iterations.length;
  const lines: string[] = [];
  const confirm = loop.awaiting_confirmation === true || lastVerdict(loop) === 'confirm';
  if (confirm) {
    lines.push(`ralf-lite: the checks of ${what} pass, but its manual done criteria are not confirmed.`);
    lines.push('Check each criterion yourself; only if all hold, run:');
    lines.push(`  ${verify} --done-confirmed`);
  } else if (n === 0) {
    lines.push(`ralf-lite: the loop of ${what} was started and not verified yet. Finish the task, then verify it:`);
    lines.push(`  ${verify}`);
  } else {
    lines.push(`ralf-lite: the loop of ${what} is still open: the last verify said retry (iteration ${n} of ${loop.max_iterations}).`);
    const failing = stillFailing(loop);
    if (failing.length > 0) lines.push('Still failing:', ...failing.map((f) => `- ${f}`));
    lines.push('Fix the cause within deviation Rules 1-3 (never edit the checks), then run:');
    lines.push(`  ${verify}`);
  }
  lines.push(
    `If you cannot go on (a checkpoint, a Rule 4 decision), say why and end your turn. (ralf held this session ${blockNumber} of at most ${ctx.maxBlocks} times for this loop.)`,
  );
  return lines.join('\n');
}

const MAX_DIGEST = 3;

/** One line per failing check of the last iteration: the command and its most telling output. */
export function stillFailing(loop: LoopState): string[] {
  const last = loop.iterations.at(-1);
  if (!last) return [];
  const failing = last.checks.filter(failed);
  const out = failing.slice(0, MAX_DIGEST).map((c) => {
    const tests = c.failing_tests?.length ? `failing: ${c.failing_tests.slice(0, 3).join(', ')}${c.failing_tests.length > 3 ? ', ...' : ''}` : lastLine(c.output_tail);
    const why = c.timed_out ? 'timed out' : tests || (c.exit_code !== null ? `exit ${c.exit_code}` : '');
    return `\`${clip(c.command, 100)}\`${why ? ` — ${clip(why, 200)}` : ''}`;
  });
  if (failing.length > MAX_DIGEST) out.push(`and ${failing.length - MAX_DIGEST} more failing check(s)`);
  return out;
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^at\s/.test(l));
  const telling = lines.filter((l) => /error|fail|expected|assert|not ok|✗|×/i.test(l));
  return (telling[0] ?? lines.at(-1) ?? '').replace(/\s+/g, ' ');
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
