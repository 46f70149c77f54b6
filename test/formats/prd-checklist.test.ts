import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalfError } from '../../src/errors.js';
import { findPrdItems, parsePrdChecklist, progressEntry, setPrdMark, writePrdResult } from '../../src/formats/prd-checklist.js';
import { repoRoot, tempDir } from '../helpers/cli.js';

const example = join(repoRoot, 'examples/prd-checklist/PRD.md');
const NOW = new Date('2026-02-03T04:05:06.000Z');

function parse(text: string, options = {}) {
  return parsePrdChecklist(text, '/p/PRD.md', options);
}

describe('parsePrdChecklist: the example', () => {
  const plan = parsePrdChecklist(readFileSync(example, 'utf8'), example);

  it('synthesizes the plan id and keeps the absolute path', () => {
    expect(plan.id).toBe('PRD');
    expect(plan.path).toBe(example);
    expect(plan.objective).toBe('PRD: greet, a tiny greeting CLI');
    expect(plan.frontmatter.extra.format).toBe('prd');
    expect(plan.plan_decision.decision).toBe('skip');
  });

  it('numbers the checklist items 1..N with their lines and decisions', () => {
    expect(plan.tasks.map((t) => [t.number, t.line, t.decision, t.name])).toEqual([
      [1, 11, 'skip', 'Create the package (`package.json`)'],
      [2, 16, 'loop', 'Create `greet.js` that prints `Hello, <name>!` for its first argument'],
      [3, 19, 'loop', 'Without an argument, greet the world.'],
      [4, 20, 'loop', 'Document usage in the README'],
      [5, 23, 'skip', 'Make the greeting feel friendly and on-brand'],
      [6, 24, 'refuse', '(human) Product owner approves the final wording'],
    ]);
  });

  it('reads sub-bullets and inline Verify: into checks', () => {
    const [, t2, t3, t4] = plan.tasks;
    expect(t2!.checks).toEqual([
      { kind: 'file_exists', path: 'greet.js', source: { element: 'criteria', line: 17 } },
      { kind: 'command_succeeds', command: 'test "$(node greet.js Ada)" = "Hello, Ada!"', source: { element: 'criteria', line: 18 } },
    ]);
    expect(t3!.checks).toEqual([{ kind: 'command_succeeds', command: 'test "$(node greet.js)" = "Hello, world!"', source: { element: 'verify', line: 19 } }]);
    expect(t4!.checks.map((c) => c.kind)).toEqual(['contains_text', 'contains_text']);
    expect(t4!.checks[1]).toMatchObject({ path: 'README.md', text: 'node greet.js <name>' });
    expect(t2!.elements.section).toBe('Tasks');
    expect(t2!.type).toBe('auto');
  });

  it('gives specific reasons for skip and refuse', () => {
    expect(plan.tasks[0]!.reason).toBe('already done ([x] in PRD.md)');
    expect(plan.tasks[4]!.reason).toMatch(/^not objectively verifiable/);
    expect(plan.tasks[4]!.checks).toEqual([]);
    expect(plan.tasks[5]!.reason).toBe('checkpoint:human-verify tasks need a human; never wrapped or auto-approved');
    expect(plan.tasks[5]!.type).toBe('checkpoint:human-verify');
  });

  it('verifies prose-only items with the project test command when one is configured', () => {
    const withTests = parsePrdChecklist(readFileSync(example, 'utf8'), example, { tests_command: 'npm test' });
    expect(withTests.tasks[4]).toMatchObject({ decision: 'loop', checks: [{ kind: 'tests_pass', command: 'npm test', source: { element: 'checks.tests', line: 23 } }] });
    // Human gates stay refused whatever is configured.
    expect(withTests.tasks[5]!.decision).toBe('refuse');
  });
});

