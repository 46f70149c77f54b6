import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyLine, markRequirementDone, parseHistory, parseRequirements, writeRequirementResult } from '../../src/formats/requirements.js';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { errorOf } from '../helpers/errors.js';

const dir = join(repoRoot, 'examples/requirements');
const example = join(dir, 'requirements.json');
const NOW = new Date('2026-02-03T04:05:06.000Z');

describe('parseRequirements: the example', () => {
  const plan = parseRequirements(readFileSync(example, 'utf8'), example, { history: readFileSync(join(dir, 'history.jsonl'), 'utf8') });

  it('makes one task per requirement with decisions', () => {
    expect(plan.id).toBe('requirements.json');
    expect(plan.objective).toBe('stats: small statistics helpers');
    expect(plan.tasks.map((t) => [t.number, t.name, t.line, t.decision])).toEqual([
      [1, 'REQ-1: mean()', 4, 'skip'],
      [2, 'REQ-2: median()', 12, 'loop'],
      [3, 'REQ-3: CLI', 20, 'loop'],
      [4, 'REQ-4: Fast enough', 31, 'skip'],
      [5, 'REQ-5: Sign-off', 38, 'refuse'],
    ]);
    expect(plan.tasks[0]!.reason).toBe('already done (status "done" in requirements.json)');
    expect(plan.tasks[3]!.reason).toMatch(/^not objectively verifiable/);
    expect(plan.tasks[3]!.manual).toEqual(['Feels instant']);
    expect(plan.tasks[4]!.type).toBe('checkpoint:human-verify');
  });

  it('reads verify commands, acceptance strings and typed acceptance objects', () => {
    expect(plan.tasks[1]!.checks).toEqual([{ kind: 'command_succeeds', command: 'node tests/median.check.mjs', source: { element: 'requirements[1].verify[0]', line: 17 } }]);
    expect(plan.tasks[2]!.checks).toEqual([
      { kind: 'file_exists', path: 'bin/stats.mjs', source: { element: 'requirements[2].acceptance[0]', line: 26 } },
      { kind: 'command_succeeds', command: 'test "$(node bin/stats.mjs 1 2 3 10)" = "mean=4 median=2.5"', source: { element: 'requirements[2].acceptance[1]', line: 27 } },
      { kind: 'contains_text', path: 'bin/stats.mjs', text: '../src/stats.mjs', source: { element: 'requirements[2].acceptance[2]', line: 28 } },
    ]);
    expect(plan.tasks[1]!.attributes).toEqual({ id: 'REQ-2', status: 'pending', index: '1' });
    expect(plan.tasks[1]!.elements.action).toMatch(/^median\(\)\n\nExport median/);
  });

  it('gives the agent the recent history of a requirement', () => {
    expect(plan.tasks[0]!.elements.history).toBe(
      '2026-01-10T09:00:00.000Z failure: mean([]) returned 0 instead of NaN\n2026-01-10T09:05:00.000Z success: passed after 2 iterations',
    );
    expect(plan.tasks[1]!.elements.history).toBeUndefined();
  });
});

