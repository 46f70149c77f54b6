/**
 * TDD's RED step: a task whose tests are written to fail now ("RED: write the failing test",
 * done "the test exists and fails for the right reason"). Its `<verify>` command is the test run,
 * and the plan expects it to exit non-zero. ralf does not run such a check as one that must pass
 * (it would fail, and the loop would push the agent to make the new test pass one task early),
 * nor as one that must fail (any broken command fails: a missing tool or a typo would "pass").
 * The task keeps its other checks (the test file exists, contains the cases); the RED run is shown
 * as a manual criterion the agent confirms. The GREEN task that follows runs the same command as
 * a check that must pass.
 */
import type { Criterion } from './parsed.js';
import { expectedFailure } from './criteria.js';
import { shellTokens, simpleCommands } from './shell-words.js';

/** RED as the task's step: `Task 1: RED — pin the parser`, `RED: failing tests`, `(RED)`, `RED phase`. */
const RED_NAME = /^(?:task\s*[\w.-]*\s*[:.)—–-]\s*)?RED\b|\(RED\)|\bRED\s+(?:phase|step|state)\b/i;
/** The same task going on to GREEN (`RED first ... GREEN: implement`): its checks are the GREEN ones. */
const GREEN = /\bGREEN\b/;
/** A `<done>` saying tests fail now: "exists and fails", "19 failing tests written", "FAILS (RED)". */
const FAILS_NOW = /\b(?:fail|fails|failing|failed)\b/i;
/** "no failing tests", "without failures": not a failure; "may fail": not a promise of one. */
const NOT_FAILING = /\b(?:no|without|zero|0)\s+(?:\w+\s+){0,2}fail\w*|\b(?:may|might|can|could)\s+(?:still\s+)?fail\b/gi;
const PASSES = /\b(?:pass|passes|passing|passed|succeeds?|succeeded|green)\b/i;
const ABOUT_TESTS = /\btests?\b|\bspecs?\b|\.test\.|\.spec\.|_test\.|\btest_\w|(?:^|[^A-Za-z])RED(?:[^A-Za-z]|$)/i;

/**
 * A clause of the name that writes failing tests (`write failing DataHandler tests`, `Pin the
 * behavior with failing tests`): a writing verb starts it. Not `Fix failing tests`, nor a task that
 * lists failing specs among other things it configures.
 */
const WRITES_FAILING = /^(?:task\s*[\w.-]*\s*[:.)—–-]\s*)?(?:write|writes|add|adds|create|creates|pin|pins|author|scaffold)\b.*\bfailing\s+(?:\w+\s+){0,2}(?:tests?|specs?)\b/i;
function writesFailingTests(name: string): boolean {
  return name.split(/[,;]\s*|\s+and\s+/).some((clause) => WRITES_FAILING.test(clause.trim()));
}
const RED_WORD = /(?:^|[^A-Za-z])RED(?:[^A-Za-z]|$)/;

/**
 * Is the task a TDD RED step? Its name says RED or that it writes failing tests, or its `<done>`
 * says RED and that tests fail; and it does not go on to GREEN in the same task, nor say anything
 * passes. ("Every failing test recorded", said of a measuring task, is not RED.)
 */
export function isRedStep(name: string, elements: Record<string, string>): boolean {
  const done = elements.done ?? '';
  if (GREEN.test(name) || GREEN.test(elements.action ?? '') || PASSES.test(done)) return false;
  if (RED_NAME.test(name) || writesFailingTests(name)) return true;
  return RED_WORD.test(done) && FAILS_NOW.test(done.replace(NOT_FAILING, ' ')) && ABOUT_TESTS.test(done);
}

/** The first program and argument words of a command (to compare a check with a command the `<done>` names). */
function words(command: string): string[] {
  const tokens = shellTokens(command.split('\n')[0] ?? '');
  return tokens ? simpleCommands(tokens).flatMap((c) => [c.program, ...c.args]) : [];
}

/**
 * The criteria of a RED task: its `<verify>` checks become the expected failure they are. When the
 * `<done>` names the failing command (`` `pnpm vitest run x.test.ts` produces 3 failing tests ``),
 * only checks that run it are; others (`ls` of the new files) stay checks.
 */
export function withRedRunsShown(criteria: Criterion[], done: string | undefined): Criterion[] {
  const named = [...(done ?? '').matchAll(/`([^`\n]+)`/g)].map((m) => words(m[1]!)).filter((w) => w.length >= 2);
  const isRun = (command: string): boolean => {
    if (named.length === 0) return true;
    const own = words(command);
    return named.some((n) => own.join(' ').includes(n.join(' ')));
  };
  return criteria.map((c) => {
    if ((c.source.element !== 'automated' && c.source.element !== 'verify') || c.checks.length === 0) return c;
    const commands = c.checks.flatMap((k) => (k.kind === 'command_succeeds' ? [k.command] : []));
    if (commands.length === 0 || !commands.some(isRun)) return c;
    return expectedFailure(commands.join('\n'), c.source);
  });
}
