import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRalphJson, parseRalphJsonTarget } from '../../src/formats/ralph-json.js';
import { repoRoot } from '../helpers/cli.js';
import { errorOf } from '../helpers/errors.js';

const example = join(repoRoot, 'examples/ralph-json/ralph.json');

describe('parseRalphJsonTarget: the example', () => {
  const { plan, limits } = parseRalphJsonTarget(readFileSync(example, 'utf8'), example);

  it('is one task with typed checks and the run limits', () => {
    expect(plan.id).toBe('ralph.json');
    expect(plan.path).toBe(example);
    // Its own stop conditions: ralf's fingerprint and no-progress stops are left out.
    expect(limits).toEqual({ max_iterations: 5, max_tokens: 200000, error_fingerprint_repeats: 100, no_progress_repeats: 100, source: example });
    expect(plan.tasks).toHaveLength(1);
    const task = plan.tasks[0]!;
    expect(task).toMatchObject({ number: 1, line: 2, decision: 'loop', type: 'auto' });
    expect(task.name).toMatch(/^Implement slugify\(text\) in src\/slugify\.mjs/);
    expect(task.elements.action).toContain('Make tests/slugify.check.mjs pass');
    expect(task.checks).toEqual([
      { kind: 'file_exists', path: 'src/slugify.mjs', source: { element: 'acceptance_criteria[0]', line: 4 } },
      { kind: 'contains_text', path: 'src/slugify.mjs', text: 'export function slugify', source: { element: 'acceptance_criteria[1]', line: 5 } },
      { kind: 'tests_pass', command: 'node tests/slugify.check.mjs', source: { element: 'acceptance_criteria[2]', line: 6 } },
      {
        kind: 'command_succeeds',
        command: `node -e "import('./src/slugify.mjs').then((m) => process.exit(m.slugify('  Hello, World!  ') === 'hello-world' ? 0 : 1))"`,
        source: { element: 'acceptance_criteria[3]', line: 7 },
      },
    ]);
  });
});

