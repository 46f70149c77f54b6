import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateFrontmatter } from '../../src/formats/frontmatter-lines.js';
import { parseTaskFiles, writeTaskFileResult, type TaskFile } from '../../src/formats/task-files.js';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { errorOf } from '../helpers/errors.js';

const tasksDir = join(repoRoot, 'examples/task-files/tasks');
const NOW = new Date('2026-02-03T04:05:06.000Z');

function load(dir: string): TaskFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => ({ path: join(dir, f), text: readFileSync(join(dir, f), 'utf8') }));
}

describe('parseTaskFiles: the example', () => {
  const plan = parseTaskFiles(load(tasksDir), tasksDir);

  it('is one plan for the directory, a task per file in name order', () => {
    expect(plan.id).toBe('tasks');
    expect(plan.path).toBe(tasksDir);
    expect(plan.frontmatter.extra.format).toBe('task-files');
    expect(plan.tasks.map((t) => [t.number, t.name, t.decision, t.attributes.id])).toEqual([
      [1, 'Set up the package', 'skip', 'T-001'],
      [2, 'parseDuration()', 'loop', 'T-002'],
      [3, 'formatDuration()', 'loop', 'T-003'],
      [4, 'Publish 1.0', 'refuse', 'T-004'],
      [5, 'Localised unit names', 'skip', 'T-005'],
    ]);
  });

  it('reads verify commands, typed criteria and files with their lines', () => {
    const [, parse, format] = plan.tasks;
    expect(parse!.checks).toEqual([{ kind: 'command_succeeds', command: 'node tests/parse.check.mjs', source: { element: 'verify', line: 6 } }]);
    expect(parse!.files).toEqual(['src/duration.mjs']);
    expect(parse!.attributes.file).toBe(join(tasksDir, '002-parse-duration.md'));
    expect(parse!.elements.action).toMatch(/^# parseDuration\(\)\n\nExport `parseDuration\(text\)`/);
    expect(format!.checks).toEqual([
      { kind: 'command_succeeds', command: 'node tests/format.check.mjs', source: { element: 'verify', line: 6 } },
      { kind: 'contains_text', path: 'src/duration.mjs', text: 'export function formatDuration', source: { element: 'acceptance_criteria[0]', line: 8 } },
    ]);
  });

  it('explains skips and refusals', () => {
    expect(plan.tasks[0]!.reason).toBe('already Done (001-setup.md)');
    expect(plan.tasks[3]!.reason).toBe('checkpoint:human-action tasks need a human; never wrapped or auto-approved');
    expect(plan.tasks[4]!.reason).toBe('status "Draft"; only Approved tasks run');
  });
});

describe('parseTaskFiles: edge cases', () => {
  const file = (name: string, text: string): TaskFile => ({ path: `/t/${name}`, text });

  it('orders numerically, ignores non-task Markdown, handles CRLF, BOM and unicode', () => {
    const plan = parseTaskFiles(
      [
        file('10-b.md', '---\r\nstatus: approved\r\nverify: "true"\r\n---\r\n# Ünïcode tâche ✓\r\n'),
        file('README.md', '# Tasks\n'),
        file('9-a.md', '\uFEFF---\nstatus: Rejected\nstop_reason: no_progress\n---\nbody\n'),
      ],
      '/t',
    );
    expect(plan.tasks.map((t) => [t.name, t.decision, t.reason])).toEqual([
      ['9-a', 'skip', 'Rejected (no_progress); set status: Approved to retry'],
      ['Ünïcode tâche ✓', 'loop', '1 executable check'],
    ]);
    expect(plan.warnings).toEqual(['README.md: no `status:` or `state:` in the frontmatter; not a task file (ignored)']);
  });

  it('treats checkpoint: true / objects as human gates and none/false as no gate', () => {
    const plan = parseTaskFiles(
      [
        file('1.md', '---\nstatus: Approved\ncheckpoint: true\nverify: "true"\n---\n'),
        file('2.md', '---\nstatus: Approved\ncheckpoint:\n  type: decision\n  options: [a, b]\nverify: "true"\n---\n'),
        file('3.md', '---\nstatus: Approved\ncheckpoint: false\nverify: "true"\n---\n'),
        file('4.md', '---\nstatus: Approved\n---\nNo verify here.\n'),
      ],
      '/t',
    );
    expect(plan.tasks.map((t) => [t.decision, t.type])).toEqual([
      ['refuse', 'checkpoint:human-verify'],
      ['refuse', 'checkpoint:decision'],
      ['loop', 'auto'],
      ['skip', 'auto'],
    ]);
    expect(plan.tasks[3]!.reason).toMatch(/^not objectively verifiable/);
  });

  it('reports bad YAML and unknown criterion types with file and line', () => {
    const bad = errorOf(() => parseTaskFiles([file('1.md', '---\nstatus: Approved\nverify: [oops\n---\n')], '/t'));
    expect(bad.kind).toBe('task_file_invalid');
    expect(bad.problems[0]).toMatchObject({ file: '/t/1.md' });
    expect(bad.problems[0]!.line).toBeGreaterThanOrEqual(3);
    const unknown = errorOf(() => parseTaskFiles([file('1.md', '---\nstatus: Approved\nacceptance_criteria:\n  - type: ping\n---\n')], '/t'));
    expect(unknown.problems[0]).toMatchObject({ file: '/t/1.md', key: 'acceptance_criteria[0].type', line: 4, message: 'unknown acceptance criterion type' });
    expect(unknown.problems[0]!.hint).toContain('file_exists, command_succeeds, contains_text, tests_pass');
  });
});

describe('updateFrontmatter', () => {
  it('rewrites only the changed lines and keeps the body bytes', () => {
    const text = '---\r\nid: 1\r\nstatus: "Approved"   # set by PM\r\nverify:\r\n  - make\r\n---\r\nBody  with trailing spaces  \r\n\r\n---\r\nstatus: not frontmatter\r\n';
    const out = updateFrontmatter(text, [
      ['status', 'Done'],
      ['completed_at', '2026-02-03T04:05:06.000Z'],
      ['iterations', 2],
      ['stop_reason', null],
    ]);
    expect(out).toBe('---\r\nid: 1\r\nstatus: "Done"   # set by PM\r\ncompleted_at: "2026-02-03T04:05:06.000Z"\r\niterations: 2\r\nverify:\r\n  - make\r\n---\r\nBody  with trailing spaces  \r\n\r\n---\r\nstatus: not frontmatter\r\n');
  });

  it('replaces and removes multi-line values, keeps mixed line endings of untouched lines', () => {
    const text = '---\nstatus: Rejected\r\nstop_reason: >\n  no_progress\n  again\nrejected_at: x\nkeep: 1\r\n---\nbody';
    const out = updateFrontmatter(text, [['status', 'Done'], ['stop_reason', null], ['rejected_at', null], ['iterations', 1]]);
    expect(out).toBe('---\nstatus: Done\r\niterations: 1\nkeep: 1\r\n---\nbody');
  });

  it('inserts before the closing line when there is no status key, and quotes YAML-ambiguous values', () => {
    expect(updateFrontmatter('---\ntitle: t\n---\n', [['state', 'yes'], ['n', 'a: b']])).toBe('---\ntitle: t\nstate: "yes"\nn: "a: b"\n---\n');
  });
});

describe('writeTaskFileResult', () => {
  it('moves Approved → Done / Rejected, touching only frontmatter lines', () => {
    const dir = tempDir();
    cpSync(tasksDir, join(dir, 'tasks'), { recursive: true });
    const tasks = join(dir, 'tasks');
    const plan = parseTaskFiles(load(tasks), tasks);
    const parsePath = join(tasks, '002-parse-duration.md');
    const formatPath = join(tasks, '003-format-duration.md');
    const parseBefore = readFileSync(parsePath, 'utf8');
    const formatBefore = readFileSync(formatPath, 'utf8');

    writeTaskFileResult(plan, 2, { verdict: 'pass', stop_reason: 'success', iterations: 2 }, NOW);
    writeTaskFileResult(plan, 3, { verdict: 'stop', stop_reason: 'max_iterations', iterations: 3 }, NOW);

    expect(readFileSync(parsePath, 'utf8')).toBe(parseBefore.replace('status: Approved\n', 'status: Done\ncompleted_at: "2026-02-03T04:05:06.000Z"\niterations: 2\n'));
    const rejected = readFileSync(formatPath, 'utf8');
    expect(rejected.startsWith(
      formatBefore
        .replace('status: Approved\n', 'status: Rejected\nrejected_at: "2026-02-03T04:05:06.000Z"\nstop_reason: max_iterations\nfailure_reason: max_iterations\niterations: 3\n')
        .trimEnd(),
    )).toBe(true);
    // The human gets the failure context in the task itself.
    expect(rejected.slice(formatBefore.length + 100)).toContain('## Rejected by ralf run (2026-02-03T04:05:06.000Z)\n\n- Failure reason: max_iterations\n- Iterations: 3\n');
    const again = parseTaskFiles(load(tasks), tasks);
    expect(again.tasks[1]!.reason).toBe('already Done (002-parse-duration.md)');
    expect(again.tasks[2]!.reason).toBe('Rejected (max_iterations); set status: Approved to retry');
    expect(again.tasks.map((t) => t.not_runnable !== undefined)).toEqual([true, true, true, false, true]);

    // Re-approved and passing later: the stale rejection lines go; the rejection history in the body stays.
    const reapproved = rejected.replace('status: Rejected', 'status: Approved');
    const plan2 = parseTaskFiles([{ path: formatPath, text: reapproved }], formatPath);
    expect(plan2.id).toBe('003-format-duration');
    writeFileSync(formatPath, reapproved);
    writeTaskFileResult(plan2, 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 }, NOW);
    const done = readFileSync(formatPath, 'utf8');
    expect(done.startsWith(formatBefore.replace('status: Approved\n', 'status: Done\ncompleted_at: "2026-02-03T04:05:06.000Z"\niterations: 1\n').trimEnd())).toBe(true);
    expect(done).toContain('## Rejected by ralf run');
  });
});

