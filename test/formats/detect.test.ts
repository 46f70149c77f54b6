import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import { RalfError } from '../../src/errors.js';
import { detectRunTarget, loadRunTarget, type ReadPlan } from '../../src/formats/detect.js';
import { buildPlan } from '../../src/formats/plan-builder.js';
import { repoRoot, tempDir } from '../helpers/cli.js';

const examples = join(repoRoot, 'examples');
const NOW = new Date('2026-02-03T04:05:06.000Z');

async function errorOf(fn: () => Promise<unknown>): Promise<RalfError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof RalfError) return err;
    throw err;
  }
  throw new Error('expected a RalfError');
}

const fakeReadPlan: ReadPlan = (path) => buildPlan({ kind: 'gsd-plan', path, id: `gsd:${path.split('/').pop()}`, objective: null, tasks: [] });

describe('loadRunTarget: the examples', () => {
  it('detects each example and sets the project root to the example directory', async () => {
    const cases: Array<[string, string, string]> = [
      ['prd-checklist/PRD.md', 'prd', 'prd-checklist'],
      ['ralph-json/ralph.json', 'ralph-json', 'ralph-json'],
      ['requirements/requirements.json', 'requirements', 'requirements'],
      ['task-files/tasks', 'task-files', 'task-files'],
      ['task-files', 'task-files', 'task-files'],
      ['task-files/tasks/002-parse-duration.md', 'task-files', 'task-files'],
    ];
    for (const [rel, kind, root] of cases) {
      const target = await loadRunTarget(join(examples, rel));
      expect([rel, target.kind, target.project_root, target.source]).toEqual([rel, kind, join(examples, root), join(examples, rel)]);
      expect(target.plans).toHaveLength(1);
    }
  });

  it('exposes ralph.json limits and write-back only where the format has status marks', async () => {
    const ralph = await loadRunTarget(join(examples, 'ralph-json/ralph.json'));
    expect(ralph.limits).toMatchObject({ max_iterations: 5, max_tokens: 200000 });
    expect(ralph.onTaskResult).toBeUndefined();
    for (const rel of ['prd-checklist/PRD.md', 'requirements/requirements.json', 'task-files/tasks']) {
      expect(typeof (await loadRunTarget(join(examples, rel))).onTaskResult).toBe('function');
    }
  });

  it('loads requirements with the history beside them', async () => {
    const target = await loadRunTarget(join(examples, 'requirements/requirements.json'));
    expect(target.plans[0]!.tasks[0]!.elements.history).toContain('success: passed after 2 iterations');
  });

  it('uses config checks.tests for criteria-less tasks', async () => {
    const config = { ...DEFAULT_CONFIG, checks: { tests: 'npm test' } };
    const target = await loadRunTarget(join(examples, 'prd-checklist/PRD.md'), { config });
    expect(target.plans[0]!.tasks[4]).toMatchObject({ decision: 'loop', checks: [{ kind: 'tests_pass', command: 'npm test' }] });
  });

  it('onTaskResult writes through to the source (a copied example)', async () => {
    const dir = tempDir();
    cpSync(join(examples, 'prd-checklist'), dir, { recursive: true });
    const target = await loadRunTarget(join(dir, 'PRD.md'), { now: () => NOW });
    expect(target.project_root).toBe(dir);
    target.onTaskResult!(target.plans[0]!, 2, { verdict: 'pass', stop_reason: 'success', iterations: 1 });
    expect(readFileSync(join(dir, 'PRD.md'), 'utf8')).toContain('- [x] Create `greet.js`');
    expect(readFileSync(join(dir, 'progress.md'), 'utf8')).toContain('## 2026-02-03T04:05:06.000Z — Task 2:');
  });
});

