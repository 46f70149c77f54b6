/**
 * The model and reasoning level a loop system names (ralph1's `--model=sonnet --reasoning=low`,
 * copilot_ralf's `--loop-model`, RALPH_LOOP_MODEL) as each agent CLI's own flags (pure):
 *   claude    --model <alias or full name>; reasoning low/med/high → --effort low/medium/high,
 *             none → MAX_THINKING_TOKENS=0 (no extended thinking)
 *   opencode  --model <provider/model> (the aliases sonnet/haiku/opus → anthropic/claude-*);
 *             reasoning → --variant low/medium/high (provider-specific), none → no variant
 *   command   RALF_MODEL and RALF_REASONING in its environment (a wrapper script decides)
 * A flag the user already passes with --agent-arg wins: nothing is added twice.
 */
import type { Reasoning } from '../seed-flags.js';

export interface ModelChoice {
  model: string | null;
  reasoning: Reasoning | null;
}

/** OpenCode names models `provider/model`; ralph1's aliases are Claude's. */
export const OPENCODE_ALIASES: Record<string, string> = {
  sonnet: 'anthropic/claude-sonnet-4-5',
  opus: 'anthropic/claude-opus-4-1',
  haiku: 'anthropic/claude-haiku-4-5',
};

const EFFORT: Record<Exclude<Reasoning, 'none'>, string> = { low: 'low', med: 'medium', high: 'high' };

const has = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));

export function claudeModelArgs(choice: ModelChoice, extraArgs: readonly string[]): { args: string[]; env: Record<string, string> } {
  const args: string[] = [];
  const env: Record<string, string> = {};
  if (choice.model && !has(extraArgs, '--model')) args.push('--model', choice.model);
  if (choice.reasoning && choice.reasoning !== 'none' && !has(extraArgs, '--effort')) args.push('--effort', EFFORT[choice.reasoning]);
  if (choice.reasoning === 'none') env.MAX_THINKING_TOKENS = '0';
  return { args, env };
}

export function opencodeModelArgs(choice: ModelChoice, extraArgs: readonly string[]): string[] {
  const args: string[] = [];
  if (choice.model && !has(extraArgs, '--model') && !has(extraArgs, '-m')) args.push('--model', choice.model.includes('/') ? choice.model : (OPENCODE_ALIASES[choice.model] ?? choice.model));
  if (choice.reasoning && choice.reasoning !== 'none' && !has(extraArgs, '--variant')) args.push('--variant', EFFORT[choice.reasoning]);
  return args;
}

export function commandModelEnv(choice: ModelChoice): Record<string, string> {
  const env: Record<string, string> = {};
  if (choice.model) env.RALF_MODEL = choice.model;
  if (choice.reasoning) env.RALF_REASONING = choice.reasoning;
  return env;
}
