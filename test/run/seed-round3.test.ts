/**
 * Held-out round 3's shapes, run end to end in a real temp git repo with the scripted agent
 * (test/run/agents/agent.mjs: it fixes the files its `node check.mjs a b` check names, one per
 * iteration): a ralph-town ralph.json whose criteria are work items with a `backpressure`
 * command, and a fix_plan.md queue without checkboxes. Each passing item is written back in
 * its file's own spelling and nothing else changes; items the file says are finished are shown
 * once, as not run, with the file's reason.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_MJS, agentCmd, git, ofType } from './helpers.js';
import { commitFiles, read, seedProject, seedRun, subjects } from './seed-helpers.js';
import { runStableCli } from './helpers.js';
import { cleanEnv } from '../helpers/cli.js';
import { join } from 'node:path';

const RALPH_TOWN = [
  '{',
  '\t"repository": { "url": "https://example.invalid/app.git", "branch": "main" },',
  '\t"execution": { "mode": "sequential", "model": "haiku" },',
  '\t"acceptance_criteria": [',
  '\t\t{',
  '\t\t\t"id": "ac-001",',
  '\t\t\t"description": "Make a and b say ok",',
  '\t\t\t"steps": ["Write ok into a.txt", "Write ok into b.txt"],',
  '\t\t\t"backpressure": "node check.mjs a b",',
  '\t\t\t"passes": false',
  '\t\t},',
  '\t\t{',
  '\t\t\t"id": "ac-002",',
  '\t\t\t"description": "Make c say ok",',
  '\t\t\t"steps": ["Write ok into c.txt"],',
  '\t\t\t"backpressure": "node check.mjs c",',
  '\t\t\t"passes": false',
  '\t\t},',
  '\t\t{',
  '\t\t\t"id": "ac-003",',
  '\t\t\t"description": "Already there",',
  '\t\t\t"backpressure": "node check.mjs z",',
  '\t\t\t"passes": true',
  '\t\t}',
  '\t],',
  '\t"max_iterations_per_criterion": 3',
  '}',
  '',
].join('\n');

describe('round 3 shapes, run as their users run them', () => {
  it('ralph-town ralph.json: each criterion is an item, its backpressure the check; passes flips in place, tabs and all', async () => {
    const p = seedProject({ 'ralph.json': RALPH_TOWN, 'check.mjs': CHECK_MJS }, {});
    const r = await seedRun(p, ['ralph.json', '--agent', agentCmd('progress')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end').map((e) => [e.name, e.outcome, e.iterations])).toEqual([
      ['ac-001: Make a and b say ok', 'passed', 2],
      ['ac-002: Make c say ok', 'passed', 1],
      ['ac-003: Already there', 'not_runnable', 0],
    ]);
    // The finished item is said once, with the file's reason, never as "runs once".
    expect(ofType(r.events, 'task_start')[2]).toMatchObject({ decision: 'skip', not_runnable: 'already done ("passes": true in ralph.json)' });
    // Only the two `false`s changed; every other byte (tabs, key order, the unknown keys) is the file's own.
    const expected = RALPH_TOWN.replace('"passes": false', '"passes": true').replace('"passes": false', '"passes": true');
    expect(read(p, 'ralph.json')).toBe(expected);
    expect(subjects(p).slice(0, 2)).toEqual(['feat(ralph.json): ac-002: Make c say ok', 'feat(ralph.json): ac-001: Make a and b say ok']);
    expect(commitFiles(p, 'HEAD~1')).toEqual(['A a.txt', 'A b.txt', 'A history.jsonl', 'M ralph.json']);
    expect(git(p.root, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');

    // Run again, for people: every item is finished; each is one line saying why it does not run.
    const again = await runStableCli(['run', 'ralph.json', '--agent', agentCmd('progress'), '--no-spinner'], {
      cwd: p.root,
      env: cleanEnv({ AGENT_LOG_DIR: p.logDir, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') }),
      timeout: 90_000,
    });
    const shown = `${again.stdout}${again.stderr}`;
    expect(shown).toContain('– Task 1: ac-001: Make a and b say ok — not run: already done ("passes": true in ralph.json)');
    expect(shown).not.toMatch(/runs once|✓ Task 1|– Task 1: not run/);
  });

  it('fix_plan.md queue without checkboxes: the item that passes gets [x] after its number, the file is otherwise untouched', async () => {
    const plan = ['# fix_plan.md', '', '## Queue', '', '1. Make a and b say ok', '   - Verify: `node check.mjs a b`', '   - Done when:', '     - `node check.mjs a` passes', '', '2. Make c say ok', '   - Verify: `node check.mjs c`', '', '## Completed', '', '- 2026-02-27: scaffolding', ''].join('\n');
    const p = seedProject({ 'fix_plan.md': plan, 'check.mjs': CHECK_MJS }, {});
    const r = await seedRun(p, ['fix_plan.md', '--agent', agentCmd('progress')]);
    expect(ofType(r.events, 'task_end').map((e) => [e.name, e.outcome])).toEqual([
      ['Make a and b say ok', 'passed'],
      ['Make c say ok', 'passed'],
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(read(p, 'fix_plan.md')).toBe(plan.replace('1. Make a and b', '1. [x] Make a and b').replace('2. Make c', '2. [x] Make c'));
  });
});
