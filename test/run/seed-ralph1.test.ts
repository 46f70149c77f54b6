/**
 * ralph1 (requirements.json + history.jsonl), tried as its users work: its own file shape
 * (`{"id": 1, "requirement": "…", "status": "pending"}`), its quality gate (the project's
 * check command after every success), array order that means nothing, and a failed
 * requirement that is restored, logged to history.jsonl and passed over for the next one.
 */
import { describe, expect, it } from 'vitest';
import { git, ofType } from './helpers.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentCalls, agentSaw, commitAll, commitFiles, fakeClaudePath, read, seedProject, seedRun, subjects, write } from './seed-helpers.js';

const requirement = (id: number | string, text: string, status = 'pending') => ({ id, requirement: text, status });
const file = (reqs: object[]) => `${JSON.stringify({ requirements: reqs }, null, 2)}\n`;
const statuses = (text: string) => (JSON.parse(text) as { requirements: Array<{ id: unknown; status: string }> }).requirements.map((r) => [r.id, r.status]);
const history = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as { requirement_id: string; success: boolean; message: string });

describe('ralph1: requirements.json + history.jsonl', () => {
  it('runs its own file, gates every success, files results by id (not position), goes on past a failure, commits the write-backs', async () => {
    const p = seedProject({ 'requirements.json': file([requirement(1, '`a.txt` says ok'), requirement(2, '`b.txt` says ok')]) });

    // Happy path: each requirement is gated by the project's check command and committed with its write-back.
    const r1 = await seedRun(p, ['requirements.json']);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(ofType(r1.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'passed'], [2, 'passed']]);
    expect(statuses(read(p, 'requirements.json'))).toEqual([[1, 'done'], [2, 'done']]);
    expect(history(read(p, 'history.jsonl')).map((h) => [h.requirement_id, h.success])).toEqual([['1', true], ['2', true]]);
    expect(subjects(p).slice(0, 2)).toEqual(['feat(requirements.json): 2: `b.txt` says ok', 'feat(requirements.json): 1: `a.txt` says ok']);
    expect(commitFiles(p, 'HEAD~1')).toEqual(['A a.txt', 'A history.jsonl', 'M requirements.json']);
    expect(commitFiles(p, 'HEAD')).toEqual(['A b.txt', 'M history.jsonl', 'M requirements.json']);
    expect(agentCalls(p)).toEqual(['1: `a.txt` says ok', '2: `b.txt` says ok']);

    // A requirement added above the finished ones, the list reordered: only the new one runs.
    write(p, 'requirements.json', file([requirement('net-3', '`c.txt` says ok'), requirement(2, '`b.txt` says ok', 'done'), requirement(1, '`a.txt` says ok', 'done')]));
    commitAll(p, 'add net-3, reorder');
    const r2 = await seedRun(p, ['requirements.json']);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(ofType(r2.events, 'task_end').map((e) => [e.name, e.outcome])).toEqual([
      ['net-3: `c.txt` says ok', 'passed'],
      ['2: `b.txt` says ok', 'not_runnable'],
      ['1: `a.txt` says ok', 'not_runnable'],
    ]);
    expect(ofType(r2.events, 'task_end')[1]!.detail).toBe('already done (status "done" in requirements.json)');
    expect(agentCalls(p).slice(2)).toEqual(['net-3: `c.txt` says ok']);

    // A failing requirement: restored, logged as a failure, the run goes on to the next one.
    write(p, 'requirements.json', file([requirement(4, '`d.txt` says ok'), requirement(5, '`e.txt` says ok'), requirement('net-3', '`c.txt` says ok', 'done')]));
    commitAll(p, 'add 4 and 5');
    const r3 = await seedRun(p, ['requirements.json'], { SEED_AGENT_FAIL: 'd.txt' });
    expect(r3.exitCode, r3.stderr).toBe(20);
    expect(ofType(r3.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'stopped'], [2, 'passed'], [3, 'not_runnable']]);
    expect(ofType(r3.events, 'revert')[0]).toMatchObject({ task: 1, files: ['d.txt'] });
    expect(statuses(read(p, 'requirements.json'))).toEqual([[4, 'pending'], [5, 'done'], ['net-3', 'done']]);
    const lines = history(read(p, 'history.jsonl'));
    expect(lines.slice(-2).map((h) => [h.requirement_id, h.success])).toEqual([['4', false], ['5', true]]);
    expect(lines.at(-2)!.message).toMatch(/^stopped \((repeated_fingerprint|no_progress|max_iterations)\)/);
    expect(subjects(p)[1]).toMatch(/^chore\(requirements\.json\): 4: `d\.txt` says ok \(/);
    expect(commitFiles(p, 'HEAD~1')).toEqual(['M history.jsonl']);
    expect(git(p.root, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');

    // The next run retries the still-pending requirement from a fresh budget, with its history in the prompt.
    const r4 = await seedRun(p, ['requirements.json']);
    expect(r4.exitCode, r4.stderr).toBe(0);
    expect(ofType(r4.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'passed'], [2, 'not_runnable'], [3, 'not_runnable']]);
  });

  it("takes ralph1's command line: --requirements= --history= --model= --reasoning= --no-spinner --duration=, the model mapped onto claude's own flags", async () => {
    const p = seedProject({ 'reqs/requirements.json': file([requirement(1, '`a.txt` says ok'), requirement(2, '`b.txt` says ok')]) });
    const r = await seedRun(
      p,
      ['--requirements=reqs/requirements.json', '--history=logs/ralph-history.jsonl', '--model=haiku', '--reasoning=high', '--no-spinner', '--duration=10m', '--agent', 'claude', '--agent-arg', '--permission-mode', '--agent-arg', 'acceptEdits'],
      { PATH: fakeClaudePath(p) },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.events[0]).toMatchObject({ type: 'run_start', target_kind: 'requirements', budgets: { duration_ms: 600_000 } });
    expect(history(read(p, 'logs/ralph-history.jsonl')).map((h) => [h.requirement_id, h.success])).toEqual([['1', true], ['2', true]]);
    expect(existsSync(join(p.root, 'reqs/history.jsonl'))).toBe(false);
    const argv = agentSaw(p, 1).argv.join(' ');
    expect(argv).toContain('--model haiku --effort high --permission-mode acceptEdits');
    expect(commitFiles(p, 'HEAD')).toEqual(['A b.txt', 'M logs/ralph-history.jsonl', 'M reqs/requirements.json']);

    // reasoning none: no extended thinking; a command agent gets the choice in its environment.
    write(p, 'reqs/requirements.json', file([requirement(3, '`c.txt` says ok')]));
    commitAll(p, 'three');
    const r2 = await seedRun(p, ['--requirements=reqs/requirements.json', '--model=opus', '--reasoning=none']);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(agentSaw(p, 3)).toMatchObject({ model: 'opus', reasoning: 'none' });

    const bad = await seedRun(p, ['--requirements=reqs/requirements.json', '--reasoning=max']);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout.trim().split('\n').at(-1)!).error.message).toMatch(/--reasoning: "max" is not a reasoning level/);
  });

  it('with --duration, selects a failed requirement again (with its history) until it passes or the time is up', async () => {
    const p = seedProject({ 'requirements.json': file([requirement(1, '`a.txt` says ok'), requirement(2, '`b.txt` says ok')]) });
    const r = await seedRun(p, ['requirements.json', '--duration=3m'], { SEED_AGENT_FAIL: 'a.txt', SEED_AGENT_FAIL_CALLS: '2' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'stopped'], [2, 'passed'], [1, 'passed']]);
    expect(statuses(read(p, 'requirements.json'))).toEqual([[1, 'done'], [2, 'done']]);
    expect(history(read(p, 'history.jsonl')).map((h) => [h.requirement_id, h.success])).toEqual([['1', false], ['2', true], ['1', true]]);
    // The second try sees the first one's failure in its prompt.
    expect(readFileSync(join(p.logDir, '4.txt'), 'utf8')).toMatch(/failure: stopped \(/);
  });
});
