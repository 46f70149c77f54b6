import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { readTextIfExists } from './read-if-exists.js';
import { MiB } from './read-regular-file.js';

/**
 * A file the user wrote (a seed file: PRD checklist, ralph.json, requirements, task files,
 * history, progress notes) as UTF-8 text, read through one descriptor: opened non-blocking,
 * fstat'ed, refused unless a regular file within the limit (see readRegularFile). Never a
 * stat-then-read: a path swapped to a FIFO between the two would hang the run.
 */
export function readUserText(path: string, limits: { what: string; maxBytes?: number; kind?: string }): string {
  const text = readUserTextIfExists(path, limits);
  if (text === null) {
    throw new RalfError(limits.kind ?? 'file_not_found', `${path}: no such file; the ${limits.what} was not read`, {
      exitCode: ExitCode.badInput,
      problems: [{ file: path, message: 'no such file', hint: `Check the path of the ${limits.what}.` }],
    });
  }
  return text;
}

/** As readUserText, or null when the file does not exist. */
export function readUserTextIfExists(path: string, limits: { what: string; maxBytes?: number; kind?: string }): string | null {
  return readTextIfExists(path, { ...limits, maxBytes: limits.maxBytes ?? SEED_FILE_MAX_BYTES });
}

/** Seed files are hand-written Markdown or JSON: a few KB; 10 MiB leaves room for long histories. */
export const SEED_FILE_MAX_BYTES = 10 * MiB;
