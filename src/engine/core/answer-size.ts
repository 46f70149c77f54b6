/**
 * The `--json` answer of a verify, bounded to what an agent host hands its model of one tool
 * result. Claude Code keeps 30,000 characters of a Bash result and beyond that gives the model
 * a 2 KB preview of a file: a noisy test run (64 KiB of output kept per check) made the whole
 * answer unreadable, exit code, `next` and handoff included. Only the checks' `output_tail`s
 * shrink: each keeps its head and, mostly, its tail (where runners summarise), with a line
 * saying how much was left out and how to see it all (run the check). Pure.
 */

/** Characters of pretty-printed JSON an answer may take (under Claude Code's 30,000, with room for a shell's own lines). */
export const ANSWER_MAX_CHARS = 24_000;
/** Each check keeps at least this much of its output, whatever the rest of the answer takes. */
const MIN_TAIL_CHARS = 1_500;
/** Room for the line that says what was left out, JSON-escaped. */
const NOTE_CHARS = 160;

interface WithOutputs {
  checks: Array<{ output_tail: string; command: string }>;
}

export function fitAnswer<T extends WithOutputs>(answer: T, maxChars = ANSWER_MAX_CHARS): T {
  const size = JSON.stringify(answer, null, 2).length;
  if (size <= maxChars) return answer;
  const escaped = answer.checks.map((c) => JSON.stringify(c.output_tail).length);
  const outputs = escaped.reduce((a, b) => a + b, 0);
  const raw = answer.checks.reduce((a, c) => a + c.output_tail.length, 0);
  if (outputs === 0 || raw === 0) return answer;
  // What the rest of the answer leaves for outputs (and each one's note of what was left out),
  // shared evenly, in raw characters.
  const room = Math.max(maxChars - (size - outputs) - answer.checks.length * NOTE_CHARS, 0) * (raw / outputs);
  const each = Math.max(Math.floor(room / answer.checks.length), MIN_TAIL_CHARS);
  return { ...answer, checks: answer.checks.map((c) => (c.output_tail.length > each ? { ...c, output_tail: shorten(c.output_tail, each) } : c)) };
}

function shorten(text: string, max: number): string {
  const head = Math.floor(max / 4);
  const tail = max - head;
  const left = text.length - head - tail;
  return `${text.slice(0, head)}\n… (${left} characters left out so the answer fits an agent's tool result; run the check to see its whole output)\n${text.slice(text.length - tail)}`;
}
