/** `--agent claude|opencode|"<command>"` → an adapter. */
import { splitCommandLine, CommandLineError } from '../command-line.js';
import { usageError } from '../../errors.js';
import { claudeAgent } from './claude.js';
import { commandAgent } from './command.js';
import { opencodeAgent } from './opencode.js';
import type { ModelChoice } from './model-flags.js';
import type { AgentAdapter } from './types.js';

export function selectAgent(spec: string, extraArgs: readonly string[] = [], choice: ModelChoice = { model: null, reasoning: null }): AgentAdapter {
  const trimmed = spec.trim();
  if (trimmed === 'claude') return claudeAgent(extraArgs, 'claude', choice);
  if (trimmed === 'opencode') return opencodeAgent(extraArgs, 'opencode', choice);
  let argv: string[];
  try {
    argv = splitCommandLine(trimmed);
  } catch (err) {
    if (err instanceof CommandLineError) throw usageError(`--agent: ${err.message}`, 'quote the command like a shell would, e.g. --agent "my-agent --flag \'{prompt}\'"');
    throw err;
  }
  if (argv.length === 0) throw usageError('--agent is empty', 'use --agent claude, --agent opencode, or --agent "<command with {prompt}>"');
  return commandAgent([...argv, ...extraArgs], trimmed, choice);
}
