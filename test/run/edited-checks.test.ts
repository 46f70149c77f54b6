/**
 * `ralf run` with an agent that rewrites the plan's checks instead of doing the work: the loop
 * keeps verifying with the checks it started with (engine/core/checks-at-start.ts), and the
 * next fresh agent is told those, not the rewritten ones.
 */
import { describe, expect, it } from 'vitest';
import { autoTask, makeProject, ofType, prompts, ralfRun, readState } from './helpers.js';

describe('ralf run: an agent that edits the plan\'s checks', () => {
  it('does not pass, and the next agent is shown the original checks', async () => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { max_iterations: 3, error_fingerprint_repeats: 3, no_progress_repeats: 3 } });
    const r = await ralfRun(p, 'cheat');
    expect(r.exitCode, r.stderr).toBe(20);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ outcome: 'stopped' });
    const loop = Object.values(readState(p).tasks)[0] as { iterations: Array<{ plan_checks_edited?: string[]; checks: Array<{ command: string }> }> };
    expect(loop.iterations.map((i) => i.checks.map((c) => c.command))).toEqual([['node check.mjs a'], ['node check.mjs a'], ['node check.mjs a']]);
    expect(loop.iterations[0]!.plan_checks_edited).toEqual(['node -e 0']);
    const second = prompts(p)[1]!;
    const how = second.slice(second.indexOf('## How this is verified'));
    expect(how).toContain('node check.mjs a');
    expect(how.split('\n## ')[0]).not.toContain('node -e 0');
  }, 90_000);
});
