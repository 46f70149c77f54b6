/**
 * Judging a command check's result beyond its exit status (pure, unit-tested without processes):
 * - GSD Core's `<fails_when>` signals, applied even on exit 0;
 * - silent greens: a test run that exits 0 having run no test at all;
 * A reason is returned for every failure this adds, so the handoff says why a green exit failed.
 */

export interface Judged {
  passed: boolean;
  /** Why the check failed although its exit status alone would pass it (or passed although it would fail). */
  reason?: string;
}

/** One parsed failure condition of a `<fails_when>` statement. */
export type FailSignal =
  | { kind: 'nonzero_exit' }
  | { kind: 'text'; text: string }
  | { kind: 'pattern'; regex: RegExp; source: string }
  | { kind: 'no_tests' }
  | { kind: 'any_output' }
  | { kind: 'no_output' };

const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']{2,})'|`([^`]+)`/g;
const REGEX = /(?:^|\s)\/((?:\\.|[^/\n])+)\/([gimsuy]*)(?=[\s,.;)]|$)/g;
/** "0 passed", "no tests ran", "0 tests", "zero tests collected", "nothing was tested" (unquoted). */
const ZERO_TESTS_PROSE = /\b(?:0|zero|no)\s+(?:tests?|specs?|examples?|items?|test\s+files?)(?:\s+(?:ran|run|were\s+run|collected|executed|found|passed))?\b|\b0\s+passed\b|\bnothing\s+(?:was\s+)?tested\b|\bno\s+tests?\s+(?:ran|run)\b/i;

/** Parses a `<fails_when>` statement into conditions; parts it cannot read are left to the exit status. */
export function parseFailsWhen(statement: string): FailSignal[] {
  const out: FailSignal[] = [];
  let rest = statement;
  for (const m of statement.matchAll(QUOTED)) {
    const text = m[1] ?? m[2] ?? m[3] ?? m[4]!;
    out.push({ kind: 'text', text });
    rest = rest.replace(m[0], ' ');
  }
  for (const m of rest.matchAll(REGEX)) {
    try {
      out.push({ kind: 'pattern', regex: new RegExp(m[1]!, m[2]!.replace(/[gy]/g, '') + (m[2]!.includes('m') ? '' : 'm')), source: `/${m[1]}/${m[2]}` });
      rest = rest.replace(m[0], ' ');
    } catch {
      /* not a regex after all */
    }
  }
  if (/\bnon-?zero\b|\bexit(?:s|\s+code|\s+status)?\s*(?:!=|≠|is\s+not|other\s+than)\s*0\b|\bfails?\s+to\s+exit\s+0\b/i.test(rest)) out.push({ kind: 'nonzero_exit' });
  if (ZERO_TESTS_PROSE.test(rest)) out.push({ kind: 'no_tests' });
  if (/\b(?:any|non-?empty)\s+output\b|\bprints?\s+anything\b|\boutput\s+is\s+not\s+empty\b/i.test(rest)) out.push({ kind: 'any_output' });
  else if (/\b(?:no|empty)\s+output\b|\bprints?\s+nothing\b|\boutput\s+is\s+empty\b/i.test(rest)) out.push({ kind: 'no_output' });
  return out;
}

function containsWord(output: string, text: string): boolean {
  // "0 passed" must not match "10 passed": a leading word character needs a boundary before it.
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const before = /^[\w]/.test(text) ? '(?<![\\w.])' : '';
  const after = /[\w]$/.test(text) ? '(?![\\w])' : '';
  return new RegExp(`${before}${escaped}${after}`, 'i').test(output);
}

/** Summary lines that say tests ran: a positive count, or a Go `ok pkg 0.1s` line. */
const TESTS_RAN = [
  /\b[1-9]\d*\s+(?:tests?|passed|passing|pass|specs?|examples?|items?|assertions?)\b/i,
  /\b(?:ran|running|collected|executed)\s+[1-9]\d*\b/i,
  /^#\s*(?:tests|pass)\s+[1-9]/m,
  /\b(?:passed|total\s+tests?|tests\s+run):\s*[1-9]/i,
  /^ok\s+\S+\s+(?:[\d.]+s|\(cached\))(?!.*no tests to run)/m,
  /^---\s+PASS:/m,
];
/** Summary lines that say no test ran (a runner's own words). */
const NO_TESTS_RAN = [
  /\b(?:ran|running|collected|executed|found)\s+0\s+(?:tests?|items?|specs?|examples?)\b/i,
  /\b0\s+(?:tests?|specs?|examples?)(?!\s*(?:failed|failing|failures?|errors?|skipped|pending))\b/i,
  /\b0\s+(?:passing|passed)\b(?![^\n]*\b[1-9]\d*\s+(?:failed|failing))/i,
  /\bno\s+tests?\s+(?:ran|run|found|to\s+run|collected|executed|were\s+found|were\s+run|is\s+available|executed!?)\b/i,
  /\bno\s+test\s+files?\s+(?:found|to\s+run)?\b|\[no test files\]/i,
  /^#\s*tests\s+0\b/m,
  /\btotal\s+tests?:\s*0\b/i,
];

/** A test run that exited 0 having run no test ("Ran 0 tests", "No test files found"), with the line that says so. */
export function silentGreen(output: string): string | null {
  if (output === '') return null; // a check that printed nothing names no count
  let line: string | null = null;
  for (const re of NO_TESTS_RAN) {
    const m = re.exec(output);
    if (m) {
      const start = output.lastIndexOf('\n', m.index) + 1;
      const end = output.indexOf('\n', m.index);
      line = output.slice(start, end === -1 ? undefined : end).trim();
      break;
    }
  }
  if (line === null) return null;
  return TESTS_RAN.some((re) => re.test(output)) ? null : line.slice(0, 160);
}

/**
 * The verdict on one command check. `exitOk` is the plain reading (exit 0, no timeout, no
 * signal); `output` the check's combined output (head and tail).
 */
export function judgeCommand(input: { command: string; exit_code: number | null; exitOk: boolean; output: string; fails_when?: string | undefined }): Judged {
  const { output } = input;
  const passed = input.exitOk;
  if (!passed) return { passed };
  for (const signal of input.fails_when ? parseFailsWhen(input.fails_when) : []) {
    switch (signal.kind) {
      case 'text':
        if (containsWord(output, signal.text)) return { passed: false, reason: `<fails_when>: the output contains "${signal.text}"` };
        break;
      case 'pattern':
        if (signal.regex.test(output)) return { passed: false, reason: `<fails_when>: the output matches ${signal.source}` };
        break;
      case 'no_tests': {
        const line = silentGreen(output);
        if (line) return { passed: false, reason: `<fails_when>: no tests ran ("${line}")` };
        break;
      }
      case 'any_output':
        if (output.trim() !== '') return { passed: false, reason: '<fails_when>: the command printed output' };
        break;
      case 'no_output':
        if (output.trim() === '') return { passed: false, reason: '<fails_when>: the command printed nothing' };
        break;
      case 'nonzero_exit':
        break; // exit 0 here
    }
  }
  const line = silentGreen(output);
  if (line) return { passed: false, reason: `exited 0 but ran no tests ("${line}"): a silent green, not a pass` };
  return { passed };
}
