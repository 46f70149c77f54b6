/**
 * Reads one acceptance criterion written as Markdown text (a PRD sub-bullet, a requirement's
 * `acceptance` string) into executable checks. Only explicit forms count, so prose is never
 * guessed into a command:
 *   Verify: `cmd` | Run: cmd        → command_succeeds
 *   `cmd` | `cmd` succeeds/passes    → command_succeeds
 *   `path` exists | File `path` exists → file_exists
 *   `path` contains `text` / "text"  → contains_text
 *   tests pass                        → tests_pass (the project test command)
 * Anything else is prose: a manual criterion the agent must confirm.
 */
import type { Check, CheckSource } from '../plan/model.js';

export type CriterionReading =
  | { kind: 'checks'; checks: Check[] }
  /** The user asked for a check that cannot run here (e.g. tests with no test command). */
  | { kind: 'unrunnable'; why: string }
  | { kind: 'prose' };

const CODE = /`([^`]+)`/g;
const COMMAND_PREFIX = /^(?:verify|verified by|check|test|run|command)\s*:\s*(.+)$/i;
const FILE_EXISTS = /^(?:(?:the\s+)?file\s+)?`([^`]+)`\s+(?:exists|is present|is created)\.?$/i;
const CONTAINS =
  /^(?:(?:the\s+)?file\s+)?`([^`]+)`\s+(?:contains|includes)\s+(?:`([^`]+)`|"([^"]+)"|“([^”]+)”)\.?$/i;
const COMMAND_ONLY = /^`([^`]+)`\s*(?:(?:succeeds|passes|exits(?: with)? 0|returns 0|is green)\.?)?$/i;
const TESTS_PASS = /^(?:all\s+)?(?:the\s+)?(?:unit\s+)?tests?\s+(?:pass|passes|are green|succeed)\.?$/i;

/** Inline code spans in a text (backticks removed). */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(CODE)].map((m) => m[1]!.trim()).filter((s) => s !== '');
}

/** Commands after a `Verify:` label: its code spans, or the rest of the text when it has none. */
export function commandsAfterLabel(rest: string): string[] {
  const spans = codeSpans(rest);
  if (spans.length > 0) return spans;
  const bare = rest.trim().replace(/\.$/, '').trim();
  return bare ? [bare] : [];
}

export function readCriterionText(
  raw: string,
  source: CheckSource,
  testsCommand: string | undefined,
): CriterionReading {
  const text = raw.trim();
  const prefixed = COMMAND_PREFIX.exec(text);
  if (prefixed) {
    const commands = commandsAfterLabel(prefixed[1]!);
    if (commands.length > 0) return { kind: 'checks', checks: commands.map((command) => ({ kind: 'command_succeeds', command, source })) };
  }
  const exists = FILE_EXISTS.exec(text);
  if (exists) return { kind: 'checks', checks: [{ kind: 'file_exists', path: exists[1]!.trim(), source }] };
  const contains = CONTAINS.exec(text);
  if (contains) {
    const needle = contains[2] ?? contains[3] ?? contains[4] ?? '';
    return { kind: 'checks', checks: [{ kind: 'contains_text', path: contains[1]!.trim(), text: needle, source }] };
  }
  const command = COMMAND_ONLY.exec(text);
  if (command) return { kind: 'checks', checks: [{ kind: 'command_succeeds', command: command[1]!.trim(), source }] };
  if (TESTS_PASS.test(text)) {
    if (testsCommand) return { kind: 'checks', checks: [{ kind: 'tests_pass', command: testsCommand, source }] };
    return { kind: 'unrunnable', why: `"${text}" needs a test command (set ralf_lite.checks.tests)` };
  }
  return { kind: 'prose' };
}
