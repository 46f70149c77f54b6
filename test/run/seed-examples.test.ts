/**
 * examples/ralph1, examples/copilot-ralf, examples/persistence-loop: each system's own files,
 * run as the system's users would start them, with the example's scripted agent. Every open
 * item passes, finished items are not run, and the write-backs are committed.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';
import { git, ofType, runStableCli } from './helpers.js';

async function runExample(name: string, args: string[]) {
  const dir = tempDir(`ralf-example-${name}-`);
  cpSync(join(repoRoot, 'examples', name), dir, { recursive: true });
  git(dir, 'init', '-q');
  for (const [k, v] of [['user.name', 'ralf test'], ['user.email', 't@example.invalid'], ['commit.gpgsign', 'false'], ['core.hooksPath', '/dev/null']]) git(dir, 'config', k!, v!);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  const r = await runStableCli(['run', ...args, '--agent', 'sh scripted-agent.sh', '--json'], { cwd: dir, env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.xdg') }), timeout: 90_000 });
  const events = String(r.stdout)
    .split('\n')
    .filter((l) => l.startsWith('{"type"'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { dir, exitCode: r.exitCode, stderr: String(r.stderr), events };
}

describe('the seed systems’ examples', () => {
  it('ralph1: ralf run --requirements= --history= with the quality gate', async () => {
    const r = await runExample('ralph1', ['--requirements=requirements.json', '--history=history.jsonl', '--model=sonnet', '--reasoning=low', '--no-spinner', '--duration=5m']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'passed'], [2, 'not_runnable'], [3, 'passed']]);
    const reqs = JSON.parse(readFileSync(join(r.dir, 'requirements.json'), 'utf8')) as { requirements: Array<{ status: string }> };
    expect(reqs.requirements.map((q) => q.status)).toEqual(['done', 'done', 'done']);
    expect(readFileSync(join(r.dir, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(git(r.dir, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');
  });

  it('copilot_ralf: ralf run -p . over .ralph/prd.md', async () => {
    const r = await runExample('copilot-ralf', ['-p', '.', '--loop-only']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end').map((e) => [e.task, e.outcome])).toEqual([[1, 'not_runnable'], [2, 'passed'], [3, 'passed']]);
    expect(readFileSync(join(r.dir, '.ralph/prd.md'), 'utf8')).not.toContain('- [ ]');
    expect(readFileSync(join(r.dir, '.ralph/progress.md'), 'utf8')).toContain('- Status: PARTIAL');
    expect(git(r.dir, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');
  });

  it('the Persistence Loop: ralf run . over Approved/ with persistence.yaml', async () => {
    const r = await runExample('persistence-loop', ['.']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_start').map((e) => e.max_iterations)).toEqual([100, 0]);
    expect(existsSync(join(r.dir, 'Done/task-002.md'))).toBe(true);
    expect(readFileSync(join(r.dir, 'Done/task-002.md'), 'utf8')).toMatch(/^state: Done$/m);
    expect(git(r.dir, 'status', '--porcelain', '--', '.', ':(exclude).planning/ralf')).toBe('');
  });
});
