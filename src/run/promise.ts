/**
 * The agent's promise string: `<ralph>TASK_DONE</ralph>` when it believes the task is done,
 * `<ralph>BLOCKED</ralph>` (or copilot_ralf's `<ralph>TASK_BLOCKED</ralph>`, optionally followed by a reason) when it cannot go on without
 * a human. A claim, never a verdict: verification decides. The last promise in the output
 * wins; text that merely echoes the prompt (which explains the promises) is ignored.
 */
export type AgentPromise = { kind: 'done' } | { kind: 'blocked'; reason: string };

export const DONE_PROMISE = '<ralph>TASK_DONE</ralph>';
export const BLOCKED_PROMISE = '<ralph>BLOCKED</ralph>';

// copilot_ralf's agents say `<ralph>TASK_BLOCKED</ralph>`: the same promise.
const PROMISE_RE = /<ralph>\s*(TASK_DONE|BLOCKED|TASK_BLOCKED)\s*<\/ralph>/gi;

export function parsePromise(output: string, prompt?: string): AgentPromise | null {
  let text = output;
  // An agent command that echoes its input (or a host that prints the prompt) must not
  // be read as making the promises the prompt describes.
  if (prompt && prompt.length > 0) text = text.split(prompt).join('\n');
  let last: RegExpExecArray | null = null;
  for (const m of text.matchAll(PROMISE_RE)) last = m as RegExpExecArray;
  if (!last) return null;
  if (last[1]!.toUpperCase() === 'TASK_DONE') return { kind: 'done' };
  const after = text.slice(last.index! + last[0].length);
  const before = text.slice(0, last.index!);
  return { kind: 'blocked', reason: blockedReason(after, before) };
}

/** The reason is the text right after the promise on the same/next line, else the line before it. */
function blockedReason(after: string, before: string): string {
  const next = after.split('\n').map((l) => l.trim()).find((l) => l !== '');
  const prev = before.split('\n').map((l) => l.trim()).filter((l) => l !== '').at(-1);
  const raw = (next ?? prev ?? '').replace(/^[-:–—\s]+/, '').replace(/^reason:\s*/i, '');
  return raw.length > 300 ? `${raw.slice(0, 297)}...` : raw;
}