describe('loadRunTarget: GSD plans', () => {
  it('delegates a *PLAN.md to the GSD reader', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.planning/phases/01-setup'), { recursive: true });
    const plan = join(dir, '.planning/phases/01-setup/01-01-PLAN.md');
    writeFileSync(plan, '---\nphase: 01-setup\nplan: 01\n---\n');
    const target = await loadRunTarget(plan, { readPlan: fakeReadPlan });
    expect(target).toMatchObject({ kind: 'gsd-plan', project_root: dir, source: plan });
    expect(target.plans.map((p) => p.id)).toEqual(['gsd:01-01-PLAN.md']);
    expect(target.onTaskResult).toBeUndefined();
  });

  it('loads a phase directory as its plans in order; the reader may return { plan }', async () => {
    const dir = tempDir();
    const phase = join(dir, '.planning/phases/02-api');
    mkdirSync(phase, { recursive: true });
    for (const f of ['02-10-PLAN.md', '02-02-PLAN.md', '02-01-SUMMARY.md', '02-01-PLAN.md', 'notes.md']) writeFileSync(join(phase, f), '# x\n');
    const target = await loadRunTarget(phase, { readPlan: async (p) => ({ plan: fakeReadPlan(p, {}) as never }) });
    expect(target.kind).toBe('gsd-phase');
    expect(target.plans.map((p) => p.id)).toEqual(['gsd:02-01-PLAN.md', 'gsd:02-02-PLAN.md', 'gsd:02-10-PLAN.md']);
    expect(target.project_root).toBe(dir);
  });

  it('uses src/plan/read.ts by default', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.planning'));
    const plan = join(dir, '.planning/03-01-PLAN.md');
    writeFileSync(plan, '---\nphase: 03\nplan: 01\ntype: execute\nautonomous: true\n---\n\n<tasks>\n<task type="auto">\n  <name>Task 1: Make it</name>\n  <action>Do it</action>\n  <verify>test -f a.txt</verify>\n  <done>a.txt exists</done>\n</task>\n</tasks>\n');
    const target = await loadRunTarget(plan, { config: DEFAULT_CONFIG });
    expect(target.kind).toBe('gsd-plan');
    expect(target.plans[0]!.path).toBe(plan);
    expect(target.plans[0]!.tasks).toHaveLength(1);
  });
});

