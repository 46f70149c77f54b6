/**
 * Any agent command: `{prompt}` is substituted as one argv element (no shell), or the
 * prompt goes to stdin when the command has no `{prompt}`. Its whole stdout is the text
 * searched for the promise string. Token usage is counted when its stdout carries Claude
 * Code stream-json or OpenCode json events (e.g. a wrapper script around either CLI),
 * so budgets work for wrappers too.
 */
import { PROMPT_PLACEHOLDER, substitutePrompt } from '../command-line.js';
import { commandModelEnv, type ModelChoice } from './model-flags.js';
import { ClaudeStream, OpencodeStream, parseJsonLine } from './usage.js';
import type { AgentAdapter, AgentStreamParser } from './types.js';

export function commandAgent(argv: readonly string[], label: string, choice: ModelChoice = { model: null, reasoning: null }): AgentAdapter {
  if (argv.length === 0) throw new Error('empty agent command');
  const modelEnv = commandModelEnv(choice);
  return {
    kind: 'command',
    label,
    invocation(prompt, cwd) {
      const { argv: full, stdin } = substitutePrompt(argv, prompt);
      return { file: full[0]!, args: full.slice(1), stdin, env: { ...modelEnv, PWD: cwd } };
    },
    parser: () => commandParser(),
  };
}

export function commandParser(): AgentStreamParser {
  const claude = new ClaudeStream();
  const opencode = new OpencodeStream();
  const pick = () => (claude.sawEvent ? claude : opencode.sawEvent ? opencode : null);
  return {
    feed(line) {
      const ev = parseJsonLine(line);
      if (!ev) return;
      claude.feed(ev);
      opencode.feed(ev);
    },
    tokensSoFar: () => pick()?.usage()?.total ?? 0,
    finish(stdout) {
      const s = pick();
      return { text: stdout, usage: s?.usage() ?? null, hostError: s?.hostError ?? null };
    },
  };
}

export function usesPromptPlaceholder(argv: readonly string[]): boolean {
  return argv.some((a) => a.includes(PROMPT_PLACEHOLDER));
}
