/**
 * `--agent "<command>"` for any agent CLI. The command string is split into argv here,
 * with POSIX-shell-like quoting ('single', "double", backslash), and run without a shell:
 * the prompt is substituted into the argv element(s) holding `{prompt}` as plain text, so
 * quotes, `$` or backticks in a prompt can never be interpreted. Without `{prompt}` the
 * prompt goes to the agent's stdin. Need a pipeline? Write `sh -c '... "$0"' {prompt}`.
 */
export const PROMPT_PLACEHOLDER = '{prompt}';

export class CommandLineError extends Error {}

export function splitCommandLine(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) cur += command[++i]!;
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < command.length) cur += command[++i]!;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new CommandLineError(`unterminated ${quote === '"' ? 'double' : 'single'} quote in the agent command`);
  if (inWord) out.push(cur);
  return out;
}

/** Quotes one argv element for display (and for round-tripping through splitCommandLine). */
export function quoteArg(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function formatCommandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ');
}

/** Substitutes the prompt into argv; `stdin` is the prompt when no element holds `{prompt}`. */
export function substitutePrompt(argv: readonly string[], prompt: string): { argv: string[]; stdin: string | null } {
  const uses = argv.some((a) => a.includes(PROMPT_PLACEHOLDER));
  if (!uses) return { argv: [...argv], stdin: prompt };
  return { argv: argv.map((a) => a.split(PROMPT_PLACEHOLDER).join(prompt)), stdin: null };
}
