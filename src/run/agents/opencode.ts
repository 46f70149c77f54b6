/**
 * OpenCode, headless: `opencode run --format json`, the prompt on stdin.
 * Pitfalls (AGENT-HOSTS.md): a message passed as argv is re-joined with spaces and wrapped
 * in quotes when it contains spaces, and a leading `/` is sent literally; stdin carries the
 * prompt verbatim. OpenCode resolves its project from $PWD rather than the process cwd,
 * so PWD is set to the project root.
 */
import { jsonLinesParser } from './json-lines-parser.js';
import { opencodeModelArgs, type ModelChoice } from './model-flags.js';
import { OpencodeStream } from './usage.js';
import type { AgentAdapter, AgentStreamParser } from './types.js';

export function opencodeAgent(extraArgs: readonly string[] = [], file = 'opencode', choice: ModelChoice = { model: null, reasoning: null }): AgentAdapter {
  const model = opencodeModelArgs(choice, extraArgs);
  return {
    kind: 'opencode',
    label: 'opencode',
    invocation(prompt, cwd) {
      return { file, args: ['run', '--format', 'json', ...model, ...extraArgs], stdin: prompt, env: { PWD: cwd } };
    },
    parser: () => opencodeParser(),
  };
}

export function opencodeParser(): AgentStreamParser {
  return jsonLinesParser(new OpencodeStream());
}
