/**
 * Agents that use git themselves, through `ralf run` with scripted agents (agents/step-agent.mjs
 * runs each step's git commands as a real agent's shell tool would), in a project where the user
 * has an uncommitted edit of a tracked file (USER.md), a staged change (STAGED.md) and an
 * untracked file (notes.txt). Real agents commit mid-task, amend, `git add -A`, stash, reset and
 * switch branches; the brief: restore, stage and commit only what the agent changed in this
 * task, and a user's uncommitted work is sacred. Each scenario asserts the verdict at the exact
 * iteration, what is committed, that the user's files and staging are exactly as they were, and
 * runs the commands the run prints as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { PLAN, Scenario, type AgentRun } from './harness.js';
import { COMMITTED_MD, commits, committedFiles, explain, FIXED, NOTES, ofType, sh, START, taskEnd, units, userProject, USER_MD } from './user-work.js';

const STAGED_MD_COMMITTED = 'staged: as committed\n';
const STAGED_MD = 'staged: the user\'s change, staged\n';

/** The user's work: USER.md edited (unstaged), STAGED.md's change staged, notes.txt untracked; byte for byte. */
function expectUserWorkKept(s: Scenario, expect: any): void {
  expect(s.read('USER.md')).toBe(USER_MD);
  expect(s.read('STAGED.md')).toBe(STAGED_MD);
  expect(s.read('notes.txt')).toBe(NOTES);
  expect(s.git('status', '--porcelain', '--', 'USER.md', 'STAGED.md', 'notes.txt')).toBe('M  STAGED.md\n M USER.md\n?? notes.txt\n');
  expect(s.git('diff', '--cached', '--name-only')).toBe('STAGED.md\n');
}

function project(limits: Record<string, number> = {}): Scenario {
  const s = userProject(limits, { 'STAGED.md': STAGED_MD_COMMITTED });
  s.write('STAGED.md', STAGED_MD);
  s.git('add', 'STAGED.md');
  return s;
}

const warnings = (r: AgentRun) => ofType(r, 'warning').map((w) => String(w.message)).join('\n');
const branch = (s: Scenario) => s.git('symbolic-ref', '--short', 'HEAD').trim();

