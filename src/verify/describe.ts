import type { Check } from '../plan/model.js';

/**
 * The `command` recorded for a check: the shell command itself, or a one-line
 * description for file checks (`file_exists src/a.ts`, `contains_text src/a.ts "x"`,
 * `min_lines src/a.ts 10`).
 */
export function describeCheck(check: Check): string {
  switch (check.kind) {
    case 'file_exists':
      return `file_exists ${check.path}`;
    case 'contains_text':
      return `contains_text ${check.path} ${JSON.stringify(check.text)}`;
    case 'min_lines':
      return `min_lines ${check.path} ${check.min_lines}`;
    default:
      return check.command;
  }
}

/**
 * A command (or check) as one short line for humans: whitespace runs (including
 * newlines of multi-line scripts) collapse to one space, and long commands are cut
 * with `…` at `maxLength` characters.
 */
export function formatCommandForDisplay(command: string | Check, maxLength = 120): string {
  const text = (typeof command === 'string' ? command : describeCheck(command)).replace(/\s+/g, ' ').trim();
  if (maxLength < 1 || text.length <= maxLength) return text;
  return `${text.slice(0, maxLength - 1).trimEnd()}…`;
}