describe('parseRequirements: shapes and errors', () => {
  const path = '/x/requirements.json';

  it('accepts a top-level array, numeric ids and title-less descriptions', () => {
    const plan = parseRequirements('[{"id": 7, "description": "Do it", "verify": "true"}]', path);
    expect(plan.tasks[0]).toMatchObject({ name: '7: Do it', decision: 'loop', attributes: { id: '7', status: 'pending' } });
    expect(plan.objective).toBeNull();
  });

  it("the file's own gate beside its list (`checks`) ends the checks of every item that has checks of its own", () => {
    const text = '{\n  "checks": ["npm run lint", "npm run typecheck"],\n  "items": [\n    {"id": "A", "title": "a", "verify": ["npm test -- a"]},\n    {"id": "B", "title": "b", "verify": "npm run lint"},\n    {"id": "C", "title": "c", "acceptance": ["Reads well"]}\n  ]\n}\n';
    const plan = parseRequirements(text, path);
    const commands = plan.tasks.map((t) => t.checks.map((c) => (c.kind === 'command_succeeds' ? `${c.command}@${c.source.line}` : c.kind)));
    expect(commands).toEqual([['npm test -- a@4', 'npm run lint@2', 'npm run typecheck@2'], ['npm run lint@5', 'npm run typecheck@2'], []]);
    expect(plan.tasks[2]!.decision).toBe('skip');
    // Without a list beside it (a bare array), or when it is no list of commands, there is no gate.
    expect(parseRequirements('{"checks": {"lint": true}, "items": [{"id": "A", "title": "a", "verify": "x"}]}', path).tasks[0]!.checks).toHaveLength(1);
  });

  it('names file, key path and line for bad requirements, collecting all problems', () => {
    const text = '{\n  "requirements": [\n    { "id": "A", "title": "x", "acceptance": [{ "type": "http_ok" }] },\n    { "title": "no id" },\n    { "id": "A", "description": "dup", "verify": "true" }\n  ]\n}\n';
    const err = errorOf(() => parseRequirements(text, path));
    expect(err.kind).toBe('requirements_invalid');
    expect(err.exitCode).toBe(2);
    expect(err.problems.map((p) => [p.key, p.line, p.message])).toEqual([
      ['requirements[0].acceptance[0].type', 3, 'unknown acceptance criterion type'],
      ['requirements[1].id', 4, 'missing required key'],
      ['requirements[2].id', 5, 'duplicate requirement id "A" (first at requirements[0])'],
    ]);
    expect(err.problems[0]!.hint).toBe('valid types: file_exists, command_succeeds, contains_text, tests_pass, min_lines');
  });

  it('rejects JSON that is not a requirements list', () => {
    expect(errorOf(() => parseRequirements('{"items": []}', path)).problems[0]).toMatchObject({ message: 'expected an array of requirements, or an object with a "requirements" array' });
    expect(errorOf(() => parseRequirements('[{"id": "a",}]', path)).problems[0]).toMatchObject({ line: 1, column: 12, message: 'invalid JSON: trailing comma before "}" (delete the comma)' });
  });

  it('skips statuses other than pending/done with the reason', () => {
    const plan = parseRequirements('[{"id": "a", "title": "t", "status": "wontfix", "verify": "true"}]', path);
    expect(plan.tasks[0]!.reason).toBe('status "wontfix"; only pending requirements run (set "status": "pending" to retry)');
  });

  it('parses history leniently', () => {
    const { entries, warnings } = parseHistory('{"timestamp":"t","requirement_id":"A","success":true,"message":"m"}\nnot json\n\n{"x":1}\n', '/x/history.jsonl');
    expect(entries).toEqual([{ timestamp: 't', requirement_id: 'A', success: true, message: 'm', line: 1 }]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^\/x\/history\.jsonl:2: ignored history line/);
  });
});

