/**
 * Reads one acceptance criterion written as Markdown text (a PRD sub-bullet, a requirement's
 * `acceptance` string) into executable checks. Only explicit forms count, so prose is never
 * guessed into a command:
 *   Verify: `cmd` | Run: cmd        → command_succeeds
 *   `cmd` | `cmd` succeeds/passes    → command_succeeds
 *   `path` exists | File `path` exists → file_exists
 *   `path` contains `text` / "text"  → contains_text
 *   `cmd` exits with code 0           → command_succeeds
 *   npm test passes                   → command_succeeds (when src/plan reads it as a command)
 *   Acceptance: <any of these>        → the same (copilot_ralf's label)
 *   tests pass                        → tests_pass (the project test command)
 * Anything else is prose: a manual criterion the agent must confirm.
 */
import { looksLikeBareCommand, type ProgramResolver } from '../plan/command-like.js';
import { machineResolver } from '../plan/resolve-programs.js';

/** Programs on this machine's PATH / node_modules/.bin (issue 13: a bare line is a command when its first word resolves). */
let onThisMachine: ProgramResolver | null = null;
export const resolves: ProgramResolver = (name) => (onThisMachine ??= machineResolver(process.cwd()))(name);
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
/** What a command is said to do when it passes: `succeeds`, `passes`, `exits with code 0`, ... */
const PASSES = String.raw`(?:succeeds|passes|exits(?: with)?(?: (?:exit )?(?:code|status))? 0|exits successfully|returns 0|is green)`;
/**
 * What may follow "passes" and still say only that the command succeeds: the kind of check it is
 * (`passes syntax check`, `passes lint`), or how (`without errors`, `cleanly`). Anything else
 * (`prints the version`) states an expected output, which the exit status alone does not verify.
 */
const PASS_TAIL = String.raw`(?:\s+(?:(?:the\s+)?(?:[a-z-]+\s+)?(?:check|checks|lint|linting)|without\s+(?:any\s+)?(?:errors?|failures?|warnings?)|cleanly|successfully))?`;
const COMMAND_ONLY = new RegExp(String.raw`^\`([^\`]+)\`\s*(?:${PASSES}${PASS_TAIL}\.?)?$`, 'i');
/** A bare command said to pass (`npm test passes`): only when src/plan reads the words as a command. */
const BARE_PASSES = new RegExp(String.raw`^(.+?)\s+${PASSES}${PASS_TAIL}\.?$`, 'i');
/** A label that introduces a criterion, not a command list: copilot_ralf's `- Acceptance: ...`. */
const CRITERION_LABEL = /^(?:acceptance(?:\s+criteri(?:a|on))?|ac|done when)\s*:\s*(.+)$/i;
const TESTS_PASS = /^(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:(?:existing|other|unit|current)\s+)*tests?\s+(?:still\s+)?(?:pass|passes|are green|succeed)\.?$/i;

/**
 * A leading label without its emphasis: `**Acceptance:** x`, `**Files**: x`, `__Verify__: x` →
 * `Acceptance: x`. Generated PRDs bold their labels; the label means the same.
 */
export function withoutLabelEmphasis(text: string): string {
  return text.replace(/^(\*\*|__|\*|_)([A-Za-z][\w ()/-]{0,40}?)(:?)\1(:?)(?=\s|$)/, (all, _m, label: string, inner: string, outer: string) => (inner || outer ? `${label}:` : all));
}

/** Where a task's criteria go: runnable checks, and criteria the agent confirms (with why those cannot run). */
export interface CriteriaSink {
  checks: Check[];
  manual: string[];
  unrunnable: string[];
}

/** A criterion written as text, read like a PRD sub-bullet: its checks, else a manual criterion. */
export function addTextCriterion(sink: CriteriaSink, text: string, source: CheckSource, testsCommand: string | undefined): void {
  const reading = readCriterionText(text, source, testsCommand);
  if (reading.kind === 'checks') sink.checks.push(...reading.checks);
  else {
    sink.manual.push(text);
    if (reading.kind === 'unrunnable') sink.unrunnable.push(reading.why);
  }
}

/** A label alone (`Acceptance criteria:`, `Tests:`): it heads the list under it and is no criterion itself. */
export function isLabelOnly(text: string): boolean {
  return /^[^`:]{1,60}:$/.test(text);
}

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
  const text = withoutLabelEmphasis(raw.trim());
  const labelled = CRITERION_LABEL.exec(text);
  if (labelled) return readCriterionText(labelled[1]!, source, testsCommand);
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
  const bare = BARE_PASSES.exec(text);
  if (bare && !bare[1]!.includes('`') && looksLikeBareCommand(bare[1]!, resolves)) {
    return { kind: 'checks', checks: [{ kind: 'command_succeeds', command: bare[1]!.trim(), source }] };
  }
  if (TESTS_PASS.test(text)) {
    if (testsCommand) return { kind: 'checks', checks: [{ kind: 'tests_pass', command: testsCommand, source }] };
    return { kind: 'unrunnable', why: `"${text}" needs a test command (set ralf_lite.checks.tests)` };
  }
  return { kind: 'prose' };
}