describe('detectRunTarget', () => {
  it('decides .json targets by name, then by shape', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'stories.json'), '{"requirements": []}');
    writeFileSync(join(dir, 'spec.json'), '{"task": "x", "acceptance_criteria": []}');
    writeFileSync(join(dir, 'list.json'), '[]');
    expect(detectRunTarget(join(dir, 'stories.json')).kind).toBe('requirements');
    expect(detectRunTarget(join(dir, 'spec.json')).kind).toBe('ralph-json');
    expect(detectRunTarget(join(dir, 'list.json')).kind).toBe('requirements');
    writeFileSync(join(dir, 'ralph.json'), '{ broken');
    expect(detectRunTarget(join(dir, 'ralph.json')).kind).toBe('ralph-json');
  });

  it('a PRD.md whose front matter has a document status is a checklist; a task file with a checklist stays a task file', () => {
    const dir = tempDir();
    const front = (status: string) => `---\ntitle: Weather CLI\nstatus: ${status}\n---\n\n# Weather CLI\n\n## Tasks\n\n- [ ] Read the city\n  - Verify: \`node check.mjs\`\n- [ ] Fall back to WEATHER_CITY\n`;
    writeFileSync(join(dir, 'PRD.md'), front('draft'));
    expect(detectRunTarget(join(dir, 'PRD.md')).kind).toBe('prd');
    writeFileSync(join(dir, 'prd.md'), front('approved'));
    expect(detectRunTarget(join(dir, 'prd.md')).kind).toBe('prd');
    // Any other name: the status is a task file's lifecycle, its checklist the task's criteria.
    writeFileSync(join(dir, '003-weather.md'), front('Approved'));
    expect(detectRunTarget(join(dir, '003-weather.md')).kind).toBe('task-files');
    // A PRD.md with a status and no checklist is still read as the one task it describes.
    writeFileSync(join(dir, 'PRD.md'), '---\nstatus: Approved\ntitle: One thing\n---\n\nDo the one thing.\n');
    expect(detectRunTarget(join(dir, 'PRD.md')).kind).toBe('task-files');
  });

  it('a ralph.json with no task whose criteria are work items (ralph-town) is a list of items; its passes is written back in its own tabs', async () => {
    const dir = tempDir();
    const text = '{\n\t"execution": { "mode": "sequential" },\n\t"acceptance_criteria": [\n\t\t{\n\t\t\t"id": "ac-001",\n\t\t\t"description": "Update deps",\n\t\t\t"steps": ["Run pnpm outdated"],\n\t\t\t"backpressure": "pnpm run build",\n\t\t\t"passes": false\n\t\t}\n\t],\n\t"max_iterations_per_criterion": 3\n}\n';
    writeFileSync(join(dir, 'ralph.json'), text);
    expect(detectRunTarget(join(dir, 'ralph.json')).kind).toBe('requirements');
    const target = await loadRunTarget(join(dir, 'ralph.json'), { now: () => NOW });
    expect(target.plans[0]!.tasks.map((t) => [t.name, t.decision])).toEqual([['ac-001: Update deps', 'loop']]);
    // Its own limit per criterion holds for each item, as ralph-town means it.
    expect(target.limits).toEqual({ max_iterations: 3, source: join(dir, 'ralph.json') });
    target.onTaskResult!(target.plans[0]!, 1, { verdict: 'pass', stop_reason: 'success', iterations: 1 });
    expect(readFileSync(join(dir, 'ralph.json'), 'utf8')).toBe(text.replace('"passes": false', '"passes": true'));
    // A ralph.json with its task keeps typed criteria as that task's checks.
    writeFileSync(join(dir, 'ralph.json'), '{"task": "x", "acceptance_criteria": [{ "type": "command_succeeds", "command": "true" }]}');
    expect(detectRunTarget(join(dir, 'ralph.json')).kind).toBe('ralph-json');
  });

  it("snarktank's progress.txt beside prd.json: its learnings reach every iteration's prompt", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'prd.json'), JSON.stringify({ userStories: [{ id: 'US-1', title: 'x', acceptanceCriteria: ['`true` passes'], passes: false }] }));
    writeFileSync(join(dir, 'progress.txt'), '# Ralph Progress Log\n## Codebase Patterns\n- Use the sql<number> template for aggregations\n---\n\n## 2026-06-12 - US-0\n- Did things\n- **Learnings for future iterations:**\n  - Config must stay backward compatible\n---\n');
    const target = await loadRunTarget(join(dir, 'prd.json'));
    expect(target.iterationContext!(target.plans[0]!, 1).learnings).toBe('- Use the sql<number> template for aggregations\n- Config must stay backward compatible');
    // A long log: the newest learnings, at its end, still reach the prompt.
    const entry = (n: number) => `## 2026-06-${String(n % 28 + 1).padStart(2, '0')} - US-${n}\n- ${'did a thing '.repeat(20)}\n- **Learnings for future iterations:**\n  - lesson ${n}\n---\n`;
    writeFileSync(join(dir, 'progress.txt'), `# Ralph Progress Log\n${Array.from({ length: 60 }, (_, n) => entry(n)).join('\n')}`);
    expect(target.iterationContext!(target.plans[0]!, 1).learnings!.split('\n').at(-1)).toBe('- lesson 59');
  });

  it('detects a PRD by its checklist and a task file by its status frontmatter', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'TODO.md'), 'Notes\n\n* [ ] one\n');
    writeFileSync(join(dir, 'task.md'), '\uFEFF---\r\ntitle: t\r\nstatus: Approved\r\n---\r\n- [ ] looks like a checklist\r\n');
    expect(detectRunTarget(join(dir, 'TODO.md')).kind).toBe('prd');
    expect(detectRunTarget(join(dir, 'task.md'))).toEqual({ kind: 'task-files', path: join(dir, 'task.md'), files: [join(dir, 'task.md')] });
  });

  it('refuses what it cannot run, naming what it accepts (exit 2)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.md'), '# Notes\n\n- a\n- b\n');
    writeFileSync(join(dir, 'data.json'), '{"a": 1}');
    writeFileSync(join(dir, 'x.txt'), '');
    mkdirSync(join(dir, 'empty'));
    const cases: Array<[string, string, RegExp]> = [
      ['missing.md', 'target_not_found', /no such file or directory/],
      ['notes.md', 'target_unsupported', /no checklist items/],
      ['data.json', 'target_unsupported', /neither a ralph\.json/],
      ['x.txt', 'target_unsupported', /unsupported file type "\.txt"/],
      ['empty', 'target_unsupported', /no \*-PLAN\.md files and no task files/],
    ];
    for (const [name, kind, message] of cases) {
      const err = await errorOf(() => loadRunTarget(join(dir, name)));
      expect([name, err.kind, err.exitCode]).toEqual([name, kind, 2]);
      expect(err.message).toMatch(message);
      expect(err.problems[0]!.hint).toMatch(/^ralf run takes a GSD PLAN\.md/);
    }
  });

  it('passes a format error through from the format reader', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ralph.json'), '{\n  "task": "x",\n  "acceptance_criteria": [ { "type": "nope" } ]\n}\n');
    const err = await errorOf(() => loadRunTarget(join(dir, 'ralph.json')));
    expect(err.kind).toBe('ralph_json_invalid');
    expect(err.problems[0]).toMatchObject({ key: 'acceptance_criteria[0].type', line: 3 });
  });
});