describe('write-back', () => {
  it('changes only the status value, keeping formatting and unknown keys', () => {
    const text = readFileSync(example, 'utf8');
    const after = markRequirementDone(text, example, 'REQ-2');
    expect(after).toBe(text.replace('"status": "pending",\n      "verify": ["node tests/median.check.mjs"]', '"status": "done",\n      "verify": ["node tests/median.check.mjs"]'));
  });

  it('adds a missing status member in the file\'s own indentation (tabs, CRLF, single-line objects)', () => {
    const tabs = '\uFEFF[\r\n\t{\r\n\t\t"id": "a",\r\n\t\t"title": "T",\r\n\t\t"x-custom": {"keep": [1, 2.50]}\r\n\t},\r\n\t{ "id": "b", "title": "B" }\r\n]\r\n';
    expect(markRequirementDone(tabs, '/x/r.json', 'a')).toBe(tabs.replace('{"keep": [1, 2.50]}\r\n', '{"keep": [1, 2.50]},\r\n\t\t"status": "done"\r\n'));
    expect(markRequirementDone(tabs, '/x/r.json', 'b')).toBe(tabs.replace('{ "id": "b", "title": "B" }', '{ "id": "b", "title": "B", "status": "done" }'));
  });

  it('finds the requirement by id after the agent reordered the file', () => {
    const text = '[\n  {"id": "b", "title": "B", "status": "pending"},\n  {"id": "a", "title": "A", "status": "pending"}\n]';
    expect(markRequirementDone(text, '/x/r.json', 'a')).toBe(text.replace('"A", "status": "pending"', '"A", "status": "done"'));
    expect(() => markRequirementDone(text, '/x/r.json', 'zzz')).toThrow(/requirement "zzz" not found/);
  });

  it('writes status atomically on pass and appends one history line per finished loop', () => {
    const tmp = tempDir();
    const file = join(tmp, 'requirements.json');
    copyFileSync(example, file);
    writeFileSync(join(tmp, 'history.jsonl'), '{"timestamp":"t","requirement_id":"REQ-1","success":true,"message":"m"}');
    const before = readFileSync(file, 'utf8');
    const plan = parseRequirements(before, file);
    writeRequirementResult(plan, 2, { verdict: 'pass', stop_reason: 'success', iterations: 2 }, NOW);
    writeRequirementResult(plan, 3, { verdict: 'stop', stop_reason: 'repeated_fingerprint', iterations: 2 }, NOW);
    expect(readFileSync(file, 'utf8')).toBe(markRequirementDone(before, file, 'REQ-2'));
    const lines = readFileSync(join(tmp, 'history.jsonl'), 'utf8').split('\n');
    expect(lines).toEqual([
      '{"timestamp":"t","requirement_id":"REQ-1","success":true,"message":"m"}',
      historyLine('REQ-2', { verdict: 'pass', stop_reason: 'success', iterations: 2 }, NOW),
      historyLine('REQ-3', { verdict: 'stop', stop_reason: 'repeated_fingerprint', iterations: 2 }, NOW),
      '',
    ]);
    expect(JSON.parse(lines[2]!)).toEqual({
      timestamp: '2026-02-03T04:05:06.000Z',
      requirement_id: 'REQ-3',
      success: false,
      message: 'stopped (repeated_fingerprint) after 2 iterations',
      iterations: 2,
      stop_reason: 'repeated_fingerprint',
      source: 'ralf',
    });
    expect(parseRequirements(readFileSync(file, 'utf8'), file).tasks[1]!.decision).toBe('skip');
  });
});

