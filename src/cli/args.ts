import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every subcommand accepts. */
export const commonOptions = {
  json: { type: 'boolean' },
  cwd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/**
 * Parses a subcommand's argv strictly; unknown flags and missing values become usage
 * errors (exit 2) that name the flag.
 */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...commonOptions, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), `usage: ${usage}`);
  }
}

/** True when argv asks for JSON output (used before parsing, e.g. to render errors). */
export function wantsJson(argv: string[]): boolean {
  return argv.includes('--json');
}
