// The examples must make sense end to end: every task the loop would run fails its checks
// on the example as shipped, passes after the example's scripted agent ran, and the
// write-back leaves nothing for a second run.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunTarget } from '../../src/formats/detect.js';
import type { Check } from '../../src/plan/model.js';
import { repoRoot, tempDir } from '../helpers/cli.js';

const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };

function passes(check: Check, cwd: string): boolean {
  switch (check.kind) {
    case 'file_exists':
      return existsSync(join(cwd, check.path));
    case 'contains_text':
      return existsSync(join(cwd, check.path)) && readFileSync(join(cwd, check.path), 'utf8').includes(check.text);
    case 'min_lines':
      return existsSync(join(cwd, check.path)) && readFileSync(join(cwd, check.path), 'utf8').split('\n').length >= check.min_lines;
    default:
      return spawnSync('sh', ['-c', check.command], { cwd, env, stdio: 'ignore' }).status === 0;
  }
}

const cases: Array<[string, string, number]> = [
  ['prd-checklist', 'PRD.md', 3],
  ['ralph-json', 'ralph.json', 1],
  ['requirements', 'requirements.json', 2],
  ['task-files', 'tasks', 2],
];

describe.each(cases)('examples/%s', (name, target, looped) => {
  it('fails before the agent, passes after it, and is written back', async () => {
    const dir = tempDir();
    cpSync(join(repoRoot, 'examples', name), dir, { recursive: true });
    const loaded = await loadRunTarget(join(dir, target));
    expect(loaded.project_root).toBe(dir);
    const plan = loaded.plans[0]!;
    const tasks = plan.tasks.filter((t) => t.decision === 'loop');
    expect(tasks).toHaveLength(looped);
    for (const task of tasks) expect([task.name, task.checks.every((c) => passes(c, dir))]).toEqual([task.name, false]);

    const agent = spawnSync('sh', ['scripted-agent.sh'], { cwd: dir, env, input: 'the prompt', encoding: 'utf8' });
    expect(agent.status).toBe(0);
    for (const task of tasks) {
      expect([task.name, task.checks.filter((c) => !passes(c, dir))]).toEqual([task.name, []]);
      loaded.onTaskResult?.(plan, task.number, { verdict: 'pass', stop_reason: 'success', iterations: 1 });
    }
    if (loaded.onTaskResult) {
      const again = await loadRunTarget(join(dir, target));
      expect(again.plans[0]!.tasks.filter((t) => t.decision === 'loop')).toEqual([]);
    }
  });
});