describe('task files as people write them', () => {
  it('takes the lifecycle folder as the state of a file that names none, and writes the state into a frontmatter it adds', async () => {
    const { loadRunTarget } = await import('../../src/formats/detect.js');
    const dir = tempDir();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'Approved'));
    mkdirSync(join(dir, 'Done'));
    writeFileSync(join(dir, 'Approved', '01-inbox.md'), '# Summarise the inbox\r\n\r\nOne line per file.\r\n');
    writeFileSync(join(dir, 'Approved', 'README.md'), '# What goes here\n');
    writeFileSync(join(dir, 'Done', '00-setup.md'), '---\ntitle: Setup\n---\n');
    const target = await loadRunTarget(dir, { tests_command: 'npm test' });
    const plan = target.plans[0]!;
    expect(plan.tasks.map((t) => [t.name, t.decision, t.attributes.status])).toEqual([
      ['Summarise the inbox', 'loop', 'Approved'],
      ['Setup', 'skip', 'Done'],
    ]);
    target.onTaskResult!(plan, 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 });
    const moved = readFileSync(join(dir, 'Done', '01-inbox.md'), 'utf8');
    expect(moved.startsWith('---\r\nstate: Done\r\ncompleted_at: "')).toBe(true);
    expect(moved).toContain('\r\niterations: 1\r\n');
    expect(readFileSync(join(dir, 'Done', '01-inbox.md'), 'utf8')).toMatch(/---\r\n# Summarise the inbox\r\n\r\nOne line per file\.\r\n$/);
  });

  it('reads keys in any case and writes back the line the file has', () => {
    const dir = tempDir();
    const path = join(dir, '01-slug.md');
    writeFileSync(path, '---\nTitle: slugify()\nStatus: Approved # ready\nVerify: node t.mjs\nFiles: [src/slug.mjs]\n---\nBody\n');
    const plan = parseTaskFiles(load(dir), dir);
    expect(plan.tasks.map((t) => [t.name, t.decision, t.checks.map((c) => (c.kind === 'command_succeeds' ? c.command : '')), t.files])).toEqual([['slugify()', 'loop', ['node t.mjs'], ['src/slug.mjs']]]);
    writeTaskFileResult(plan, 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 }, NOW);
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('Status: Done # ready\n');
    expect(after).not.toMatch(/^status:/m);
    expect(parseTaskFiles(load(dir), dir).tasks[0]!.decision).toBe('skip');
  });

  it('reads acceptance criteria written as sentences like PRD sub-bullets, typed ones as before', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.md'),
      '---\nstatus: Approved\nacceptanceCriteria:\n  - "`node m.mjs` passes"\n  - "`src/s.mjs` contains `median`"\n  - type: file_exists\n    path: src/s.mjs\n  - Handles an empty list\n---\n',
    );
    const task = parseTaskFiles(load(dir), dir).tasks[0]!;
    expect(task.checks.map((c) => [c.kind, c.source.line])).toEqual([
      ['command_succeeds', 4],
      ['contains_text', 5],
      ['file_exists', 6],
    ]);
    expect(task.manual).toEqual(['Handles an empty list']);
  });
});