describe('parsePrdChecklist: edge cases', () => {
  it('handles CRLF, unicode, [~] and nested checklists', () => {
    const text = '# Ünïcode PRD 🚀\r\n\r\n- [ ] Café: créer `menu.txt`\r\n  - `menu.txt` contains "crème brûlée"\r\n  - [ ] Nested task Verify: `true`\r\n    - plain prose note\r\n- [~] Blocked one\r\n  - Verify: `false`\r\n';
    const plan = parse(text);
    expect(plan.tasks.map((t) => [t.number, t.name, t.line, t.decision])).toEqual([
      [1, 'Café: créer `menu.txt`', 3, 'loop'],
      [2, 'Nested task', 5, 'loop'],
      [3, 'Blocked one', 7, 'skip'],
    ]);
    expect(plan.tasks[0]!.checks).toEqual([{ kind: 'contains_text', path: 'menu.txt', text: 'crème brûlée', source: { element: 'criteria', line: 4 } }]);
    expect(plan.tasks[1]!.manual).toEqual(['plain prose note']);
    expect(plan.tasks[2]!.reason).toBe('marked blocked ([~] in PRD.md); change it to [ ] to retry');
    expect(plan.objective).toBe('Ünïcode PRD 🚀');
  });

  it('takes the closing #s off headings, and reads a heading of thousands of spaces at once (a regex took 2.4 s per such line)', () => {
    const wide = Array.from({ length: 20 }, (_, i) => `## Later${' '.repeat(2000)}${i} #\n\n- [ ] Item ${i} Verify: \`true\`\n`).join('\n');
    const plan = parse(`# PRD\n\n## Tasks ##\n\n- [ ] First Verify: \`true\`\n\n${wide}`);
    expect(plan.tasks.map((t) => t.elements.section).slice(0, 3)).toEqual(['Tasks', `Later${' '.repeat(2000)}0`, `Later${' '.repeat(2000)}1`]);
  });

  it('ignores checkboxes in code blocks and finds them in blockquotes and ordered lists', () => {
    const text = ['```md', '- [ ] not a task', '```', '', '> - [ ] quoted', '>   - `true`', '', '1. [X] numbered done', '2) [ ] numbered open Verify: `exit 0`', ''].join('\n');
    const plan = parse(text);
    expect(plan.tasks.map((t) => [t.name, t.decision])).toEqual([
      ['quoted', 'loop'],
      ['numbered done', 'skip'],
      ['numbered open', 'loop'],
    ]);
    expect(plan.tasks[0]!.checks[0]).toMatchObject({ kind: 'command_succeeds', command: 'true' });
  });

  it('reads a Verify: line continuing the item paragraph, and keeps other lines as description', () => {
    const plan = parse('- [ ] Build the thing\n  with care and attention\n  Verify: `make check`\n');
    expect(plan.tasks[0]!.name).toBe('Build the thing');
    expect(plan.tasks[0]!.checks).toEqual([{ kind: 'command_succeeds', command: 'make check', source: { element: 'verify', line: 3 } }]);
    expect(plan.tasks[0]!.elements.action).toBe('Build the thing\nwith care and attention');
  });

  it('never guesses commands from prose or from code spans that are not commands', () => {
    const plan = parse('- [ ] Add a `greet()` function\n  - It should be nice\n  - tests pass\n');
    expect(plan.tasks[0]!.checks).toEqual([]);
    expect(plan.tasks[0]!.decision).toBe('skip');
    expect(plan.tasks[0]!.reason).toContain('needs a test command');
    expect(plan.tasks[0]!.manual).toEqual(['It should be nice', 'tests pass']);
  });

  it('recognises checkpoint markers', () => {
    const plan = parse('- [ ] Deploy\n  - checkpoint:human-action\n  - Verify: `true`\n- [ ] Pick a name #human\n- [ ] Ship\n  - Human: sign the release\n  - Verify: `true`\n');
    expect(plan.tasks.map((t) => [t.decision, t.type])).toEqual([
      ['refuse', 'checkpoint:human-action'],
      ['refuse', 'checkpoint:human-verify'],
      ['refuse', 'checkpoint:human-verify'],
    ]);
  });

  it('warns when there are no items', () => {
    expect(parse('# Nothing\n\nJust prose.\n').warnings).toEqual(['PRD.md: no checklist items (- [ ] ...) found']);
  });
});

