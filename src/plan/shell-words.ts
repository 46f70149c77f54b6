/**
 * Shell words of one command line, through `shell-quote` (a maintained POSIX-ish lexer:
 * quotes, escapes, operators, comments). It is used only to *read* plan text: which word a
 * command starts with, and what a pipeline ends with. What runs is always the author's text
 * itself, never a re-quoted token list. Variables are kept as written (`$HOME` stays `$HOME`).
 */
import { parse } from 'shell-quote';

export type ShellToken = string | { op: string } | { comment: string } | { op: 'glob'; pattern: string };

/** Tokens of one line; a lexer error (unbalanced quote) gives null. */
export function shellTokens(line: string): ShellToken[] | null {
  try {
    return parse(line, (name) => `$${name}`) as ShellToken[];
  } catch {
    return null;
  }
}

function word(t: ShellToken | undefined): string | null {
  if (t === undefined) return null;
  if (typeof t === 'string') return t;
  if ('pattern' in t) return t.pattern;
  return null;
}

function op(t: ShellToken | undefined): string | null {
  return t !== undefined && typeof t === 'object' && 'op' in t && !('pattern' in t) ? t.op : null;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Words that precede the real program without changing which program runs. */
const PREFIXES = new Set(['!', 'time', 'command', 'exec', 'nohup', 'builtin']);
/** Operators that end one simple command and start the next. */
const COMMAND_SEPARATORS = new Set([';', '&&', '||', '|', '|&', '&', '(', ')', ';;']);

/** One simple command of a line: its program word and arguments (redirections dropped). */
export interface SimpleCommand {
  program: string;
  args: string[];
  /** The operator that ended this command (`|`, `&&`, `;`), or null at the end. */
  next: string | null;
}

/** The simple commands of a script of one or more lines (a `\` continuation joins its lines), in order. */
export function scriptCommands(script: string): SimpleCommand[] {
  return script.replace(/\\\n\s*/g, ' ').split('\n').flatMap((line) => simpleCommands(shellTokens(line) ?? []));
}

/** The simple commands of a tokenized line, in order. */
export function simpleCommands(tokens: ShellToken[]): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let current: string[] = [];
  const flush = (next: string | null) => {
    let i = 0;
    while (i < current.length && (ASSIGNMENT.test(current[i]!) || PREFIXES.has(current[i]!))) i++;
    if (i < current.length) out.push({ program: current[i]!, args: current.slice(i + 1), next });
    current = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const o = op(t);
    if (o !== null) {
      if (COMMAND_SEPARATORS.has(o)) flush(o);
      else if (/[<>]/.test(o)) i++; // a redirection and its target are not arguments
      continue;
    }
    const w = word(t);
    if (w === null) break; // a comment ends the line
    // `2>&1` lexes as `2`, `>&`, `1`: a digit right before a redirection is its fd.
    if (/^\d$/.test(w) && op(tokens[i + 1])?.match(/[<>]/)) continue;
    current.push(w);
  }
  flush(null);
  return out;
}

/** The first program a line runs (after `FOO=1`, `!`, `time`, a leading `(`), or null. */
export function firstProgram(line: string): { program: string; args: string[] } | null {
  const tokens = shellTokens(line);
  return tokens ? firstCommand(tokens) : null;
}

/** The first program of an already tokenized line (see firstProgram). */
export function firstCommand(tokens: ShellToken[]): { program: string; args: string[] } | null {
  const first = simpleCommands(tokens)[0];
  return first ? { program: first.program, args: first.args } : null;
}

/** Does the line use shell syntax beyond words (operators, substitutions, redirections)? */
export function hasShellSyntax(line: string): boolean {
  return /\|\||&&|[|;]|\$\(|\$\{?[A-Za-z_]|[<>]|`/.test(line);
}
