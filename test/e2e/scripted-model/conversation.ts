/**
 * A host-neutral view of one model request: the events of the conversation so far,
 * in order. Both wire formats (Anthropic Messages, OpenAI chat completions) are
 * reduced to this so the scripted agent decides from the request alone.
 */
export type ConversationEvent =
  /** A user message's text (the expanded slash command, or a reply like "approved"). */
  | { type: 'user'; text: string; /** Only host-added `<system-reminder>` blocks (attached files, dates), nothing the human said. */ reminderOnly?: boolean }
  /** A shell tool call the assistant made. */
  | { type: 'call'; id: string; command: string }
  /** The result the host sent back for a tool call. */
  | { type: 'result'; id: string; text: string; isError: boolean }
  /** Plain assistant text. */
  | { type: 'say'; text: string };

export interface Conversation {
  /** Which wire format the request used. */
  dialect: 'anthropic' | 'openai';
  /** The shell tool's name when the request offers one (`Bash`, `bash`), else null. */
  shellTool: string | null;
  /** System prompt text (joined), for classifying side requests such as OpenCode's title request. */
  system: string;
  events: ConversationEvent[];
}

/** Text of a content value that is either a string or an array of `{type:'text', text}` parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      const p = part as { type?: string; text?: unknown; content?: unknown };
      if (typeof p.text === 'string') return p.text;
      if (p.type === 'tool_result') return textOf(p.content);
      return '';
    })
    .filter((s) => s !== '')
    .join('\n');
}

/** The shell command inside a tool call's input (both hosts name the field `command`). */
export function commandOf(input: unknown): string {
  if (typeof input === 'string') {
    try {
      return commandOf(JSON.parse(input));
    } catch {
      return input;
    }
  }
  const cmd = (input as { command?: unknown } | null)?.command;
  return typeof cmd === 'string' ? cmd : '';
}
