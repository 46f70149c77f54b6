/**
 * The Persistence Loop (task files in Approved/ → Done/ | Rejected/), tried as its users work:
 * its own task file (`state: Approved` with a `persistence_loop:` checkpoint block), the
 * lifecycle folders, a rejected task that carries its failure context, and the run going on.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { git, ofType } from './helpers.js';
import { agentCalls, commitAll, commitFiles, read, seedProject, seedRun, subjects, write } from './seed-helpers.js';

/** The seed's own task file (its Checkpoint Format example), with a body our scripted agent reads. */
const taskFile = (id: string, title: string) => `---
id: ${id}
state: Approved
created: 2026-01-27T10:00:00Z
title: ${title}
persistence_loop:
  started: 2026-01-27T10:05:00Z
  iteration: 15
  max_iterations: 100
  checkpoint:
    completed_steps:
      - step_1: read_input
      - step_2: validate_data
      - step_3: transform_data
    current_step: step_4_execute_api_call
    state_data:
      api_attempt: 2
      last_error: "timeout"
    timestamp: 2026-01-27T10:06:30Z
---

# Task content...
`;

describe('the Persistence Loop: Approved/ → Done/ | Rejected/', () => {
  it('runs Approved tasks by their id, moves them, updates the checkpoint block, rejects with context and goes on', async () => {
    const p = seedProject({ 'Approved/task-001.md': taskFile('task-001', 'Make `a.txt` say ok'), 'Approved/task-002.md': taskFile('task-002', 'Make `b.txt` say ok') });

    const r1 = await seedRun(p, ['.']);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(ofType(r1.events, 'task_end').map((e) => [e.name, e.outcome])).toEqual([['Make `a.txt` say ok', 'passed'], ['Make `b.txt` say ok', 'passed']]);
    expect(existsSync(join(p.root, 'Approved/task-001.md'))).toBe(false);
    const done = matter(read(p, 'Done/task-001.md'));
    expect(done.data.state).toBe('Done');
    expect(done.data.persistence_loop).toMatchObject({ iteration: 1, max_iterations: 100, checkpoint: { current_step: 'done', completed_steps: ['iteration_1: pass, 1/1 checks pass'] } });
    expect(new Date(done.data.persistence_loop.started).toISOString()).toBe('2026-01-27T10:05:00.000Z');
    expect(commitFiles(p, 'HEAD~1').sort()).toEqual(['A Done/task-001.md', 'A a.txt', 'D Approved/task-001.md']);

    // A new task approved beside the finished ones: only it runs.
    write(p, 'Approved/task-000.md', taskFile('task-000', 'Make `c.txt` say ok'));
    commitAll(p, 'approve task-000');
    const r2 = await seedRun(p, ['.']);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(agentCalls(p)).toEqual(['Make `a.txt` say ok', 'Make `b.txt` say ok', 'Make `c.txt` say ok']);
    expect(ofType(r2.events, 'task_end').filter((e) => e.outcome === 'not_runnable').map((e) => e.detail)).toEqual([
      'already done (in Done/: task-001.md)',
      'already done (in Done/: task-002.md)',
    ]);

    // A task that cannot be done: moved to Rejected/ with its failure context; the next one still runs.
    write(p, 'Approved/task-003.md', taskFile('task-003', 'Make `d.txt` say ok'));
    write(p, 'Approved/task-004.md', taskFile('task-004', 'Make `e.txt` say ok'));
    commitAll(p, 'approve 3 and 4');
    const r3 = await seedRun(p, ['.'], { SEED_AGENT_FAIL: 'd.txt' });
    expect(r3.exitCode, r3.stderr).toBe(20);
    expect(ofType(r3.events, 'task_end').filter((e) => e.outcome !== 'not_runnable').map((e) => [e.name, e.outcome])).toEqual([
      ['Make `d.txt` say ok', 'stopped'],
      ['Make `e.txt` say ok', 'passed'],
    ]);
    const rejected = matter(read(p, 'Rejected/task-003.md'));
    expect(rejected.data).toMatchObject({ state: 'Rejected', id: 'task-003' });
    expect(rejected.data.persistence_loop.checkpoint.state_data).toMatchObject({ checks_total: 1, checks_passed: 0 });
    expect(rejected.content).toContain('## Rejected by ralf run');
    expect(rejected.content).toContain('### Retry history');
    expect(rejected.content).toContain('Error: not ok: d.txt');
    expect(existsSync(join(p.root, 'd.txt'))).toBe(false);
    expect(subjects(p)[1]).toMatch(/^chore\(\S+\): Make `d\.txt` say ok \(/);
    expect(commitFiles(p, 'HEAD~1').sort()).toEqual(['A Rejected/task-003.md', 'D Approved/task-003.md']);
    expect(git(p.root, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');
  });
});
