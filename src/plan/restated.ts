/**
 * A task's `<done>` or `<acceptance_criteria>` often restates its own `<verify>` check in
 * shorthand: `<automated>npx tsc --noEmit && echo OK</automated>` and then "`tsc --noEmit`
 * passes", or `cd web && npm test` and then "`npm test` passes". Run on its own, such
 * shorthand is the verify check cut down: without the word before it (`npx`) it may not
 * start at all, and without the `cd` into a subdirectory it runs somewhere else. So a command
 * from those elements that is one simple command of a verify check of the same task, less its
 * first word or after a `cd` into a relative directory, is that check restated and runs only
 * as the verify check. The same command written in full, where the verify check runs it in
 * the same place (`npm test 2>&1 | tail -30`, then "`npm test` exits 0"), stays a check: the
 * author wrote it to run as it stands.
 *
 * A command with words of its own is not a restatement: "`npx vitest run` passes" after
 * `npx vitest run src/a.test.ts` is the whole suite, a check of its own.
 */
import type { Check } from './model.js';
import type { Criterion } from './parsed.js';
import { shellTokens, simpleCommands } from './shell-words.js';

/** Elements whose commands are the task's own checks; the others may restate them. */
const VERIFY_ELEMENTS = new Set(['verify', 'automated']);

interface Stage {
  words: string[];
  /** A `cd` into a relative directory came before it in its script. */
  inSubdir: boolean;
}

/** The simple commands of a script (program first, redirections dropped). */
function stagesOf(script: string): Stage[] {
  const out: Stage[] = [];
  let inSubdir = false;
  for (const line of script.split('\n')) {
    const tokens = shellTokens(line);
    if (!tokens) continue;
    for (const c of simpleCommands(tokens)) {
      out.push({ words: [c.program, ...c.args], inSubdir });
      if ((c.program === 'cd' || c.program === 'pushd') && c.args[0] !== undefined && !/^(?:\/|~|\$|[A-Za-z]:[\\/]|-$)/.test(c.args[0])) inSubdir = true;
    }
  }
  return out;
}

/** `words` are `stage` less its first word, or `stage` itself run in a subdirectory. */
function restates(words: string[], stage: Stage): boolean {
  const extra = stage.words.length - words.length;
  if (extra === 0 && !stage.inSubdir) return false;
  if (extra !== 0 && extra !== 1) return false;
  return words.every((w, i) => w === stage.words[i + extra]);
}

/** The criteria with every restated verify check dropped from the elements that restate. */
export function withoutRestatedChecks(criteria: Criterion[]): Criterion[] {
  const stages = criteria
    .filter((c) => VERIFY_ELEMENTS.has(c.source.element))
    .flatMap((c) => c.checks)
    .flatMap((k) => (k.kind === 'command_succeeds' ? stagesOf(k.command) : []));
  if (stages.length === 0) return criteria;
  const isRestated = (k: Check): boolean => {
    if (k.kind !== 'command_succeeds') return false;
    const own = stagesOf(k.command);
    return own.length === 1 && stages.some((stage) => restates(own[0]!.words, stage));
  };
  return criteria.map((c) => {
    if (VERIFY_ELEMENTS.has(c.source.element) || !c.checks.some(isRestated)) return c;
    return { ...c, checks: c.checks.filter((k) => !isRestated(k)) };
  });
}
