/**
 * A task's `<done>` or `<acceptance_criteria>` often restates its own `<verify>` check in
 * shorthand: `<automated>npx tsc --noEmit && echo OK</automated>` and then "`tsc --noEmit`
 * passes", or `cd web && npm test` and then "`npm test` passes". Run on its own, such
 * shorthand is the verify check cut down: without the word before it (`npx`) it may not
 * start at all, without the `cd` into a subdirectory it runs somewhere else, and without the
 * `export`/`source` before it (`export PATH=$PATH:$HOME/go/bin && go build ./...`) it runs in
 * another environment. So a command from those elements that is one simple command of a verify
 * check of the same task, less its first word or after such a `cd`, `export` or `source`, is
 * that check restated and runs only as the verify check.
 *
 * A step the task's `<action>` takes to set something up (`Run \`uv lock && uv sync\` to install
 * the dependencies`) and its `<done>` then reports done ("`uv sync` succeeds") is the same kind of
 * restatement: the step, reported, not a check of the work; it is not run again. The same command written in full, where the verify check runs it in
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
  /** A `cd` into a relative directory, an `export` or a `source` came before it in its script. */
  inContext: boolean;
}

/** Commands that change what the commands after them see: the directory (relative `cd`) or the environment. */
function setsContext(program: string, args: string[]): boolean {
  if (program === 'cd' || program === 'pushd') return args[0] !== undefined && !/^(?:\/|~|\$|[A-Za-z]:[\\/]|-$)/.test(args[0]);
  return program === 'export' || program === 'source' || program === '.';
}

/** The simple commands of a script (program first, redirections dropped). */
function stagesOf(script: string): Stage[] {
  const out: Stage[] = [];
  let inContext = false;
  for (const line of script.split('\n')) {
    const tokens = shellTokens(line);
    if (!tokens) continue;
    for (const c of simpleCommands(tokens)) {
      out.push({ words: [c.program, ...c.args], inContext });
      if (setsContext(c.program, c.args)) inContext = true;
    }
  }
  return out;
}

/** `words` are `stage` less its first word, or `stage` itself run after a `cd`, `export` or `source`. */
function restates(words: string[], stage: Stage): boolean {
  const extra = stage.words.length - words.length;
  if (extra === 0 && !stage.inContext) return false;
  if (extra !== 0 && extra !== 1) return false;
  return words.every((w, i) => w === stage.words[i + extra]);
}

/** Elements that report what was done: a setup step of the `<action>` restated there is not a check. */
const REPORT_ELEMENTS = new Set(['done', 'acceptance_criteria']);

/**
 * The criteria with every restated verify check dropped from the elements that restate, and
 * every `setupSteps` command (the `<action>`'s set-up steps) dropped from `<done>` and
 * `<acceptance_criteria>`.
 */
export function withoutRestatedChecks(criteria: Criterion[], setupSteps: string[] = []): Criterion[] {
  const stages = criteria
    .filter((c) => VERIFY_ELEMENTS.has(c.source.element))
    .flatMap((c) => c.checks)
    .flatMap((k) => (k.kind === 'command_succeeds' ? stagesOf(k.command) : []));
  const steps = setupSteps.flatMap(stagesOf);
  if (stages.length === 0 && steps.length === 0) return criteria;
  const isRestated = (k: Check, element: string): boolean => {
    if (k.kind !== 'command_succeeds') return false;
    const own = stagesOf(k.command);
    if (own.length !== 1) return false;
    const words = own[0]!.words;
    if (REPORT_ELEMENTS.has(element) && steps.some((step) => step.words.length === words.length && words.every((w, i) => w === step.words[i]))) return true;
    return stages.some((stage) => restates(words, stage));
  };
  return criteria.map((c) => {
    if (VERIFY_ELEMENTS.has(c.source.element) || !c.checks.some((k) => isRestated(k, c.source.element))) return c;
    return { ...c, checks: c.checks.filter((k) => !isRestated(k, c.source.element)) };
  });
}