describe('parseRalphJson: validation', () => {
  const path = '/x/ralph.json';

  it('names the key path, line and valid types for an unknown acceptance type', () => {
    const text = '{\n  "task": "t",\n  "acceptance_criteria": [\n    { "type": "file_exists", "path": "a" },\n    { "type": "url_responds", "url": "http://x" }\n  ]\n}\n';
    const err = errorOf(() => parseRalphJson(text, path));
    expect(err.kind).toBe('ralph_json_invalid');
    expect(err.exitCode).toBe(2);
    expect(err.problems).toEqual([
      {
        file: path,
        key: 'acceptance_criteria[1].type',
        line: 5,
        message: 'unknown acceptance criterion type',
        expected: 'one of file_exists, command_succeeds, contains_text, tests_pass, min_lines',
        received: 'the string "url_responds"',
        hint: 'valid types: file_exists, command_succeeds, contains_text, tests_pass, min_lines',
      },
    ]);
    expect(err.message).toBe('/x/ralph.json:5: acceptance_criteria[1].type: unknown acceptance criterion type');
  });

  it('collects every problem, in line order', () => {
    const text = JSON.stringify({ task: '', acceptance_criteria: [{ type: 'command_succeeds' }, { type: 'contains_text', text: 'x' }], max_iterations: 0, budget: { max_tokens: 'lots' } }, null, 2);
    const err = errorOf(() => parseRalphJson(text, path));
    expect(err.problems.map((p) => [p.key, p.message, p.expected])).toEqual([
      ['task', 'invalid value', 'a non-empty string'],
      ['acceptance_criteria[0].command', 'missing required key', 'a string'],
      ['acceptance_criteria[1].path', 'contains_text needs "path" (or "file")', undefined],
      ['max_iterations', 'invalid value', '>= 1'],
      ['budget.max_tokens', 'invalid value', 'a number'],
    ]);
    expect(err.message).toMatch(/and 4 more problems\)$/);
  });

  it('reports malformed JSON with file, line and column', () => {
    const err = errorOf(() => parseRalphJson('{\n  "task": "t",\n  "acceptance_criteria": [],\n}\n', path));
    // The comma is what to delete: its line and column, not the bracket's.
    expect(err.problems[0]).toMatchObject({ file: path, line: 3, column: 28, message: 'invalid JSON: trailing comma before "}" (delete the comma)' });
    expect(err.message).toBe('/x/ralph.json:3:28: invalid JSON: trailing comma before "}" (delete the comma)');
    expect(errorOf(() => parseRalphJson('', path)).message).toBe('/x/ralph.json: file is empty');
    expect(errorOf(() => parseRalphJson('{"task": "a\nb"}', path)).problems[0]).toMatchObject({ line: 1, column: 12 });
    expect(errorOf(() => parseRalphJson("{'task': 1}", path)).problems[0]!.message).toBe('invalid JSON: expected a double-quoted property name, found "\'"');
  });

  it('rejects a top-level array or string', () => {
    expect(errorOf(() => parseRalphJson('[]', path)).problems[0]).toMatchObject({ message: 'invalid value', expected: 'an object', received: 'an array' });
  });

  it('accepts `file` for contains_text, a BOM, CRLF and unicode; warns on unknown keys', () => {
    const text = '\uFEFF{\r\n  "task": "Écrire README — 日本語",\r\n  "model": "x",\r\n  "acceptance_criteria": [ { "type": "contains_text", "file": "README.md", "text": "日本語" } ]\r\n}\r\n';
    const { plan, limits } = parseRalphJsonTarget(text, path);
    expect(limits).toEqual({ error_fingerprint_repeats: 100, no_progress_repeats: 100, source: path });
    expect(plan.tasks[0]!.checks).toEqual([{ kind: 'contains_text', path: 'README.md', text: '日本語', source: { element: 'acceptance_criteria[0]', line: 4 } }]);
    expect(plan.warnings).toEqual(['/x/ralph.json: unknown key "model" ignored (known: task, acceptance_criteria, max_iterations, budget)']);
  });

  it('resolves tests_pass without a command from the project test command, else skips with the reason', () => {
    const text = JSON.stringify({ task: 'Fix the tests', acceptance_criteria: [{ type: 'tests_pass' }] });
    expect(parseRalphJson(text, path, { tests_command: 'npm test' }).tasks[0]!.checks).toEqual([
      { kind: 'tests_pass', command: 'npm test', source: { element: 'acceptance_criteria[0]', line: 1 } },
    ]);
    const task = parseRalphJson(text, path).tasks[0]!;
    expect(task.decision).toBe('skip');
    expect(task.reason).toContain('tests_pass has no "command" and ralf_lite.checks.tests is not set');
  });

  it('skips a task without criteria as not objectively verifiable', () => {
    const task = parseRalphJson('{"task":"Make it nice","acceptance_criteria":[]}', path).tasks[0]!;
    expect(task.decision).toBe('skip');
    expect(task.reason).toMatch(/^not objectively verifiable/);
  });
});

describe('parseRalphJson: criteria written as sentences', () => {
  it('reads them like PRD sub-bullets beside typed ones; prose is a manual criterion', () => {
    const text = '{\n  "task": "Refactor auth",\n  "acceptance_criteria": [\n    "All tests pass",\n    "`npx tsc --noEmit` exits with code 0",\n    { "type": "file_exists", "path": "src/auth/index.ts" },\n    "Code review checklist complete"\n  ]\n}\n';
    const task = parseRalphJson(text, '/x/ralph.json').tasks[0]!;
    expect(task.decision).toBe('loop');
    expect(task.checks.map((c) => [c.kind, c.source.line])).toEqual([
      ['command_succeeds', 5],
      ['file_exists', 6],
    ]);
    expect(task.manual).toEqual(['All tests pass', 'Code review checklist complete']);
    const withTests = parseRalphJson(text, '/x/ralph.json', { tests_command: 'npm test' }).tasks[0]!;
    expect(withTests.checks.map((c) => c.kind)).toEqual(['tests_pass', 'command_succeeds', 'file_exists']);
  });
});
