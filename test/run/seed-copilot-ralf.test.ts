/**
 * copilot_ralf (`.ralph/prd.md` + progress.md + AGENTS.md), tried as its users work: its own PRD
 * shape (`- [ ] **Task 1: ...** [effort: low]` with `Description:`, `Files:` and `Acceptance:`
 * sub-bullets), items identified by their text, `[x]`/`[~]` never run.
 */
import { describe, expect, it } from 'vitest';
import { git, ofType } from './helpers.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentCalls, agentSaw, commitAll, commitFiles, read, seedProject, seedRun, subjects, write } from './seed-helpers.js';

const task = (n: number, file: string, mark = ' ', acceptance = '`node gate.mjs` exits with code 0') => `- [${mark}] **Task ${n}: Make \`${file}\` say ok** [effort: low]
  - Description: Write ok into ${file}.
  - Files: ${file}
  - Acceptance: ${acceptance}
`;
const prd = (tasks: string[]) => `# PRD: Greeter

> Files that say ok

## Context

A tiny project; each task makes one file say ok.

## Tasks

${tasks.join('\n')}
## Notes

None.
`;

describe('copilot_ralf: .ralph/prd.md', () => {
  it('runs its own PRD, identifies items by text, never runs [x] or [~] items, commits the marks', async () => {
    const p = seedProject({ '.ralph/prd.md': prd([task(1, 'a.txt'), task(2, 'b.txt')]) }, { run: {} });

    const r1 = await seedRun(p, ['.ralph/prd.md']);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(ofType(r1.events, 'task_end').map((e) => [e.name, e.outcome])).toEqual([['Make `a.txt` say ok', 'passed'], ['Make `b.txt` say ok', 'passed']]);
    expect(read(p, '.ralph/prd.md')).toBe(prd([task(1, 'a.txt', 'x'), task(2, 'b.txt', 'x')]));
    expect(subjects(p)[0]).toBe('feat(prd): Make `b.txt` say ok');
    expect(commitFiles(p, 'HEAD')).toEqual(['M .ralph/prd.md', 'M .ralph/progress.md', 'A b.txt']);

    // A task added above the finished ones, another blocked one, the list reordered: only the new one runs.
    write(p, '.ralph/prd.md', prd([task(0, 'c.txt'), task(2, 'b.txt', 'x'), task(9, 'z.txt', '~'), task(1, 'a.txt', 'x')]));
    commitAll(p, 'new task on top');
    const r2 = await seedRun(p, ['.ralph/prd.md']);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(agentCalls(p)).toEqual(['Task 1: Make `a.txt` say ok', 'Task 2: Make `b.txt` say ok', 'Task 0: Make `c.txt` say ok']);
    expect(ofType(r2.events, 'task_end').map((e) => [e.task, e.outcome, e.detail])).toEqual([
      [1, 'passed', expect.any(String)],
      [2, 'not_runnable', 'already done ([x] in prd.md)'],
      [3, 'not_runnable', 'marked blocked ([~] in prd.md); change it to [ ] to retry'],
      [4, 'not_runnable', 'already done ([x] in prd.md)'],
    ]);
    expect(git(p.root, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');
  });

  it('its decision matrix, BLOCKED → [~], the stagnation breaker, AGENTS.md and learnings in every prompt, its flags and environment', async () => {
    const p = seedProject(
      {
        '.ralph/prd.md': prd([task(1, 'a.txt', ' ', 'npm test passes'), task(2, 'b.txt'), task(3, 'c.txt'), task(4, 'd.txt'), task(5, 'e.txt')]),
        '.ralph/progress.md': '# Ralph Loop Progress\n\n## Learnings\n\n- gate.mjs checks every .txt file\n\n## Iteration Log\n',
        'AGENTS.md': '# Agent instructions\n\nRun `node gate.mjs` after every change.\n',
        'package.json': `${JSON.stringify({ name: 'seed', private: true, scripts: { test: 'node gate.mjs' } })}\n`,
      },
      { run: {} },
    );
    const env = { RALPH_LOOP_MODEL: 'gpt-4.1', RALPH_MAX_ITERATIONS: '2', RALPH_MAX_STAGNANT: '2', RALPH_AUTO_COMMIT: 'false', SEED_AGENT_MARK: '.ralph/prd.md', SEED_AGENT_FAIL: 'b.txt', SEED_AGENT_BLOCK: 'c.txt' };
    const r = await seedRun(p, ['-p', '.', '--loop-only', '--skip-review'], env);
    expect(r.exitCode, r.stderr).toBe(20);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'passed'], [2, 'stopped'], [3, 'blocked']]);
    expect(ofType(r.events, 'task_start').map((e) => e.max_iterations)).toEqual([2, 2, 2]);
    expect(r.events.at(-1)).toMatchObject({ type: 'run_end', reason: 'stagnation' });
    expect(ofType(r.events, 'verify').map((e) => [e.task, e.signals])).toEqual([[1, 'VERIFIED'], [2, 'PARTIAL'], [2, 'PARTIAL']]);
    expect(read(p, '.ralph/prd.md')).toBe(prd([task(1, 'a.txt', 'x', 'npm test passes'), task(2, 'b.txt', '~'), task(3, 'c.txt', '~'), task(4, 'd.txt'), task(5, 'e.txt')]));
    const progress = read(p, '.ralph/progress.md');
    expect(progress).toMatch(/Task 1: Task 1: Make `a\.txt` say ok\n\n- Result: passed after 1 iteration; marked \[x\]\n- Status: VERIFIED\n- Learnings: done in one iteration/);
    expect(progress).toMatch(/- Status: BLOCKED/);
    expect(progress).toMatch(/- Learnings: not done: `node gate\.mjs`: Error: not ok: b\.txt/);
    // AGENTS.md and progress.md's learnings in every prompt, read fresh: task 2 sees what task 1 taught.
    const prompt2 = readFileSync(join(p.logDir, '2.txt'), 'utf8');
    expect(prompt2).toContain('Run `node gate.mjs` after every change.');
    expect(prompt2).toContain('- gate.mjs checks every .txt file');
    expect(prompt2).toContain('- Learnings: done in one iteration');
    expect(agentSaw(p, 1).model).toBe('gpt-4.1');
    expect(subjects(p)).toEqual(['init']);

    const planOnly = await seedRun(p, ['-p', '.', '--plan-only']);
    expect(planOnly.exitCode).toBe(2);
    expect(JSON.stringify(JSON.parse(planOnly.stdout.trim().split('\n').at(-1)!).error)).toMatch(/ralf plan-prd/);
  });
});