describe('write-back', () => {
  it('changes only the mark character', () => {
    const text = '\uFEFF# T\r\n\r\n- [ ] One Verify: `true`\r\n- [ ] Twö ✓ Verify: `true`\r\n';
    const plan = parse(text);
    const passed = setPrdMark(text, plan.tasks[1]!, 'x');
    expect(passed).toBe(text.replace('- [ ] Twö', '- [x] Twö'));
    const blocked = setPrdMark(passed, plan.tasks[0]!, '~');
    expect(blocked).toBe('\uFEFF# T\r\n\r\n- [~] One Verify: `true`\r\n- [x] Twö ✓ Verify: `true`\r\n');
    expect(findPrdItems(blocked).map((i) => i.mark)).toEqual(['~', 'x']);
  });

  it('finds the item again by name after the agent inserted items above it', () => {
    const plan = parse('- [ ] A Verify: `true`\n- [ ] B Verify: `true`\n');
    const edited = '- [ ] New first item\n- [ ] A Verify: `true`\n- [ ] B Verify: `true`\n';
    expect(setPrdMark(edited, plan.tasks[1]!, 'x')).toBe('- [ ] New first item\n- [ ] A Verify: `true`\n- [x] B Verify: `true`\n');
  });

  it('refuses to guess when the item is gone', () => {
    const plan = parse('- [ ] A Verify: `true`\n');
    expect(() => setPrdMark('- [ ] Renamed\n', plan.tasks[0]!, 'x')).toThrow(RalfError);
  });

  it('writes the PRD atomically and appends to progress.md beside it', () => {
    const dir = tempDir();
    const prd = join(dir, 'PRD.md');
    copyFileSync(example, prd);
    const before = readFileSync(prd, 'utf8');
    const plan = parsePrdChecklist(before, prd);
    writePrdResult(plan, 2, { verdict: 'pass', stop_reason: 'success', iterations: 2 }, NOW);
    writePrdResult(plan, 3, { verdict: 'stop', stop_reason: 'no_progress', iterations: 3 }, NOW);
    const after = readFileSync(prd, 'utf8');
    expect(after).toBe(before.replace('- [ ] Create `greet.js`', '- [x] Create `greet.js`').replace('- [ ] Without an argument', '- [~] Without an argument'));
    const progress = readFileSync(join(dir, 'progress.md'), 'utf8');
    expect(progress).toBe(
      [
        '# Progress',
        '',
        'Written by `ralf run`: one entry per finished task of PRD.md.',
        '',
        '## 2026-02-03T04:05:06.000Z — Task 2: Create `greet.js` that prints `Hello, <name>!` for its first argument',
        '',
        '- Result: passed after 2 iterations; marked [x]',
        '',
        '## 2026-02-03T04:05:06.000Z — Task 3: Without an argument, greet the world.',
        '',
        '- Result: stopped (no_progress) after 3 iterations; marked [~]',
        '',
        '',
      ].join('\n'),
    );
    // Re-reading gives the new decisions.
    const again = parsePrdChecklist(after, prd);
    expect(again.tasks.slice(1, 3).map((t) => t.decision)).toEqual(['skip', 'skip']);
  });

  it('keeps notes the agent appended to progress.md', () => {
    const dir = tempDir();
    const prd = join(dir, 'PRD.md');
    writeFileSync(prd, '- [ ] A Verify: `true`\n');
    writeFileSync(join(dir, 'progress.md'), 'agent notes without newline');
    writePrdResult(parsePrdChecklist(readFileSync(prd, 'utf8'), prd), 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 }, NOW);
    expect(readFileSync(join(dir, 'progress.md'), 'utf8')).toBe(`agent notes without newline\n\n${progressEntry({ number: 1, name: 'A' }, { verdict: 'pass', stop_reason: 'success', iterations: 1 }, NOW)}`);
  });
});

describe('PRD checklists as generators and people write them', () => {
  it('reads bold labels like plain ones, and a label alone as the heading of its sub-list', () => {
    const text = [
      '- [ ] **Task 1: Server** [effort: low]',
      '  - **Description:** Set up `src/server.js`',
      '  - **Files**: `src/server.js`, `package.json`',
      '  - **Acceptance criteria:**',
      '    - `npm test` passes',
      '    - `src/server.js` exists',
      '- [ ] Tag it **Verify:** `git tag --list v1 | grep -q v1`',
    ].join('\n');
    const plan = parsePrdChecklist(text, '/p/PRD.md');
    expect(plan.tasks.map((t) => [t.name, t.decision, t.checks.map((c) => (c.kind === 'file_exists' ? c.path : (c as { command: string }).command)), t.manual, t.files])).toEqual([
      ['Task 1: Server', 'loop', ['npm test', 'src/server.js'], [], ['src/server.js', 'package.json']],
      ['Tag it', 'loop', ['git tag --list v1 | grep -q v1'], [], []],
    ]);
    expect(plan.tasks[0]!.elements.action).toBe('Task 1: Server\nSet up `src/server.js`');
  });

  it('runs a shell fence under an item as ONE script (GSD fence rules); other languages are examples, not criteria', () => {
    const text = [
      '# Health',
      '',
      '- [ ] Health endpoint',
      '  ```bash',
      '  node scripts/serve.mjs &',
      '  curl -fsS localhost:8080/health',
      '  ```',
      '- [ ] Docs snippet',
      '  - Example:',
      '    ```js',
      '    await fetch("/health");',
      '    ```',
      '- [ ] Session',
      '  ```console',
      '  $ npm run build',
      '  > built in 2s',
      '  ```',
    ].join('\n');
    const plan = parsePrdChecklist(text, '/p/PRD.md');
    expect(plan.tasks.map((t) => [t.decision, t.checks.map((c) => [(c as { command: string }).command, c.source.line]), t.manual])).toEqual([
      ['loop', [['node scripts/serve.mjs &\ncurl -fsS localhost:8080/health', 5]], []],
      ['skip', [], []],
      ['loop', [['npm run build', 15]], []],
    ]);
    expect(plan.tasks[1]!.elements.action).toContain('await fetch("/health");');
  });
});