describe.concurrent('ralf run with agents that use git themselves', () => {
  it('`git add -A && git commit` of a partial fix (sweeping the user\'s files in), then `commit -a --amend` of the fix: pass at 2, one commit of the agent\'s file; the user\'s files and staging as they were', async ({ expect }) => {
    const s = project();
    const start = branch(s);
    const r = await s.runAgent([
      { code: { values: { alpha: 1 } }, gitAfter: ['git add -A', 'git commit -qm "wip: alpha"'] },
      { code: { values: { bravo: 2 } }, gitAfter: ['git commit -qa --amend --no-edit'] },
    ]);
    expect(r.code, explain(r)).toBe(0);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:pass']);
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.git('show', 'HEAD:src/units.js')).toBe(FIXED);
    expect(s.git('show', 'HEAD:USER.md')).toBe(COMMITTED_MD);
    // The run's record of the task's commit is that commit (was: null, ralf's own commit was empty).
    expect(taskEnd(r).commit).toBe(s.git('rev-parse', 'HEAD').trim());
    expect(ofType(r, 'run_end')[0].tasks[0]).toMatchObject({ commit: taskEnd(r).commit });
    expect(branch(s)).toBe(start);
    expectUserWorkKept(s, expect);
    // Both undone, and said so; the agent's commits kept under a ref, the next prompt told.
    expect(warnings(r)).toMatch(/Task 1: the agent ran git itself, and ralf undid it: .*had moved from [0-9a-f]{12} to [0-9a-f]{12}.*kept under refs\/ralf\/attempts\/01-01\/task-1\/\S+-head/);
    const kept = /kept under (refs\/ralf\/attempts\/\S+-head)/.exec(warnings(r))![1]!;
    expect(sh(s, `git log --format=%s ${kept}`)).toContain('wip: alpha');
  }, 90_000);

  it('a commit of a partial fix, then stuck: repeated_fingerprint at 2; the branch and the tree back as before the task, the printed restore command brings the attempt back', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1 } }, gitAfter: ['git commit -qam "wip: alpha"'] }, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(commits(s)).toEqual(['init']);
    expect(s.read('src/units.js')).toBe(START);
    expectUserWorkKept(s, expect);
    const revert = ofType(r, 'revert').find((e) => e.scope === 'task');
    expect(revert).toMatchObject({ files: ['src/units.js'] });
    sh(s, revert.restore_command);
    expect(s.read('src/units.js')).toBe(units({ alpha: 1, bravo: 0 }));
  }, 90_000);

  for (const stash of ['git stash -q', 'git stash -q -u']) {
    it(`\`${stash}\` (it takes the user's work), then the fix: pass at 1, the user's edit, staged change${stash.endsWith('-u') ? ' and untracked file' : ''} put back and named, only the agent's file committed`, async ({ expect }) => {
      const s = project();
      const r = await s.runAgent([{ git: [stash], code: { values: { alpha: 1, bravo: 2 } } }]);
      expect(r.code, explain(r)).toBe(0);
      expect(taskEnd(r)).toMatchObject({ outcome: 'passed', iterations: 1 });
      expect(committedFiles(s)).toEqual(['src/units.js']);
      expectUserWorkKept(s, expect);
      expect(warnings(r)).toMatch(new RegExp(`took your uncommitted work out of ${stash.endsWith('-u') ? 'STAGED.md, USER.md, notes.txt' : 'STAGED.md, USER.md'}; it is put back`));
      expect(warnings(r)).toContain('git stash list');
    }, 90_000);
  }

  it('`git reset --hard` after a partial fix, then the whole fix again: pass at 2; the user\'s edit and staging back', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { git: ['git reset -q --hard'], code: { values: { bravo: 2 } }, write: { 'src/units.js': FIXED } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:pass']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('`git checkout -- .` and `git clean -fdq` after a partial fix (back to the start tree: no progress), then idle: repeated_fingerprint at 3, the user\'s files back (was: rule4_architectural at 2, "deleted" notes.txt, with the user\'s files left gone for the decision)', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { git: ['git checkout -q -- .', 'git clean -fdq'] }, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}:${v.stop_reason ?? (v.progress ? '+' : '-')}`), explain(r)).toEqual(['1:retry:+', '2:retry:-', '3:stop:repeated_fingerprint']);
    expect(commits(s)).toEqual(['init']);
    expect(s.read('src/units.js')).toBe(START);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('a new branch, commits on it: pass at 2, HEAD back on the user\'s branch with the task\'s commit; the agent\'s branch left and named', async ({ expect }) => {
    const s = project();
    const start = branch(s);
    const r = await s.runAgent([
      { git: ['git checkout -q -b agent/work'], code: { values: { alpha: 1 } }, gitAfter: ['git commit -qm "alpha" -- src/units.js'] },
      { code: { values: { bravo: 2 } }, gitAfter: ['git commit -qm "bravo" -- src/units.js'] },
    ]);
    expect(r.code, explain(r)).toBe(0);
    expect(branch(s)).toBe(start);
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.git('log', '--format=%s', 'agent/work')).toBe('alpha\ninit\n');
    expect(warnings(r)).toMatch(/HEAD was on branch agent\/work: it is on \S+ again/);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('`git rebase --autostash` onto a branch that conflicts, left stopped half-way, then the fix: pass at 2 on the user\'s branch, no rebase left in progress, the user\'s work back (its autostash entry named)', async ({ expect }) => {
    const s = project();
    const start = branch(s);
    s.git('checkout', '-q', '-b', 'side');
    s.write('other.txt', 'side\n');
    s.git('add', 'other.txt');
    s.git('commit', '-qm', 'side', '--', 'other.txt');
    s.git('checkout', '-q', start);
    s.remove('other.txt');
    s.write('other.txt', 'mine\n');
    s.git('add', 'other.txt');
    s.git('commit', '-qm', 'master other', '--', 'other.txt');
    const r = await s.runAgent([
      { code: { values: { alpha: 1 } }, gitAfter: ['git rebase -q --autostash side'] },
      { code: { values: { alpha: 1, bravo: 2 } }, write: { 'src/units.js': FIXED }, gitAfter: ['git checkout -q HEAD -- other.txt'] },
    ]);
    expect(r.code, explain(r)).toBe(0);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:pass']);
    expect(branch(s)).toBe(start);
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'master other', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.exists('.git/rebase-merge') || s.exists('.git/rebase-apply')).toBe(false);
    expect(warnings(r)).toMatch(/the rebase it left stopped half-way is forgotten/);
    expect(warnings(r)).toContain('git stash list');
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('the agent\'s commit refused by a commit-msg hook (it wants a type prefix), after `git add -A`: pass at 1, ralf\'s commit (feat(…)) goes through; the staging the agent left is undone', async ({ expect }) => {
    const s = project();
    s.write('.git/hooks/commit-msg', '#!/bin/sh\ngrep -qE "^(feat|fix|chore|docs|test|refactor)\\(" "$1" || { echo "commit-msg: a type prefix is required" >&2; exit 1; }\n');
    sh(s, 'chmod +x .git/hooks/commit-msg');
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } }, gitAfter: ['git add -A', 'git commit -qm "fixed it"'] }]);
    expect(r.code, explain(r)).toBe(0);
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(warnings(r)).toMatch(/what is staged was put back as it was \(the agent had staged or unstaged USER\.md, notes\.txt, src\/units\.js\)/);
    expectUserWorkKept(s, expect);
  }, 90_000);
});

describe.concurrent('ralf task verify (the hosts\' path) with an agent that uses git or deletes the loop\'s state', () => {
  async function started(s: Scenario): Promise<void> {
    const r = await s.ralf(['task', 'start', PLAN, '1', '--json']);
    if (r.exitCode !== 0) throw new Error(String(r.stdout));
  }

  it('`git add -A && git commit` of a partial fix mid-loop, then the fix: retry with progress at 1, pass at 2 (the verdicts read the working tree), and no false alarm about the user\'s work the commit swept in', async ({ expect }) => {
    const s = project();
    await started(s);
    const trail = await s.play([
      (x) => {
        x.fix('alpha');
        sh(x, 'git add -A && git commit -qm "wip: alpha"');
      },
      (x) => x.fix('bravo'),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    expect(s.results.map((r) => r.json.uncommitted_lost)).toEqual([undefined, undefined]);
    // What the commit took in is said (was: nothing), with a command that shows it.
    const swept = s.results[0]!.json.uncommitted_committed;
    expect(swept.paths).toEqual(['STAGED.md', 'USER.md', 'notes.txt']);
    expect(s.results[0]!.json.message).toContain(`\`git log --stat ${swept.commits}\``);
    expect(sh(s, `git log --stat ${swept.commits}`)).toContain('notes.txt');
  }, 60_000);

  it('the workflow\'s commit of a passed task, run as written: the task\'s file only; the user\'s staged change stays staged and out of it (was: `git commit -m` committed it)', async ({ expect }) => {
    const s = project();
    await started(s);
    expect(await s.play([(x) => x.fix('alpha', 'bravo')])).toEqual(['pass']);
    const workflow = readFileSync(join(repoRoot, 'workflows', 'execute-plan.md'), 'utf8');
    const section = workflow.slice(workflow.indexOf('## 3. Commit each finished task'), workflow.indexOf('## 4.'));
    // Step 2 stages the task's files, step 3 commits: the first command of each step's line.
    const spans = section.split('\n').filter((l) => /^[23]\. `git /.test(l)).map((l) => /`([^`]+)`/.exec(l)![1]!);
    expect(spans).toHaveLength(2);
    const fill = (c: string) => c.replace('{type}', 'feat').replace('ID', '01-01').replace('<task name>', 'Make the units right').replace('<file> <file> ...', 'src/units.js').replace('<file>', 'src/units.js');
    for (const c of spans) sh(s, fill(c));
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expectUserWorkKept(s, expect);
  }, 60_000);

  it('`git stash -u`, then the fix: pass at 1, the answer names the user\'s work it took (was: nothing said) and its restore command, run as written, brings every file back byte for byte', async ({ expect }) => {
    const s = project();
    await started(s);
    const trail = await s.play([
      (x) => {
        sh(x, 'git stash -q -u');
        x.fix('alpha', 'bravo');
      },
    ]);
    expect(trail, s.explain()).toEqual(['pass']);
    const lost = s.results[0]!.json.uncommitted_lost;
    expect(lost.paths).toEqual(['STAGED.md', 'USER.md', 'notes.txt']);
    expect(s.results[0]!.json.message).toContain(`put it back with \`${lost.restore_command}\``);
    sh(s, lost.restore_command);
    expect([s.read('USER.md'), s.read('STAGED.md'), s.read('notes.txt')]).toEqual([USER_MD, STAGED_MD, NOTES]);
    // The stash unstaged STAGED.md: named too (was: not said, and not restored by the command above).
    const staging = s.results[0]!.json.uncommitted_staging;
    expect(staging.paths).toEqual(['STAGED.md']);
    sh(s, staging.restore_command);
    expectUserWorkKept(s, expect);
  }, 60_000);

  it('`git add -A` (no commit) mid-loop: the answer names the user\'s files whose staging changed (was: nothing said), and its command, run as written, puts the user\'s staging back', async ({ expect }) => {
    const s = project();
    await started(s);
    const trail = await s.play([
      (x) => {
        x.fix('alpha');
        sh(x, 'git add -A');
      },
      (x) => x.fix('bravo'),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'pass']);
    const staging = s.results[0]!.json.uncommitted_staging;
    // STAGED.md was staged as it is: its staging did not change; src/units.js is the task's.
    expect(staging.paths).toEqual(['USER.md', 'notes.txt']);
    expect(s.results[0]!.json.message).toContain(`\`${staging.restore_command}\``);
    expect(s.results[0]!.json.uncommitted_lost).toBeUndefined();
    sh(s, staging.restore_command);
    expect(s.git('status', '--porcelain', '--', 'USER.md', 'STAGED.md', 'notes.txt')).toBe('M  STAGED.md\n M USER.md\n?? notes.txt\n');
    expect([s.read('USER.md'), s.read('STAGED.md'), s.read('notes.txt')]).toEqual([USER_MD, STAGED_MD, NOTES]);
  }, 60_000);

  it('after `task reset`, `git stash -u` then the fix: the user\'s work it took is still named (was: nothing recorded after a reset: a rule4 stop for the user\'s untracked file, nothing said); both printed commands, run as written, bring back the files and their staging', async ({ expect }) => {
    const s = project();
    await started(s);
    expect(await s.play([(x) => x.fix('alpha'), () => {}])).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect((await s.ralf(['task', 'reset', PLAN, '1'])).exitCode).toBe(0);
    const trail = await s.play([
      (x) => {
        sh(x, 'git stash -q -u');
        x.fix('alpha', 'bravo');
      },
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint', 'pass']);
    const last = s.results.at(-1)!.json;
    expect(last.uncommitted_lost.paths).toEqual(['STAGED.md', 'USER.md', 'notes.txt']);
    expect(last.uncommitted_staging.paths).toEqual(['STAGED.md']);
    sh(s, last.uncommitted_lost.restore_command);
    sh(s, last.uncommitted_staging.restore_command);
    expectUserWorkKept(s, expect);
  }, 60_000);

  it('after `task reset`, the agent drops its earlier attempt (`git checkout -- src/units.js`): not the user\'s work, no false alarm', async ({ expect }) => {
    const s = project();
    await started(s);
    expect(await s.play([(x) => x.fix('alpha'), () => {}])).toEqual(['retry+', 'stop:repeated_fingerprint']);
    expect((await s.ralf(['task', 'reset', PLAN, '1'])).exitCode).toBe(0);
    const trail = await s.play([
      (x) => {
        sh(x, 'git checkout -q -- src/units.js');
        x.edit({ code: { values: { alpha: 0 } } });
      },
      (x) => x.fix('alpha', 'bravo'),
    ]);
    expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint', 'retry+', 'pass']);
    expect(s.results.slice(2).map((r) => [r.json.uncommitted_lost, r.json.uncommitted_staging])).toEqual([[undefined, undefined], [undefined, undefined]]);
  }, 60_000);

  for (const wipe of ['rm -rf .planning/ralf', 'git clean -fdxq -e .home -e node_modules']) {
    it(`\`${wipe}\` before each verify: the count goes on (was: iteration 1 every time, never stopped), repeated_fingerprint at 2, and the answer says so`, async ({ expect }) => {
      const s = project({ max_iterations: 3 });
      const trail = await s.play([
        (x) => x.fix('alpha'),
        (x) => {
          sh(x, wipe);
          x.edit({ code: { comment: 'try again' } });
        },
        (x) => {
          sh(x, wipe);
          x.edit({ code: { comment: 'and again' } });
        },
      ]);
      expect(trail, s.explain()).toEqual(['retry+', 'stop:repeated_fingerprint']);
      const last = s.results.at(-1)!.json;
      expect(last.iteration).toBe(2);
      expect(last.state_recovered).toEqual(['.planning/ralf/01-01.json']);
      expect(last.message).toMatch(/had been deleted since the last ralf command .* put back from ralf's copy in the git dir/);
    }, 60_000);
  }
});
