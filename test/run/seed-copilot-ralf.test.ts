/**
 * copilot_ralf (`.ralph/prd.md` + progress.md + AGENTS.md), tried as its users work: its own PRD
 * shape (`- [ ] **Task 1: ...** [effort: low]` with `Description:`, `Files:` and `Acceptance:`
 * sub-bullets), items identified by their text, `[x]`/`[~]` never run.
 */
import { describe, expect, it } from 'vitest';
import { git, ofType } from './helpers.js';
import { agentCalls, commitAll, commitFiles, read, seedProject, seedRun, subjects, write } from './seed-helpers.js';

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
});