describe('HTML comments in checklist items', () => {
  it('are not part of the name or the criteria (they are invisible when rendered)', () => {
    const plan = parsePrdChecklist('1. [ ] Create user model <!-- group: 1 -->\n   - `src/user.ts` exists <!-- owner: a -->\n', '/p/RALPH_TASK.md');
    expect(plan.tasks.map((t) => [t.name, t.attributes.id, t.checks.map((c) => (c as { path: string }).path)])).toEqual([['Create user model', 'create-user-model', ['src/user.ts']]]);
  });
});

describe('user stories: a heading whose checklist is its acceptance criteria', () => {
  const text = [
    '# PRD: Priority',
    '',
    '## User Stories',
    '',
    '### US-001: Priority column',
    '**Description:** As a developer, I store priority.',
    '',
    '**Acceptance Criteria:**',
    '- [x] `db/schema.sql` contains `priority`',
    '- [x] Typecheck passes',
    '',
    '### US-002: Badge',
    '**Description:** As a user, I see priority.',
    '',
    '**Acceptance Criteria:**',
    '- [ ] `npm test -- badge` passes',
    '- [ ] Verify in browser',
    '',
    '## Non-Goals',
    '',
    '- [ ] a plain checklist elsewhere stays a task',
  ].join('\n');

  it('makes the heading the task, its boxes the criteria, done when every box is ticked', () => {
    const plan = parsePrdChecklist(text, '/p/prd.md');
    expect(plan.tasks.map((t) => [t.name, t.decision, t.line, t.checks.map((c) => c.kind), t.manual])).toEqual([
      ['US-001: Priority column', 'skip', 5, ['contains_text'], ['Typecheck passes']],
      ['US-002: Badge', 'loop', 12, ['command_succeeds'], ['Verify in browser']],
      ['a plain checklist elsewhere stays a task', 'skip', 21, [], []],
    ]);
    expect(plan.tasks[1]!.elements.action).toBe('US-002: Badge\nAs a user, I see priority.');
    expect(plan.tasks[0]!.not_runnable).toMatch(/already done/);
  });

  it('writes a pass as every box ticked, a stop as the first open box [~], and finds the story by its heading', () => {
    const plan = parsePrdChecklist(text, '/p/prd.md');
    const story = plan.tasks[1]!;
    const passed = setPrdMark(text, story, 'x');
    expect(passed).toBe(text.replace('- [ ] `npm test', '- [x] `npm test').replace('- [ ] Verify', '- [x] Verify'));
    expect(parsePrdChecklist(passed, '/p/prd.md').tasks[1]!.decision).toBe('skip');
    const stopped = setPrdMark(text, story, '~');
    expect(stopped).toBe(text.replace('- [ ] `npm test', '- [~] `npm test'));
    expect(parsePrdChecklist(stopped, '/p/prd.md').tasks[1]!.reason).toMatch(/marked blocked/);
    expect(setPrdMark(stopped, story, ' ')).toBe(text);
  });
});

