/**
 * `ralf run` measures what the agent changed with snapshots of the working tree; they use the
 * project's `snapshot.max_untracked_file_mb`, as its verifies do (they share git's stat cache).
 */
import { describe, expect, it } from 'vitest';
import { autoTask, git, makeProject, ofType, ralfRun } from './helpers.js';

describe('ralf run and snapshot.max_untracked_file_mb', () => {
  it('an untracked file above the configured cap is left out of the snapshots: not committed with the task', async () => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { snapshot: { max_untracked_file_mb: 1 } } });
    const r = await ralfRun(p, 'bigfile');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ofType(r.events, 'task_end')[0]).toMatchObject({ task: 1, outcome: 'passed' });
    // big.bin (2 MB) is above the configured 1 MB; under the default (50 MB) it would be the agent's.
    expect(git(p.root, 'show', '--name-only', '--format=', 'HEAD').split('\n')).toEqual(['a.txt']);
    expect(git(p.root, 'status', '--porcelain', '--', 'big.bin')).toBe('?? big.bin');
  });
});