describe('lists of items under any name, keys in any spelling (json-items.ts)', () => {
  const stories = `{
  "project": "TaskApp",
  "userStories": [
    { "id": "US-001", "title": "Schema", "acceptanceCriteria": ["\`npm test\` passes"], "passes": true },
    { "id": "US-002", "Title": "Badge", "Acceptance_Criteria": ["\`npm test\` passes", "Looks right"], "passes": false, "notes": "" },
    { "ID": "US-003", "title": "Edit", "status": "In Progress", "verification": "npm run e2e" }
  ]
}
`;

  it('reads the one array of {id, title|description} objects of the root, and its keys however spelled', () => {
    const plan = parseRequirements(stories, '/x/prd.json');
    expect(plan.objective).toBe('TaskApp');
    expect(plan.tasks.map((t) => [t.name, t.decision, t.checks.map((c) => (c.kind === 'command_succeeds' ? c.command : c.kind)), t.manual, t.line])).toEqual([
      ['US-001: Schema', 'skip', ['npm test'], [], 4],
      ['US-002: Badge', 'loop', ['npm test'], ['Looks right'], 5],
      ['US-003: Edit', 'loop', ['npm run e2e'], [], 6],
    ]);
    expect(plan.tasks[0]!.reason).toBe('already done ("passes": true in prd.json)');
  });

  it('names the spelled key and its line when an item has no text, and refuses two lists', () => {
    const bad = '{\n  "stories": [\n    { "id": 1, "title": "a" },\n    { "id": 2, "Acceptance": ["x"] }\n  ]\n}';
    const problem = errorOf(() => parseRequirements(bad, '/x/prd.json')).problems[0]!;
    expect(problem).toMatchObject({ file: '/x/prd.json', key: 'stories[1].title', line: 4 });
    expect(problem.message).toContain('"title", "description" or "requirement"');
    const two = '{"a": [{"id": 1, "title": "x"}],\n "b": [{"id": 2, "title": "y"}]}';
    const ambiguous = errorOf(() => parseRequirements(two, '/x/p.json')).problems[0]!;
    expect(ambiguous).toMatchObject({ key: 'a, b', line: 1 });
    expect(ambiguous.message).toContain('more than one list of items');
  });

  it('writes the state back in the key the file uses: passes -> true, a status -> "done", bytes around kept', () => {
    const doneByPasses = markRequirementDone(stories, '/x/prd.json', 'US-002');
    expect(doneByPasses).toBe(stories.replace('"passes": false, "notes"', '"passes": true, "notes"'));
    const doneByStatus = markRequirementDone(stories, '/x/prd.json', 'US-003');
    expect(doneByStatus).toBe(stories.replace('"status": "In Progress"', '"status": "done"'));
    expect(parseRequirements(doneByPasses, '/x/prd.json').tasks[1]!.decision).toBe('skip');
  });

  it('reads status words without case, spaces or separators', () => {
    const list = (status: string) => parseRequirements(`[{"id": 1, "title": "t", "status": ${JSON.stringify(status)}, "verify": "true"}]`, '/x/r.json').tasks[0]!.decision;
    expect(['todo', 'To Do', 'doing', 'in-progress', 'WIP', 'Not started'].map(list)).toEqual(['loop', 'loop', 'loop', 'loop', 'loop', 'loop']);
    expect(['Done', 'COMPLETED', 'finished', 'blocked'].map(list)).toEqual(['skip', 'skip', 'skip', 'skip']);
  });
});

