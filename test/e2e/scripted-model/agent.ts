/**
 * A scripted agent, written as a generator, replayed statelessly against each request.
 *
 * The generator yields actions (`{ bash }` = one shell tool call, `{ say }` = a final text
 * that ends the turn) and receives each action's outcome: the tool result's text for
 * `bash`, the human's next message for `say` (e.g. "approved" sent with `--continue`).
 * For every request the server starts the generator afresh and feeds it the outcomes
 * already in the conversation; the first action without an outcome is the reply. The
 * server keeps no state, so a test can re-run or continue a session freely.
 */
import type { Conversation } from './conversation.js';

/**
 * `bash`: one shell tool call; `say`: a final text that ends the turn; `agents`: subagents
 * started at once, one Agent tool call each in one message (Claude Code runs them in parallel;
 * the outcome is their results, joined).
 */
export type Reply = { bash: string; description?: string } | { say: string } | { agents: Array<{ description: string; prompt: string }> };

export interface AgentContext {
  /** The first user message: the expanded slash-command body (or the plain prompt). */
  prompt: string;
}

export type AgentScript = (ctx: AgentContext) => Generator<Reply, string | void, string>;

export interface Decision {
  reply: Reply;
  /** Index of the action in the script (0-based), for the request log. */
  step: number;
  /** Tool calls in the conversation whose command differs from what the script replays. */
  divergences: string[];
}

export function decide(agent: AgentScript, conv: Conversation): Decision {
  const { events } = conv;
  let i = events.findIndex((e) => e.type === 'user' && !e.reminderOnly);
  if (i < 0) return { reply: { say: 'SCRIPTED: no user message' }, step: 0, divergences: [] };
  const first = events[i] as { type: 'user'; text: string };
  const gen = agent({ prompt: first.text });
  const divergences: string[] = [];
  let step = 0;
  i++;
  let next = gen.next();
  while (!next.done) {
    const action = next.value;
    if ('agents' in action) {
      const calls = events.filter((e, k) => k >= i && e.type === 'call' && e.command === '<Agent>').slice(0, action.agents.length) as Array<{ type: 'call'; id: string }>;
      if (calls.length < action.agents.length) return { reply: action, step, divergences };
      const results = calls.map((c) => events.findIndex((e) => e.type === 'result' && e.id === c.id));
      if (results.some((r) => r < 0)) return { reply: action, step, divergences };
      i = Math.max(...results) + 1;
      next = gen.next(results.map((r) => (events[r] as { text: string }).text).join('\n---\n'));
    } else if ('bash' in action) {
      const callAt = events.findIndex((e, k) => k >= i && e.type === 'call');
      if (callAt < 0) return { reply: action, step, divergences };
      const call = events[callAt] as { type: 'call'; id: string; command: string };
      if (call.command !== action.bash) divergences.push(`step ${step}: replayed "${action.bash}" but the conversation has "${call.command}"`);
      const resultAt = events.findIndex((e, k) => k > callAt && e.type === 'result' && e.id === call.id);
      if (resultAt < 0) return { reply: action, step, divergences };
      i = resultAt + 1;
      next = gen.next((events[resultAt] as { text: string }).text);
    } else {
      const userAt = events.findIndex((e, k) => k >= i && e.type === 'user' && !e.reminderOnly);
      if (userAt < 0) return { reply: action, step, divergences };
      i = userAt + 1;
      next = gen.next((events[userAt] as { text: string }).text);
    }
    step++;
  }
  return { reply: { say: next.value ?? 'SCRIPTED: done' }, step, divergences };
}

/** The exit code a scripted command printed with `; echo "exit=$?"` (null when absent). */
export function exitOf(result: string): number | null {
  const all = [...result.matchAll(/exit=(\d+)/g)];
  const last = all.at(-1);
  return last ? Number(last[1]) : null;
}
