/**
 * `ralf fingerprint [FILE]`: prints the normalised error fingerprint of verification
 * output read from FILE (or stdin) as one line; `--json` adds the source line, the tool
 * and the failing units. The input is streamed through `OutputScanner`: a 1 GB log is
 * read whole in bounded memory.
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText } from '../cli/output.js';
import { RalfError, usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { fingerprintLines } from '../fingerprint/fingerprint.js';
import { OutputScanner } from '../fingerprint/scan.js';

export const USAGE = 'ralf fingerprint [FILE] [--exit-code N] [--json]';

async function scan(stream: Readable, scanner: OutputScanner): Promise<void> {
  for await (const chunk of stream) scanner.push(chunk as Buffer | string);
}

async function scanFile(file: string, cwd: string, scanner: OutputScanner): Promise<void> {
  const path = resolve(cwd, file);
  try {
    await scan(createReadStream(path), scanner);
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
  const scanner = new OutputScanner();
  if (file === undefined || file === '-') await scan(process.stdin, scanner);
  else await scanFile(file, values.cwd ?? process.cwd(), scanner);
  const result = fingerprintLines(scanner.lines(), { exitCode });
  if (values.json) printJson(result);
  else printText(result.fingerprint);
  return ExitCode.ok;
}
