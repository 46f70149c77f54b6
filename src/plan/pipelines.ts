/**
 * Pipelines whose last stage decides the exit status in a way the author may not have meant,
 * found at plan time (pure) and shown by `ralf plan` and the verify output. Checks run with
 * pipefail (see src/verify/shell.ts), which already makes `cmd | tee log` and `cmd | head`
 * fail when `cmd` fails; `cmd | grep -v noise` is read as its author meant it (the check fails
 * when anything is left after the filter), see `filteredOutputCheck`.
 */
import { shellTokens, simpleCommands, type SimpleCommand } from './shell-words.js';

/** Logical lines of a script outside heredoc bodies, continuations joined. */
function scriptLines(script: string): string[] {
  const out: string[] = [];
  let open: string[] = [];
  let pending = '';
  for (const raw of script.split('\n')) {
    const t = raw.trim();
    if (open.length > 0) {
      if (t === open[0]) open = open.slice(1);
      continue;
    }
    for (const m of t.matchAll(/<<-?\s*(['"]?)([A-Za-z_]\w*)\1/g)) open.push(m[2]!);
    const line = pending + t;
    if (/\\$/.test(t)) {
      pending = `${line.slice(0, -1)} `;
      continue;
    }
    if (/(?:\||&&|\|\|)$/.test(t)) {
      pending = `${line} `;
      continue;
    }
    pending = '';
    if (line) out.push(line.replace(/<<-?\s*(['"]?)([A-Za-z_]\w*)\1/g, ''));
  }
  if (pending.trim()) out.push(pending.trim());
  return out;
}

function isGrepInvert(c: SimpleCommand): boolean {
  if (c.program !== 'grep' && c.program !== 'egrep' && c.program !== 'rg') return false;
  const flags = c.args.filter((a) => /^-[A-Za-z]+$/.test(a)).join('');
  return (/v/.test(flags) || c.args.includes('--invert-match')) && !/[qcl]/.test(flags) && !c.args.includes('--quiet') && !c.args.includes('--count');
}

/** The pipelines of one line: each a list of stages. */
function pipelines(line: string): SimpleCommand[][] {
  const tokens = shellTokens(line);
  if (!tokens) return [];
  const out: SimpleCommand[][] = [];
  let current: SimpleCommand[] = [];
  for (const c of simpleCommands(tokens)) {
    current.push(c);
    if (c.next !== '|' && c.next !== '|&') {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Plan-time warnings for one check script (empty when nothing masks its status). */
export function pipelineWarnings(script: string): string[] {
  const out: string[] = [];
  for (const line of scriptLines(script)) {
    const shown = line.length > 80 ? `${line.slice(0, 79)}…` : line;
    // Only a line with a `|` can hold a pipeline of two stages: the others need no lexing.
    for (const stages of line.includes('|') ? pipelines(line) : []) {
      if (stages.length < 2) continue;
      const last = stages[stages.length - 1]!;
      if (isGrepInvert(last)) {
        out.push(`\`${shown}\`: grep -v exits 0 when lines are LEFT and 1 when the output is clean, the opposite of a check; read as meant: the check fails when anything is left after the filter`);
      } else if (last.program === 'tee') {
        out.push(`\`${shown}\`: | tee returns tee's status, hiding a failure before it in a plain shell; checks run with pipefail, so that failure still fails the check`);
      } else if (last.program === 'head' || last.program === 'tail') {
        out.push(`\`${shown}\`: | ${last.program} returns ${last.program}'s status; checks run with pipefail, so a failure before it still fails the check${last.program === 'head' ? ' (and a command cut short by head, SIGPIPE, fails too)' : ''}`);
      }
    }
    if (/\|\|\s*(?:true|:|exit\s+0)\s*$/.test(line) || /;\s*(?:true|exit\s+0)\s*$/.test(line)) {
      out.push(`\`${shown}\`: ends in "|| true" (or "; true"), so it passes whatever happens and verifies nothing`);
    }
  }
  return out;
}

/**
 * Lines that are one pipeline ending in `grep -v` (`npx tsc --noEmit 2>&1 | grep -v
 * "bindings.ts"`) mean "nothing but the filtered noise". As written, grep -v exits 1 exactly when
 * the output is clean, so such a line is run as the author meant it: its output is captured, shown,
 * and the line fails when anything is left after the filter, whatever the statuses in the pipe.
 * Everything else in the script is untouched. Returns null when no line needs it.
 */
export function readGrepFiltersAsMeant(script: string): string | null {
  const lines = script.split('\n');
  let open: string[] = [];
  let continued = false;
  let changed = false;
  for (const [i, raw] of lines.entries()) {
    const t = raw.trim();
    if (open.length > 0) {
      if (t === open[0]) open = open.slice(1);
      continue;
    }
    const wasContinued = continued;
    continued = /(?:\\|\||&&|\|\|)$/.test(t);
    for (const m of t.matchAll(/<<-?\s*(['"]?)([A-Za-z_]\w*)\1/g)) open.push(m[2]!);
    if (wasContinued || continued || open.length > 0 || !t || t.startsWith('#')) continue;
    const all = pipelines(t);
    if (all.length !== 1 || all[0]!.length < 2 || !isGrepInvert(all[0]![all[0]!.length - 1]!) || /&\s*$/.test(t)) continue;
    const indent = raw.slice(0, raw.length - raw.trimStart().length);
    lines[i] = `${indent}__ralf_left=$(set +e; (set +o pipefail) 2>/dev/null && set +o pipefail; ${t}
  true); if [ -n "$__ralf_left" ]; then printf '%s\\n' "$__ralf_left"; echo "[ralf] output left after the grep -v filter; the check expects none" >&2; false; fi`;
    changed = true;
  }
  return changed ? lines.join('\n') : null;
}
