/**
 * `ralf demo`: the built-in example. A scripted agent works through a real GSD plan in a
 * temp git repo via `ralf run` (no model, no network): a task passing on iteration 2, a
 * refused checkpoint, a stuck task stopped by the repeated-fingerprint rule, and the Loop
 * Report in SUMMARY.md. See src/demo/run-demo.ts and docs/RUN.md.
 */
import { parseCommandArgs } from '../cli/args.js';
import { printJson, stdoutStream } from '../cli/output.js';
import { usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

export const USAGE = 'ralf demo [--keep] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { keep: { type: 'boolean' } }, USAGE);
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}"`, `usage: ${USAGE}`);
  const { runDemo } = await import('../demo/run-demo.js');
  const result = await runDemo({ keep: values.keep === true, json: values.json === true, out: stdoutStream() });
  if (values.json) printJson(result);
  return result.ok ? ExitCode.ok : ExitCode.internal;
}
