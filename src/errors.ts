import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/** One problem found in user input: where it is, what was expected, what to do. */
export interface Problem {
  /** File the problem is in (absolute or as the user gave it). */
  file?: string;
  /** Dotted key path inside a config/frontmatter, e.g. `ralf_lite.max_iterations`. */
  key?: string;
  /** 1-based line (and column) in the file. */
  line?: number;
  column?: number;
  message: string;
  expected?: string;
  received?: string;
  hint?: string;
}

/**
 * An error the user can act on. Errors are data: they carry problems and an exit
 * code, and are rendered in one place (src/cli/render-error.ts).
 */
const BRAND = Symbol.for('ralf-lite.RalfError');

export class RalfError extends Error {
  /** Each dist/ bundle has its own copy of this class, so identity is a global-symbol brand. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
  readonly [BRAND] = true;
  readonly exitCode: ExitCodeValue;
  readonly problems: Problem[];
  /** Short machine-readable kind, e.g. `config_invalid`, `plan_invalid`, `busy`. */
  readonly kind: string;

  constructor(kind: string, message: string, options: { problems?: Problem[]; exitCode?: ExitCodeValue; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RalfError';
    this.kind = kind;
    this.problems = options.problems ?? [];
    this.exitCode = options.exitCode ?? ExitCode.badInput;
  }
}

export function usageError(message: string, hint?: string): RalfError {
  return new RalfError('usage', message, { problems: hint ? [{ message, hint }] : [] });
}

/** Formats `file:line:col` (whatever parts are known). */
export function location(p: Pick<Problem, 'file' | 'line' | 'column'>): string {
  if (!p.file) return p.line ? `line ${p.line}` : '';
  if (!p.line) return p.file;
  return p.column ? `${p.file}:${p.line}:${p.column}` : `${p.file}:${p.line}`;
}

/** Converts a character offset in `text` to a 1-based line and column. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  // indexOf, not a step per character: `ralf report` asks for a line near the end of a long SUMMARY.
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}