describe('items as other loop tools write them (held-out round 3)', () => {
  const path = '/x/prd.json';

  it('a list whose items have no id: each is known by its text, and write-back finds it by that text', () => {
    const text = '[\n  { "description": "Add a -m flag", "steps": ["`ralph prd -m x` works"], "started": false, "complete": false },\n  { "description": "Read a --file", "complete": true }\n]\n';
    const plan = parseRequirements(text, path);
    expect(plan.tasks.map((t) => [t.name, t.decision, t.attributes.id, t.not_runnable !== undefined])).toEqual([
      ['Add a -m flag', 'skip', 'add-a-m-flag', false],
      ['Read a --file', 'skip', 'read-a-file', true],
    ]);
    // The agent moved the items around: the one whose text it is gets `"complete": true`, nothing else changes.
    const reordered = '[\n  { "description": "Read a --file", "complete": true },\n  { "description": "Add a -m flag", "steps": ["`ralph prd -m x` works"], "started": false, "complete": false }\n]\n';
    expect(markRequirementDone(reordered, path, 'add-a-m-flag')).toBe(reordered.replace('"started": false, "complete": false', '"started": false, "complete": true'));
  });

  it('steps are the criteria of an item that has none of its own, and the instructions of one that has', () => {
    const text = JSON.stringify({
      features: [
        { id: 'F1', description: 'decode() throws on bad JSON', steps: ['Given a bad token', 'When decode() is called', 'Then it throws'], passes: false },
        { id: 'ac-1', description: 'Update deps', steps: ['Run pnpm outdated', 'Update package.json'], backpressure: 'pnpm run build', passes: false },
      ],
    });
    const [feature, criterion] = parseRequirements(text, path).tasks;
    expect(feature).toMatchObject({ name: 'F1: decode() throws on bad JSON', decision: 'skip', checks: [], manual: ['Given a bad token', 'When decode() is called', 'Then it throws'] });
    expect(criterion).toMatchObject({ name: 'ac-1: Update deps', decision: 'loop', manual: [] });
    expect(criterion!.checks.map((c) => ('command' in c ? c.command : c.kind))).toEqual(['pnpm run build']);
    expect(criterion!.elements.action).toBe('Update deps\n\nSteps:\n1. Run pnpm outdated\n2. Update package.json');
  });

  it('"needs_human_decision": true is a human gate (refused); false is none', () => {
    const text = JSON.stringify({ items: [
      { id: 'S0-002', description: 'Prove least privilege with a scope probe', verify: ['test -s probe.json'], needs_human_decision: true, passes: false },
      { id: 'S0-004', description: 'Health endpoint', verify: ['cargo test'], needs_human_decision: false, passes: false },
    ] });
    expect(parseRequirements(text, path).tasks.map((t) => [t.name, t.decision])).toEqual([
      ['S0-002: Prove least privilege with a scope probe', 'refuse'],
      ['S0-004: Health endpoint', 'loop'],
    ]);
    // The blocker beside it says what the person is asked, for the checkpoint the run prints.
    const blocked = JSON.stringify({ items: [{ id: 'S0-3', description: 'Drill', needs_human_decision: true, passes: false, human_blocker: { why: 'Needs a witness', question: 'Was the drill run?', options: ['Yes', 'No'], unblock_steps: ['Run the drill', 'Record it'] } }] });
    expect(parseRequirements(blocked, path).tasks[0]!.elements).toMatchObject({ decision: 'Needs a witness\nWas the drill run?\nTo unblock:\n- Run the drill\n- Record it', options: '- Yes\n- No' });
  });

  it('"All existing tests still pass" is the project test command; a bare command that "passes syntax check" is a check, one that "prints" something is not', () => {
    const text = JSON.stringify({ tasks: [{ id: 'T1', title: 'Scaffold', status: 'pending', acceptance_criteria: ['All existing tests still pass', 'bash -n weather.sh passes syntax check', 'bash weather.sh --version prints version number'] }] });
    const [task] = parseRequirements(text, path, { tests_command: 'npm test' }).tasks;
    expect(task!.checks.map((c) => `${c.kind}: ${'command' in c ? c.command : ''}`)).toEqual(['tests_pass: npm test', 'command_succeeds: bash -n weather.sh']);
    expect(task!.manual).toEqual(['bash weather.sh --version prints version number']);
  });
});

describe('round 4: test commands under their own key, a title beside a name', () => {
  const path = '/x/prd.json';
  it('testSteps written as commands are checks; one written as a sentence is a criterion to confirm', () => {
    const text = JSON.stringify({ stories: [{ id: 'F-1', title: 'Add the constant', acceptanceCriteria: ['Constant is readonly'], testSteps: ["grep -q 'VERSION' utils.sh", 'source utils.sh; [[ "$VERSION" == "2" ]]', 'Open the page and look at the footer'], passes: false }] });
    const [task] = parseRequirements(text, path).tasks;
    expect(task!.checks.map((c) => ('command' in c ? c.command : ''))).toEqual(["grep -q 'VERSION' utils.sh", 'source utils.sh; [[ "$VERSION" == "2" ]]']);
    expect(task!.manual).toEqual(['Constant is readonly', 'Open the page and look at the footer']);
    expect(task!.decision).toBe('loop');
  });

  it('a title names the item even when a name (an identifier) comes first', () => {
    const text = JSON.stringify({ features: [{ id: 3, name: 'safe_write_file', title: 'Tool write_file segura', status: 'pending', acceptance: ['x'] }, { id: 4, name: 'Only a name', status: 'pending' }] });
    expect(parseRequirements(text, path).tasks.map((t) => t.name)).toEqual(['3: Tool write_file segura', '4: Only a name']);
  });
});
