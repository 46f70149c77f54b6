/** Turns zod issues for a JSON front-end file into Problems naming the file, key path and line. */
import type { core } from 'zod/mini';
import type { Problem } from '../errors.js';
import { jsonPathKey } from './json-scan.js';
import { lineOfPath, type JsonDocument } from './json-text.js';

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

function expectedOf(issue: core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'an integer' : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'array') return `at least ${String(issue.minimum)} item(s)`;
      if (issue.origin === 'string') return 'a non-empty string';
      return `${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'array' ? `at most ${String(issue.maximum)} item(s)` : `${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

export function zodProblems(
  issues: readonly core.$ZodIssue[],
  file: string,
  doc: Pick<JsonDocument, 'value' | 'text' | 'locations'>,
  /** Path of the validated value inside the document (e.g. `['requirements', 2]`). */
  basePath: ReadonlyArray<string | number> = [],
  /** Root value the issue paths are relative to (defaults to the document's value). */
  root: unknown = doc.value,
): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const issuePath = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const key = jsonPathKey([...basePath, ...issuePath]);
    const line = lineOfPath(doc, key);
    const received = describeValue(valueAt(root, issue.path));
    if (issue.code === 'invalid_union' && 'discriminator' in issue && Array.isArray((issue as { options?: unknown }).options)) {
      const options = (issue as unknown as { options: unknown[] }).options.map(String);
      problems.push({
        file,
        key,
        line,
        message: received === 'nothing' ? 'missing acceptance criterion type' : 'unknown acceptance criterion type',
        expected: `one of ${options.join(', ')}`,
        received,
        hint: `valid types: ${options.join(', ')}`,
      });
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        problems.push({ file, key: jsonPathKey([...basePath, ...issuePath, k]), line: lineOfPath(doc, jsonPathKey([...basePath, ...issuePath, k])), message: 'unknown key' });
      }
      continue;
    }
    if (issue.code === 'custom') {
      problems.push({ file, key, line, message: issue.message, received });
      continue;
    }
    const problem: Problem = { file, key, line, message: received === 'nothing' ? 'missing required key' : 'invalid value', expected: expectedOf(issue), received };
    if (key === '') delete problem.key;
    if (/acceptance(_criteria)?\[\d+\]$/.test(key) && typeof valueAt(root, issue.path) === 'string') {
      problem.hint = `write a typed criterion, e.g. { "type": "command_succeeds", "command": ${JSON.stringify(valueAt(root, issue.path))} }`;
    }
    problems.push(problem);
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.key ?? '').localeCompare(b.key ?? ''));
}