describe('the Persistence Loop: the folder is the state; the body says how a task is accepted', () => {
  it('runs what a human moved to Approved/ whatever its state key says, except a file that says Done', async () => {
    const { loadRunTarget } = await import('../../src/formats/detect.js');
    const { mkdirSync } = await import('node:fs');
    const dir = tempDir();
    for (const d of ['Approved', 'Done', 'Needs_Action']) mkdirSync(join(dir, d));
    writeFileSync(join(dir, 'Approved', 'a.md'), '---\nstate: Pending_Approval\nverify: test -d .\n---\n# Moved by a human\n');
    writeFileSync(join(dir, 'Approved', 'b.md'), '---\nstate: Rejected\nverify: test -d .\n---\n# Moved back to retry\n');
    writeFileSync(join(dir, 'Approved', 'c.md'), '---\nstate: Done\nverify: test -d .\n---\n# Written but not moved\n');
    writeFileSync(join(dir, 'Done', 'd.md'), '---\nstate: Approved\n---\n# Finished\n');
    writeFileSync(join(dir, 'Needs_Action', 'e.md'), '---\nstate: Needs_Action\n---\n# Not approved yet\n');
    const plan = (await loadRunTarget(dir)).plans[0]!;
    expect(plan.tasks.map((t) => [t.name, t.decision])).toEqual([
      ['Moved by a human', 'loop'],
      ['Moved back to retry', 'loop'],
      ['Written but not moved', 'skip'],
      ['Finished', 'skip'],
    ]);
    expect(plan.tasks[2]!.reason).toMatch(/says Done but it is in Approved\//);
  });

  it('reads the body\'s criteria sections: bullets like PRD sub-bullets, a shell fence as one script, with file lines', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.md'),
      [
        '---',
        'status: Approved',
        '---',
        'Limit POST /login.',
        '',
        '## Acceptance Criteria',
        '- [ ] `npm test -- login` passes',
        '- [ ] Error message is friendly',
        '',
        '## Notes',
        '- `not a check` passes',
        '',
        '### Verification:',
        '```bash',
        'npm run lint',
        '```',
      ].join('\n'),
    );
    const task = parseTaskFiles(load(dir), dir).tasks[0]!;
    expect(task.decision).toBe('loop');
    expect(task.checks.map((c) => [(c as { command: string }).command, c.source.line])).toEqual([
      ['npm test -- login', 7],
      ['npm run lint', 15],
    ]);
    expect(task.manual).toEqual(['Error message is friendly']);
  });
});

