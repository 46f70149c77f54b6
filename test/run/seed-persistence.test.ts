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

  it('reads .specify/config/persistence.yaml (max_iterations, the 80 % warning, timeouts) and rejects a hard failure at once', async () => {
    const p = seedProject(
      {
        '.specify/config/persistence.yaml': `# .specify/config/persistence.yaml
persistence_loop:
  max_iterations: 4
  warn_threshold: 0.5  # Warn at 50% of max
  checkpoint_interval: 1  # Checkpoint after every step
  retry:
    max_attempts: 3
    backoff_strategy: exponential
    base_delay: 1.0  # seconds
    max_delay: 16.0  # seconds
    jitter: 0.2  # ±20%
  timeout:
    per_step: 120  # 2 minutes per step
    total: 3600  # 1 hour total per task
`,
        'Approved/task-005.md': taskFile('task-005', 'Make `g.txt` say ok'),
        'Approved/task-006.md': taskFile('task-006', 'Make `h.txt` say ok'),
      },
      // ralf's own stop rules set wide in the project config, so this task uses all its iterations.
      { checks: { tests: 'node gate.mjs' }, error_fingerprint_repeats: 10, no_progress_repeats: 10 },
    );
    const r = await seedRun(p, ['.'], { SEED_AGENT_FAIL: 'g.txt', SEED_AGENT_DENIED: 'h.txt' });
    expect(r.exitCode, r.stderr).toBe(20);
    expect(r.events[0]).toMatchObject({ type: 'run_start', iteration_timeout_ms: 120_000 });
    expect(ofType(r.events, 'task_start').map((e) => e.max_iterations)).toEqual([4, 4]);
    expect(ofType(r.events, 'task_end').map((e) => [e.name, e.outcome, e.stop_reason, e.iterations])).toEqual([
      ['Make `g.txt` say ok', 'stopped', 'max_iterations', 4],
      ['Make `h.txt` say ok', 'blocked', 'blocked', 0],
    ]);
    expect(ofType(r.events, 'warning').map((e) => e.message)).toContainEqual(expect.stringMatching(/2 of 4 iterations used \(50 % warning\)/));
    // The hard failure: one agent run, no iterations used up, the reason in the rejected task.
    expect(agentCalls(p).filter((n) => n.includes('h.txt'))).toHaveLength(1);
    const hard = matter(read(p, 'Rejected/task-006.md'));
    expect(hard.data.failure_reason).toMatch(/^hard failure: bash: \.\/deploy\.sh: Permission denied/);
    const exhausted = matter(read(p, 'Rejected/task-005.md'));
    expect(exhausted.data.persistence_loop).toMatchObject({ iteration: 4, max_iterations: 4, checkpoint: { current_step: 'rejected: max_iterations' } });
    expect(exhausted.data.persistence_loop.checkpoint.completed_steps).toHaveLength(4);
  });
});
