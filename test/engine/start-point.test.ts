/**
 * A loop's start point is a snapshot tree (`ralf task start`, `ralf task reset`): unreachable
 * from any commit when the tree held untracked files. It is kept (as `start`) under the loop's
 * ref `refs/ralf/loops/<state-id>/<task key>` so `git gc --prune=now` cannot delete it (every
 * later verify's diff would fail with `bad object`).
 */
import { describe, expect, it } from 'vitest';
import { autoTask, PLAN_REL, Project, VALUE_CHECK } from './project.js';

/** The start tree each loop ref keeps. */
function keptStarts(p: Project): string[] {
  const refs = p.git('for-each-ref', '--format=%(refname)', 'refs/ralf/loops/').trim().split('\n').filter(Boolean);
  return refs.map((ref) => p.git('rev-parse', `${ref}:start`).trim());
}

describe('the start point survives git gc', () => {
  it('task start with untracked files, git gc --prune=now, then the fix: the verify passes', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Fix a', files: ['src/a.js'], verify: 'node check.js' }),
      files: { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK },
    });
    p.write('notes/untracked.md', 'the user’s own notes, never committed\n');
    const start = await p.run(['task', 'start', PLAN_REL, '1', '--json']);
    expect(start.exitCode, String(start.stderr)).toBe(0);
    const startRef = p.state().tasks[Object.keys(p.state().tasks)[0]!].start_ref as string;
    expect(keptStarts(p)).toEqual([startRef]);

    p.git('gc', '--quiet', '--prune=now');
    expect(p.git('cat-file', '-t', startRef).trim()).toBe('tree');
    p.write('src/a.js', "module.exports = 'fixed';\n");
    const r = await p.verify(1);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ verdict: 'pass', iteration: 1 });
  });

  it('task reset moves the kept start point to the new start', async () => {
    const p = new Project({
      tasks: autoTask({ name: 'Fix a', files: ['src/a.js'], verify: 'node check.js' }),
      files: { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK },
    });
    await p.run(['task', 'start', PLAN_REL, '1', '--json']);
    p.write('scratch.txt', 'approved by the human\n');
    const reset = await p.run(['task', 'reset', PLAN_REL, '1', '--json']);
    expect(reset.exitCode, String(reset.stderr)).toBe(0);
    const refs = keptStarts(p);
    expect(refs).toHaveLength(1);
    p.git('gc', '--quiet', '--prune=now');
    expect(p.git('cat-file', '-t', refs[0]!).trim()).toBe('tree');
    expect(p.git('ls-tree', '--name-only', refs[0]!)).toContain('scratch.txt');
  });
});
