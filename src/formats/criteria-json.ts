/**
 * Typed acceptance criteria as JSON/YAML objects (`{ "type": "file_exists", "path": ... }`),
 * shared by ralph.json, requirements.json and task-file frontmatter. The zod schema is the
 * single source of truth for the valid types and their keys.
 */
// zod/mini, like src/config/schema.ts: one zod build in the bundle.
import { describe, discriminatedUnion, int, literal, looseObject, minimum, minLength, optional, refine, string, trim, type infer as Infer } from 'zod/mini';
import type { Check, CheckSource } from '../plan/model.js';
import type { CriteriaSink } from './criteria-text.js';

const nonEmpty = (description: string) => string().check(trim(), minLength(1), describe(description));

export const AcceptanceCriterion = discriminatedUnion('type', [
  looseObject({
    type: literal('file_exists'),
    path: nonEmpty('File that must exist, relative to the project root.'),
  }),
  looseObject({
    type: literal('command_succeeds'),
    command: nonEmpty('Shell command that must exit 0 (run from the project root).'),
  }),
  looseObject({
    type: literal('contains_text'),
    path: optional(nonEmpty('File to search (alias: `file`).')),
    file: optional(nonEmpty('Alias of `path`.')),
    text: string().check(minLength(1), describe('Text the file must contain (literal, case-sensitive).')),
  }).check(refine((v) => v.path !== undefined || v.file !== undefined, { message: 'contains_text needs "path" (or "file")', path: ['path'] })),
  looseObject({
    type: literal('tests_pass'),
    command: optional(nonEmpty('Test command; defaults to ralf_lite.checks.tests.')),
  }),
  looseObject({
    type: literal('min_lines'),
    path: nonEmpty('File that must have at least `min_lines` lines.'),
    min_lines: int().check(minimum(1)),
  }),
]);

export type AcceptanceCriterion = Infer<typeof AcceptanceCriterion>;

export const ACCEPTANCE_TYPES = ['file_exists', 'command_succeeds', 'contains_text', 'tests_pass', 'min_lines'] as const;

export function criterionToCheck(
  c: AcceptanceCriterion,
  source: CheckSource,
  testsCommand: string | undefined,
): Check | { unrunnable: string } {
  switch (c.type) {
    case 'file_exists':
      return { kind: 'file_exists', path: c.path, source };
    case 'command_succeeds':
      return { kind: 'command_succeeds', command: c.command, source };
    case 'contains_text':
      return { kind: 'contains_text', path: (c.path ?? c.file)!, text: c.text, source };
    case 'min_lines':
      return { kind: 'min_lines', path: c.path, min_lines: c.min_lines, source };
    case 'tests_pass': {
      const command = c.command ?? testsCommand;
      if (!command) return { unrunnable: `${source.element}: tests_pass has no "command" and ralf_lite.checks.tests is not set` };
      return { kind: 'tests_pass', command, source };
    }
  }
}

/** A typed criterion into a task's criteria: its check, or (not runnable here) a manual criterion saying why. */
export function addTypedCriterion(sink: CriteriaSink, criterion: AcceptanceCriterion, source: CheckSource, testsCommand: string | undefined): void {
  const check = criterionToCheck(criterion, source, testsCommand);
  if ('unrunnable' in check) {
    sink.unrunnable.push(check.unrunnable);
    sink.manual.push(check.unrunnable);
  } else sink.checks.push(check);
}