describe('vault folders around the lifecycle (held-out round 3)', () => {
  it('a vault without an approval stage: its action folder is the queue; a pass moves the file to Done/', async () => {
    const { loadRunTarget } = await import('../../src/formats/detect.js');
    const vault = tempDir();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(vault, 'Need_Action'));
    const task = '# Task: Data cleanup\n\n**Status:** Pending\n\n## Acceptance Criteria\n\n- `true` passes\n';
    writeFileSync(join(vault, 'Need_Action/cleanup.md'), task);
    const target = await loadRunTarget(vault, { now: () => NOW });
    expect(target.plans[0]!.tasks.map((t) => [t.name, t.decision])).toEqual([['Task: Data cleanup', 'loop']]);
    const written = target.onTaskResult!(target.plans[0]!, 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 });
    expect(written).toEqual([join(vault, 'Need_Action/cleanup.md'), join(vault, 'Done/cleanup.md')]);
    expect(readFileSync(join(vault, 'Done/cleanup.md'), 'utf8')).toMatch(/^---\nstate: Done\n[\s\S]*---\n# Task: Data cleanup\n/);
    // The queue folder named as the target reads the same.
    writeFileSync(join(vault, 'Need_Action/next.md'), '# Task: Next\n\n## Acceptance Criteria\n\n- `true` passes\n');
    expect((await loadRunTarget(join(vault, 'Need_Action'))).plans[0]!.tasks.map((t) => [t.name, t.decision])).toEqual([['Task: Next', 'loop']]);
  });

  it('with an approval stage, Needs_Action/ and Pending_Approval/ are listed with why, never run', async () => {
    const { loadRunTarget } = await import('../../src/formats/detect.js');
    const { mkdirSync } = await import('node:fs');
    const vault = tempDir();
    for (const d of ['Needs_Action', 'Pending_Approval', 'Approved']) mkdirSync(join(vault, d));
    writeFileSync(join(vault, 'Needs_Action/a.md'), '# Triage the inbox\n');
    writeFileSync(join(vault, 'Pending_Approval/b.md'), '# Send the invoice\n');
    writeFileSync(join(vault, 'Approved/c.md'), '# Draft the email\n');
    const plan = (await loadRunTarget(vault)).plans[0]!;
    expect(plan.tasks.map((t) => t.name)).toEqual(['Draft the email']);
    expect(plan.warnings).toEqual([
      'Needs_Action/a.md: not run: waits to be planned and approved (move it to Approved/ to run it)',
      "Pending_Approval/b.md: not run: waits for a person's approval (move it to Approved/ to run it)",
    ]);
    // Nothing approved at all: the error names what waits, not "no task files".
    const { rmSync } = await import('node:fs');
    rmSync(join(vault, 'Approved/c.md'));
    await expect(loadRunTarget(vault)).rejects.toMatchObject({ kind: 'target_unsupported', message: expect.stringContaining("nothing approved to run: Needs_Action/a.md waits to be planned and approved; Pending_Approval/b.md waits for a person's approval") });
  });

  it('task files held in another folder beside Approved/ (Blocked/) are listed, never run, whatever their status says', async () => {
    const { loadRunTarget } = await import('../../src/formats/detect.js');
    const { mkdirSync } = await import('node:fs');
    const dir = tempDir();
    for (const d of ['Approved', 'Blocked', 'Done', 'Plans']) mkdirSync(join(dir, d));
    writeFileSync(join(dir, 'Approved/1-a.md'), '---\r\ntitle: A\r\nstatus: Approved\r\nverify: test -d .\r\n---\r\n');
    writeFileSync(join(dir, 'Blocked/2-b.md'), '---\r\ntitle: B\r\nstatus: Approved\r\nblocked_by: IT\r\nverify: test -d .\r\n---\r\n');
    writeFileSync(join(dir, 'Blocked/README.md'), '---\nstatus: Approved\n---\nWhat Blocked/ is for.\n');
    writeFileSync(join(dir, 'Done/0-z.md'), '---\ntitle: Z\nstatus: Done\n---\n');
    writeFileSync(join(dir, 'Plans/p.md'), '---\ntitle: A plan\nstatus: Approved\n---\n');
    const plan = (await loadRunTarget(dir)).plans[0]!;
    expect(plan.tasks.map((t) => [t.name, t.decision])).toEqual([['A', 'loop'], ['B', 'skip'], ['Z', 'skip']]);
    expect(plan.tasks[1]!.reason).toBe('in Blocked/, not Approved/ (2-b.md); move it to Approved/ to run it');
  });
});