describe('fix_plan.md shapes (held-out round 3)', () => {
  it('a bold title set off by a dash names the item; the rest of its lines describe it', () => {
    const text = '## Backlog\n\n- [x] **Domain model** — `Vocation` (per-level gains and\n      outfit), all per `specs/01-domain.md`. *[+0]*\n\n- [ ] **Frontend scaffold** — `App.tsx` with the four controls. *[+4]*\n';
    const plan = parse(text);
    expect(plan.tasks.map((t) => [t.name, t.decision, t.not_runnable !== undefined])).toEqual([
      ['Domain model', 'skip', true],
      ['Frontend scaffold', 'skip', false],
    ]);
    expect(plan.tasks[1]!.elements.action).toBe('Frontend scaffold\n`App.tsx` with the four controls. *[+4]*');
    // copilot_ralf's bold task titles keep their reading.
    expect(parse('- [ ] **Task 1: Setup** [effort: low]\n  - Acceptance: `true` passes\n').tasks[0]!.name).toBe('Task 1: Setup');
  });

  it('a numbered queue without checkboxes: items that say how they are verified are open tasks; a pass inserts [x] and nothing else', () => {
    const text = [
      '# fix_plan.md',
      '',
      'Rules:',
      '',
      '1. Keep it short.',
      '2. Each item must have a verification command.',
      '',
      '## Queue',
      '',
      '1. Brain: add artifact tools',
      '   - Spec: `specs/17-brain.md`',
      '   - Done when:',
      '     - Brain exposes `artifact_import`',
      '     - Offline tests cover import/write',
      '   - Verify: `cargo test -p brain`',
      '',
      '2. Brain: job groups',
      '   - Verify: `cargo test -p brain -- groups`',
      '',
      '## Completed',
      '',
      '- 2026-02-27: Implemented `brain` v1',
      '  - Spec: `specs/14-brain.md`',
      '',
    ].join('\n');
    const plan = parse(text);
    expect(plan.tasks.map((t) => [t.name, t.decision, t.checks.map((c) => ('command' in c ? c.command : '')), t.manual])).toEqual([
      ['Brain: add artifact tools', 'loop', ['cargo test -p brain'], ['Brain exposes `artifact_import`', 'Offline tests cover import/write']],
      ['Brain: job groups', 'loop', ['cargo test -p brain -- groups'], []],
    ]);
    const passed = setPrdMark(text, plan.tasks[1]!, 'x');
    expect(passed).toBe(text.replace('2. Brain: job groups', '2. [x] Brain: job groups'));
    // Read again, the ticked item is done and the other still open: the same items, the same ids.
    const again = parse(passed);
    expect(again.tasks.map((t) => [t.attributes.id, t.not_runnable !== undefined])).toEqual([
      [plan.tasks[0]!.attributes.id, false],
      [plan.tasks[1]!.attributes.id, true],
    ]);
    expect(setPrdMark(passed, again.tasks[0]!, '~')).toBe(passed.replace('1. Brain: add artifact tools', '1. [~] Brain: add artifact tools'));
  });

  it('numbered steps in a checklist PRD stay instructions, even with a Verify: under them', () => {
    const text = '## Setup\n\n1. Install the tools\n   - Verify: `node --version`\n\n## Tasks\n\n- [ ] Add greet.js\n  - Verify: `node greet.js`\n';
    expect(parse(text).tasks.map((t) => t.name)).toEqual(['Add greet.js']);
  });
});

describe('nested boxes: a box with boxes under it groups them', () => {
  const text = '## High\n\n- [ ] Lexer: string literals\n  - [x] Reproduce with a failing case\n  - [ ] Handle escapes. Verify: `make test-lexer`\n- [ ] Parser: unclosed brace\n  - Verify: `make test-parser`\n';

  it('is never sent to an agent itself: its sub-items are the tasks, it is done when they are', () => {
    const plan = parse(text);
    expect(plan.tasks.map((t) => [t.name, t.decision, t.not_runnable ?? null])).toEqual([
      ['Lexer: string literals', 'skip', 'groups its 2 sub-items (1 open); it is done when they are'],
      ['Reproduce with a failing case', 'skip', 'already done ([x] in PRD.md)'],
      ['Handle escapes.', 'loop', null],
      ['Parser: unclosed brace', 'loop', null],
    ]);
    // A parent with a check of its own stays a task (verified after its sub-items are written).
    expect(parse('- [ ] Feature\n  - Verify: `make all`\n  - [ ] Step one. Verify: `make one`\n').tasks.map((t) => t.decision)).toEqual(['loop', 'loop']);
  });

  it('when the last open sub-item passes, its group is ticked too; nothing else changes', () => {
    const dir = tempDir();
    const path = join(dir, 'fix_plan.md');
    writeFileSync(path, text);
    const plan = parsePrdChecklist(text, path);
    writePrdResult(plan, 3, { verdict: 'pass', stop_reason: 'success', iterations: 1 }, NOW);
    expect(readFileSync(path, 'utf8')).toBe(text.replace('- [ ] Lexer', '- [x] Lexer').replace('- [ ] Handle', '- [x] Handle'));
  });
});
