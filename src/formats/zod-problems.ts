/** Turns zod issues for a JSON front-end file into Problems naming the file, key path and line. */
import type { core } from 'zod/mini';
import { describeValue, expectedOf, valueAt } from '../config/zod-issue-text.js';
import type { Problem } from '../errors.js';
import { jsonPathKey } from './json-scan.js';
import { lineOfPath, type JsonDocument } from './json-text.js';

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
