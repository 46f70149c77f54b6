/** Wording for zod issues, shared by config validation and the JSON front-end formats. */
import type { core } from 'zod/mini';

/** How a received value reads in a message: `the string "3"`, `number 0`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** The value at an issue's path. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[seg] : undefined;
  return v;
}

/** What the schema expected, in words: `an integer`, `>= 1`, `a non-empty string`. */
export function expectedOf(issue: core.$ZodIssue): string {
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
