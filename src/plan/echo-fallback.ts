/**
 * `grep -q x f && echo "PASS" || echo "FAIL"`: a script whose last list ends in `|| echo TEXT`
 * exits 0 whatever happens and says how it went in the text it prints. Its author reads that
 * text; a loop reading the exit status alone would pass every tree. Such a check is run as
 * written and judged as meant: it fails when a line of its output is exactly that fallback's
 * text, the way a GSD Core `<fails_when>` statement is applied. Only the two-branch form counts
 * (`&& echo OK || echo TEXT`), with a text that says something failed (`FAIL`, `INSTALL_FAILED`,
 * `ERROR: config missing`), not that a failure is absent (`NO_TYPE_ERRORS`) or tolerated (`lint
 * failed (non-blocking)`, `skipped`, `warning`). Pure: the plan's text.
 */
import { shellTokens, simpleCommands } from './shell-words.js';

const FAILURE_WORD = /fail|error|missing|not[ _-]?(?:ok|found|present|installed)|broken|invalid|✗|❌/i;
/** `NO_TYPE_ERRORS`, `0 failures`, `none missing`: a failure word said to be absent is a good outcome. */
const NEGATED = /(?:^|[^a-z])(?:no|not|none|zero|0|without)[ _-]/i;
const TOLERATED = /non-?blocking|ignor|continu|skip|warn|optional|expected|ok\b|fine/i;

/** The last logical line of a script (continuations and lines that start with an operator joined). */
function lastLogicalLine(script: string): string | undefined {
  const out: string[] = [];
  for (const raw of script.replace(/\\\n/g, ' ').split('\n')) {
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined && (/(?:&&|\|\||\|)$/.test(prev) || /^(?:&&|\|\||\|)/.test(t))) out[out.length - 1] = `${prev} ${t}`;
    else out.push(t);
  }
  return out[out.length - 1];
}

/** The `<fails_when>` statement that reads such a check as meant, or null when it has no such ending. */
export function echoFallbackSignal(script: string): string | null {
  const last = lastLogicalLine(script);
  if (last === undefined || !/\|\|\s*echo\s/.test(last)) return null;
  const tokens = shellTokens(last);
  if (!tokens) return null;
  const commands = simpleCommands(tokens);
  const final = commands[commands.length - 1];
  const before = commands[commands.length - 2];
  // The echo is the very end: `a || echo FAIL; exit 1` and `a || (echo FAIL; false)` fail on their own.
  if (!final || !before || before.next !== '||' || final.program !== 'echo' || final.next !== null) return null;
  // Both branches print: `... && echo PASS || echo FAIL`. After a bare `grep x f || echo NO_X_FOUND`
  // the fallback may as well be the good outcome (nothing found), so it is left to the exit status.
  const success = commands[commands.length - 3];
  if (before.program !== 'echo' || success === undefined || success.next !== '&&') return null;
  const text = final.args.filter((a) => !/^-[neE]+$/.test(a)).join(' ').trim();
  if (!text || text.length > 200 || /[$`'"\\]/.test(text)) return null;
  if (!FAILURE_WORD.test(text) || TOLERATED.test(text) || NEGATED.test(text)) return null;
  return `/^\\s*${text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*$/`;
}
