/**
 * Claude Code, headless: `claude -p <prompt> --output-format stream-json --verbose
 * --allowedTools ...`. stream-json gives token usage and API errors (429, 529, 401) as data.
 * Permissions: `--dangerously-skip-permissions` refuses to run as root, so the tools an
 * iteration needs are allowed by name instead; pass more with `--agent-arg`.
 */
import { jsonLinesParser } from './json-lines-parser.js';
import { claudeModelArgs, type ModelChoice } from './model-flags.js';
import { ClaudeStream } from './usage.js';
import type { AgentAdapter, AgentStreamParser } from './types.js';

export const CLAUDE_ALLOWED_TOOLS = 'Bash,Edit,MultiEdit,Write,Read,Glob,Grep,NotebookEdit,TodoWrite';

/** Prompts above this go through stdin: one argv element is capped (128 KiB on Linux). */
const MAX_ARGV_PROMPT = 100_000;

export function claudeAgent(extraArgs: readonly string[] = [], file = 'claude', choice: ModelChoice = { model: null, reasoning: null }): AgentAdapter {
  const model = claudeModelArgs(choice, extraArgs);
  return {
    kind: 'claude',
    label: 'claude',
    invocation(prompt) {
      const viaStdin = prompt.length > MAX_ARGV_PROMPT;
      const args = ['-p', ...(viaStdin ? [] : [prompt]), '--output-format', 'stream-json', '--verbose', '--allowedTools', CLAUDE_ALLOWED_TOOLS, ...model.args, ...extraArgs];
      return { file, args, stdin: viaStdin ? prompt : null, env: { ...model.env } };
    },
    parser: () => claudeParser(),
  };
}

export function claudeParser(): AgentStreamParser {
  return jsonLinesParser(new ClaudeStream());
}
