/**
 * `ralf fingerprint [FILE]`: prints the normalised error fingerprint of verification
 * output read from FILE (or stdin) as one line; `--json` adds the source line and tool.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText } from '../cli/output.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { fingerprint } from '../fingerprint/fingerprint.js';

export const USAGE = 'ralf fingerprint [FILE] [--exit-code N] [--json]';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function readInput(file: string, cwd: string): Promise<string> {
  const path = resolve(cwd, file);
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'EISDIR' ? 'is a directory' : code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new RalfError('input_unreadable', `cannot read ${file}: ${reason}`, {
      problems: [{ file, message: `cannot read verification output: ${reason}`, hint: 'pass a file with the command output, or pipe it on stdin' }],
      exitCode: ExitCode.badInput,
    });
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { 'exit-code': { type: 'string' } }, USAGE);
  if (positionals.length > 1) throw usageError(`expected at most one FILE, got ${positionals.length}`, `usage: ${USAGE}`);
  let exitCode: number | null = null;
  if (values['exit-code'] !== undefined) {
    exitCode = Number(values['exit-code']);
    if (!Number.isInteger(exitCode)) throw usageError(`--exit-code must be an integer, got "${values['exit-code']}"`, `usage: ${USAGE}`);
  }
  const file = positionals[0];
  const output = file === undefined || file === '-' ? await readStdin() : await readInput(file, values.cwd ?? process.cwd());
  const result = fingerprint(output, { exitCode });
  if (values.json) printJson(result);
  else printText(result.fingerprint);
  return ExitCode.ok;
}
