import { RalfError, location } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

/**
 * The one place errors become output. Readable form on stderr; with --json, also a
 * `{ "error": {...} }` document on stdout so agents can parse it. Returns the exit code.
 */
export function renderError(err: unknown, json: boolean): number {
  if (err instanceof RalfError) {
    if (json) {
      process.stdout.write(`${JSON.stringify({ error: { kind: err.kind, message: err.message, problems: err.problems } }, null, 2)}\n`);
    }
    const lines = [`ralf: ${err.message}`];
    for (const p of err.problems) {
      const where = location(p);
      const key = p.key ? `${p.key}: ` : '';
      const detail = p.expected || p.received ? ` (expected ${p.expected ?? '?'}, received ${p.received ?? '?'})` : '';
      const head = `${where ? `${where}: ` : ''}${key}${p.message}${detail}`;
      if (head !== err.message) lines.push(`  ${head}`);
      if (p.hint) lines.push(`    hint: ${p.hint}`);
    }
    process.stderr.write(`${lines.join('\n')}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  if (json) process.stdout.write(`${JSON.stringify({ error: { kind: 'internal', message: String(e?.message ?? e) } }, null, 2)}\n`);
  process.stderr.write(`ralf: internal error: ${e?.stack ?? String(e)}\nThis is a bug in ralf; please report it with the command you ran.\n`);
  return ExitCode.internal;
}