describe('project root', () => {
  it('is the .planning/ directory, else the nearest project marker, else the file\'s directory', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs/deep'), { recursive: true });
    writeFileSync(join(dir, 'docs/deep/PRD.md'), '- [ ] a Verify: `true`\n');
    expect((await loadRunTarget(join(dir, 'docs/deep/PRD.md'))).project_root).toBe(join(dir, 'docs/deep'));
    mkdirSync(join(dir, '.git'));
    expect((await loadRunTarget(join(dir, 'docs/deep/PRD.md'))).project_root).toBe(dir);
    writeFileSync(join(dir, 'docs/package.json'), '{}');
    expect((await loadRunTarget(join(dir, 'docs/deep/PRD.md'))).project_root).toBe(join(dir, 'docs'));
    mkdirSync(join(dir, '.planning'));
    expect((await loadRunTarget(join(dir, 'docs/deep/PRD.md'))).project_root).toBe(dir);
  });

  it('is a task directory\'s parent when nothing marks a project', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'backlog'));
    writeFileSync(join(dir, 'backlog/1.md'), '---\nstatus: Approved\nverify: "true"\n---\n');
    const target = await loadRunTarget(join(dir, 'backlog'));
    expect(target.project_root).toBe(dir);
    expect(target.plans[0]!.id).toBe('backlog');
  });
});

describe('detectRunTarget: JSON decided by shape', () => {
  it('takes prd.json-style lists of items and says what it takes when it cannot', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'prd.json'), '{"project": "p", "userStories": [{"id": "US-1", "title": "t", "passes": false}]}');
    expect(detectRunTarget(join(dir, 'prd.json')).kind).toBe('requirements');
    writeFileSync(join(dir, 'spec.json'), '{"task": "t", "acceptance_criteria": [{"id": 1, "description": "d"}]}');
    expect(detectRunTarget(join(dir, 'spec.json')).kind).toBe('ralph-json');
    writeFileSync(join(dir, 'other.json'), '{"name": "x", "items": [1, 2]}');
    expect(() => detectRunTarget(join(dir, 'other.json'))).toThrow(/userStories/);
  });
});

describe('detectRunTarget: a checklist named *PLAN.md', () => {
  it('is a PRD checklist when it has checklist items and no GSD <task>', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'fix_plan.md'), '# Fix plan\n\n- [ ] Lexer: escaped quotes. Verify: `make test`\n');
    writeFileSync(join(dir, 'IMPLEMENTATION_PLAN.md'), '## Next\n\n* [ ] Parser errors\n');
    writeFileSync(join(dir, '01-01-PLAN.md'), '---\nphase: 01\n---\n- [ ] a note\n<tasks>\n<task type="auto"><name>x</name></task>\n</tasks>\n');
    expect(detectRunTarget(join(dir, 'fix_plan.md')).kind).toBe('prd');
    expect(detectRunTarget(join(dir, 'IMPLEMENTATION_PLAN.md')).kind).toBe('prd');
    expect(detectRunTarget(join(dir, '01-01-PLAN.md')).kind).toBe('gsd-plan');
  });
});
