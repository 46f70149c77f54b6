/**
 * One small interface per agent CLI (Claude Code, OpenCode, any command): how to start
 * it with a prompt, and how to read its output (text for the promise string, token usage,
 * errors the host reports in its own stream). No code outside src/run/agents/ branches on
 * which agent it is.
 */
export type AgentKind = 'claude' | 'opencode' | 'command';

export interface AgentInvocation {
  file: string;
  args: string[];
  /** Written to the agent's stdin, then closed; null: stdin is /dev/null. */
  stdin: string | null;
  /** Added to the inherited environment. */
  env: Record<string, string>;
}

/** Token counts of one agent run. `total` is what budgets count: input + output + cache writes (cache reads are reported, not counted). */
export interface TokenUsage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  total: number;
  cost_usd: number | null;
}

export interface AgentStreamResult {
  /** The agent's own words (assistant text), where the promise string is looked for. */
  text: string;
  usage: TokenUsage | null;
  /** An error the host reported in its stream, e.g. an API 429 inside Claude's `result`. */
  hostError: { status: number | null; message: string } | null;
}

/** Reads an agent's stdout line by line while it runs (for live token counts). */
export interface AgentStreamParser {
  feed(line: string): void;
  /** Tokens seen so far (live view). */
  tokensSoFar(): number;
  finish(fullStdout: string): AgentStreamResult;
}

export interface AgentAdapter {
  kind: AgentKind;
  /** For people: `claude`, `opencode`, or the command as given. */
  label: string;
  invocation(prompt: string, cwd: string): AgentInvocation;
  parser(): AgentStreamParser;
}

export function emptyUsage(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0, total: 0, cost_usd: null };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const cost = a.cost_usd === null && b.cost_usd === null ? null : (a.cost_usd ?? 0) + (b.cost_usd ?? 0);
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_write: a.cache_write + b.cache_write,
    total: a.total + b.total,
    cost_usd: cost,
  };
}
