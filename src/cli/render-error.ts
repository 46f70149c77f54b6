import { RalfError, location } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeStderr, writeStdout } from './output.js';

/** What an error is, once: the JSON document's `error` object and the readable text. */
interface RenderedError {
  error: Record<string, unknown>;
  text: string;
  exitCode: number;
}

/**
 * The one place errors become output. The readable form goes to stderr; with --json the
 * error is ONE document on stdout, `{ "error": {...}, "exit_code": N }`, and stderr stays
 * quiet, so an agent reading the merged output parses one JSON document. Returns the exit code.
 */
export function renderError(err: unknown, json: boolean): number {
  const r = describeError(err);
  // One line: a whole-document reader parses it, and so does a reader of `ralf run --json`'s event lines.
  if (json) writeStdout(`${JSON.stringify({ error: r.error, exit_code: r.exitCode })}\n`);
  else writeStderr(r.text);
  return r.exitCode;
}

function describeError(err: unknown): RenderedError {
  if (err instanceof RalfError) {
    const lines = [`ralf: ${err.message}`];
    for (const p of err.problems) {
      const where = location(p);
      const key = p.key ? `${p.key}: ` : '';
      const detail = p.expected || p.received ? ` (expected ${p.expected ?? '?'}, received ${p.received ?? '?'})` : '';
      const head = `${where ? `${where}: ` : ''}${key}${p.message}${detail}`;
      if (head !== err.message) lines.push(`  ${head}`);
      if (p.hint) lines.push(`    hint: ${p.hint}`);
    }
    return { error: { kind: err.kind, message: err.message, problems: err.problems }, text: `${escapeControls(lines.join('\n'))}\n`, exitCode: err.exitCode };
  }
  const git = gitFailure(err);
  if (git) return { error: { kind: 'environment', message: git.message, hint: git.hint }, text: `${escapeControls(`ralf: ${git.message}\n    hint: ${git.hint}`)}\n`, exitCode: ExitCode.internal };
  const io = ioFailure(err);
  if (io) return { error: { kind: 'io', message: io.message, code: io.code, path: io.path, hint: io.hint }, text: `${escapeControls(`ralf: ${io.message}\n    hint: ${io.hint}`)}\n`, exitCode: ExitCode.internal };
  const e = err as Error;
  const hint = 'This is a bug in ralf; please report it with the command you ran.';
  return {
    error: { kind: 'internal', message: String(e?.message ?? e), hint, ...(e?.stack ? { stack: e.stack } : {}) },
    text: `ralf: internal error: ${e?.stack ?? String(e)}\n${hint}\n`,
    exitCode: ExitCode.internal,
  };
}

/**
 * Failures of the file system ralf writes to (full disk, read-only or immutable files, a
 * file where a directory belongs) are not bugs in ralf: say which path and why, without a
 * stack trace. Exit code 1 all the same (nothing the caller can fix by changing its input).
 */
const IO_CODES: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (an immutable or protected file?)',
  ENOTDIR: 'a path component is a file, not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  EEXIST: 'a file is in the way',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EIO: 'input/output error',
  EBUSY: 'resource busy',
  EFBIG: 'file too large',
};

function ioFailure(err: unknown): { code: string; path: string | null; message: string; hint: string } | null {
  const e = err as NodeJS.ErrnoException & { dest?: string };
  if (!e || typeof e !== 'object' || typeof e.code !== 'string' || typeof e.syscall !== 'string' || !(e.code in IO_CODES)) return null;
  const path = typeof e.path === 'string' ? e.path : null;
  const dest = typeof e.dest === 'string' ? e.dest : null;
  const where = path ? ` ${path}${dest ? ` -> ${dest}` : ''}` : '';
  return {
    code: e.code,
    // A failed rename is about its target (the source is ralf's temp file).
    path: dest ?? path,
    message: `cannot ${e.syscall}${where}: ${IO_CODES[e.code]} (${e.code})`,
    hint: 'a problem with the file system, not with ralf: free space or fix the path and its permissions, then run the command again',
  };
}

/**
 * Terminal control characters (ESC sequences that recolour, retitle or rewrite the screen)
 * from user input (config keys, file names, plan text) are shown escaped, never sent raw.
 * Newlines and tabs stay.
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * git missing from PATH, or a git command that failed (a repository git refuses: dubious
 * ownership, corruption, a lock): an environment problem with git's own words, not a bug.
 * Matched by name: each dist/ bundle has its own copy of the GitError class.
 */
function gitFailure(err: unknown): { message: string; hint: string } | null {
  const e = err as Error & { args?: unknown; exitCode?: unknown; stderr?: unknown };
  if (!e || typeof e !== 'object' || e.name !== 'GitError') return null;
  if (e.exitCode === null && /ENOENT|not found/i.test(String(e.stderr ?? e.message))) {
    return { message: 'git is not installed (or not on PATH); ralf needs it inside a git repository', hint: 'install git (e.g. apt-get install git) or put it on PATH, then run the command again' };
  }
  return { message: e.message, hint: 'git itself failed on this repository (see its message above); fix that (e.g. `git status` shows it), then run the command again' };
}
