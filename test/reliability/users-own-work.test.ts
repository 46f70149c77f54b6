/**
 * The user's own work around `ralf run`: dirty, staged, untracked and committed-between-runs
 * files survive every flow (fresh, resumed, after a slash-command `ralf task verify`) and
 * every outcome (pass, stop, blocked, budget, timeout), and no unrelated file is ever in a
 * commit. Real git repos, the real CLI bundle, scripted agents (test/run/agents/agent.mjs).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { alive } from '../helpers/processes.js';
import { AGENT, autoTask, git, makeProject, runStableCli, type Project } from '../run/helpers.js';

const THREE = [autoTask(1, 'Write a, b and c', ['a.txt', 'b.txt', 'c.txt'])];

type Flow = 'fresh' | 'resumed' | 'after-verify';
type Outcome = 'pass' | 'stop' | 'blocked' | 'budget' | 'timeout';

/** `--agent` for a scripted mode; `then` is a shell line run after the agent (in the project). */
function agent(mode: string, then = ''): string {
  return then === '' ? `node ${JSON.stringify(AGENT)} ${mode} {prompt}` : `sh -c ${JSON.stringify(`node '${AGENT}' ${mode} "$0"; ${then}`)} {prompt}`;
}

async function run(p: Project, agentSpec: string, extra: string[] = []) {
  const r = await runStableCli(['run', p.planRel, '--agent', agentSpec, '--json', ...extra], {
    cwd: p.root,
    env: cleanEnv({ AGENT_LOG_DIR: p.logDir, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') }),
    timeout: 90_000,
  });
  const events = String(r.stdout)
    .split('\n')
    .filter((l) => l.startsWith('{"type"'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { exitCode: r.exitCode, events, stderr: String(r.stderr) };
}

/** The user's work: a dirty tracked file, a staged change, an untracked file. */
function seedUserWork(root: string): void {
  writeFileSync(join(root, 'README.md'), '# test project\n\nmy unsaved edit\n');
  writeFileSync(join(root, 'docs.md'), 'staged by me\n');
  git(root, 'add', '--', 'docs.md');
  writeFileSync(join(root, 'notes.txt'), 'my own notes, never committed\n');
}

function expectUserWorkIntact(p: Project, between: boolean): void {
  expect(readFileSync(join(p.root, 'README.md'), 'utf8')).toBe('# test project\n\nmy unsaved edit\n');
  expect(git(p.root, 'diff', '--name-only')).toContain('README.md');
  expect(git(p.root, 'diff', '--cached', '--name-only').split('\n')).toEqual(['docs.md']);
  expect(git(p.root, 'show', ':docs.md')).toBe('staged by me');
  expect(readFileSync(join(p.root, 'notes.txt'), 'utf8')).toBe('my own notes, never committed\n');
  expect(git(p.root, 'status', '--porcelain', '--', 'notes.txt')).toBe('?? notes.txt');
  if (between) expect(readFileSync(join(p.root, 'between.txt'), 'utf8')).toBe('committed by me between runs\n');
}

/** Files of every commit ralf made (author "ralf test" commits whose subject starts with feat). */
function ralfCommitFiles(root: string): string[][] {
  const shas = git(root, 'log', '--format=%H %s').split('\n').filter((l) => / feat\(/.test(l)).map((l) => l.split(' ')[0]!);
  return shas.map((sha) => git(root, 'show', '--name-only', '--format=', sha).split('\n').filter(Boolean).sort());
}

const modes: Record<Outcome, { mode: string; then?: string; extra: string[]; exit: number; taskOutcome: string }> = {
  pass: { mode: 'progress', extra: [], exit: 0, taskOutcome: 'passed' },
  // The stuck agent also appends to the user's dirty README: restored to the USER's version.
  stop: { mode: 'stuck', then: 'printf "agent line\\n" >> README.md', extra: [], exit: 20, taskOutcome: 'stopped' },
  blocked: { mode: 'blocked', extra: [], exit: 20, taskOutcome: 'blocked' },
  budget: { mode: 'tokens', extra: ['--max-tokens', '1000'], exit: 20, taskOutcome: 'budget' },
  timeout: { mode: 'hang', extra: ['--iteration-timeout', '2s'], exit: 20, taskOutcome: 'stopped' },
};

describe.concurrent("the user's own work around ralf run", () => {
  const flows: Flow[] = ['fresh', 'resumed', 'after-verify'];
  const outcomes: Outcome[] = ['pass', 'stop', 'blocked', 'budget', 'timeout'];
  for (const flow of flows) {
    for (const outcome of outcomes) {
      it(`${flow} run, ${outcome}: dirty, staged, untracked${flow === 'resumed' ? ' and committed-between-runs' : ''} files intact; commits hold only the agent's files`, async ({ expect }) => {
        const p = makeProject(THREE, { config: { max_iterations: 5 } });
        if (flow === 'after-verify') {
          // The slash-command flow: the agent session verified once (the engine's task start is HEAD's tree).
          const v = await runStableCli(['task', 'verify', p.planRel, '1', '--json'], { cwd: p.root, env: cleanEnv({ HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') }) });
          expect(v.exitCode).toBe(10);
        }
        seedUserWork(p.root);
        if (flow === 'resumed') {
          // Run 1: one agent iteration (fixes a.txt), then the run is stopped from outside.
          const first = await run(p, agent('progress', 'touch .planning/ralf/STOP'));
          expect(first.exitCode).toBe(130);
          rmSync(join(p.root, '.planning/ralf/STOP'));
          writeFileSync(join(p.root, 'between.txt'), 'committed by me between runs\n');
          git(p.root, 'add', '--', 'between.txt');
          git(p.root, 'commit', '-q', '-m', 'my own commit between runs', '--', 'between.txt');
        }
        const m = modes[outcome];
        const r = await run(p, agent(m.mode, m.then ?? ''), m.extra);
        expect(r.exitCode, r.stderr).toBe(m.exit);
        expect(r.events.filter((e) => e.type === 'task_end').at(-1)).toMatchObject({ outcome: m.taskOutcome });
        expectUserWorkIntact(p, flow === 'resumed');
        for (const files of ralfCommitFiles(p.root)) expect(files.every((f) => ['a.txt', 'b.txt', 'c.txt'].includes(f)), files.join(',')).toBe(true);
        if (outcome === 'pass') {
          expect(ralfCommitFiles(p.root)).toEqual([['a.txt', 'b.txt', 'c.txt']]);
        } else {
          // The agent's files are back to where they were before the agent (absent).
          for (const f of ['a.txt', 'b.txt', 'c.txt', 'partial.txt']) expect(existsSync(join(p.root, f)), f).toBe(false);
          // Each restore kept the attempt under a ref; the printed command brings it back as written, even after gc.
          const reverts = r.events.filter((e) => e.type === 'revert' && e.files.length > 0);
          expect(reverts.length).toBeGreaterThan(0);
          for (const rv of reverts) expect(rv.saved_as).toMatch(/^refs\/ralf\/attempts\/01-01\/task-1\//);
          // An attempt holds HEAD plus the agent's files only: never the user's untracked or staged-only files.
          for (const rv of reverts) expect(git(p.root, 'ls-tree', '-r', '--name-only', rv.saved_as).split('\n')).not.toEqual(expect.arrayContaining(['notes.txt']));
          for (const rv of reverts) expect(git(p.root, 'ls-tree', '-r', '--name-only', rv.saved_as).split('\n')).not.toEqual(expect.arrayContaining(['docs.md']));
          const last = reverts.at(-1)!;
          git(p.root, 'gc', '--prune=now', '--quiet');
          execFileSync('sh', ['-c', last.restore_command], { cwd: p.root });
          expect(last.files.filter((f: string) => existsSync(join(p.root, f)))).toEqual(last.files);
          expect(git(p.root, 'diff', '--cached', '--name-only').split('\n')).toEqual(['docs.md']);
          expect(readFileSync(join(p.root, 'notes.txt'), 'utf8')).toBe('my own notes, never committed\n');
        }
      });
    }
  }
});

describe.concurrent('ralf run commits and restores exactly the agent\'s paths', () => {
  it('a file named `*` is committed as that file, not as a pattern (the user\'s untracked files stay out)', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    seedUserWork(p.root);
    const r = await run(p, agent('progress', 'printf "star\\n" > "*"'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(ralfCommitFiles(p.root)).toEqual([['*', 'a.txt']]);
    expectUserWorkIntact(p, false);
  });

  it('a stuck agent that wrote a file named `*` restores only that file', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    seedUserWork(p.root);
    const r = await run(p, agent('stuck', 'printf "star\\n" > "*"'));
    expect(r.exitCode, r.stderr).toBe(20);
    expect(existsSync(join(p.root, '*'))).toBe(false);
    expectUserWorkIntact(p, false);
  });

  it('a failing pre-commit hook leaves no ralf staging behind: the user\'s index is as it was', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    const hooks = join(p.root, '.git-hooks-none');
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\necho "lint failed" >&2\nexit 1\n');
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    seedUserWork(p.root);
    const r = await run(p, agent('progress'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.events.filter((e) => e.type === 'warning').map((e) => e.message).join('\n')).toMatch(/commit failed/);
    expect(git(p.root, 'log', '--format=%s')).toBe('init');
    expect(git(p.root, 'status', '--porcelain', '--', 'a.txt')).toBe('?? a.txt');
    expectUserWorkIntact(p, false);
  });

  it('a hanging pre-commit hook is killed at run.commit_timeout_seconds; the run ends, nothing staged', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])], { config: { run: { backoff_seconds: [0], commit_timeout_seconds: 2 } } });
    const pidFile = join(tempDir('ralf-hook-'), 'pid');
    const hooks = join(p.root, '.git-hooks-none');
    writeFileSync(join(hooks, 'pre-commit'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 600\n`);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    seedUserWork(p.root);
    const r = await run(p, agent('progress'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.events.filter((e) => e.type === 'warning').map((e) => e.message).join('\n')).toMatch(/timed out/);
    expect(alive(Number(readFileSync(pidFile, 'utf8').trim()))).toBe(false);
    expect(git(p.root, 'status', '--porcelain', '--', 'a.txt')).toBe('?? a.txt');
    expectUserWorkIntact(p, false);
  });

  it('a task whose manual criteria the agent never confirms stops unconfirmed with its passing change left for a person, nothing committed', async ({ expect }) => {
    const task = `<task type="auto">
  <name>Task 1: Write a</name>
  <files>a.txt</files>
  <action>Write ok into a.txt.</action>
  <verify><automated>node check.mjs a</automated></verify>
  <done>A person reading a.txt agrees that it looks right</done>
</task>`;
    const p = makeProject([task]);
    seedUserWork(p.root);
    // Never says TASK_DONE: fixes a.txt (confirm 1), changes nothing (confirm 2), breaks it (a counted
    // retry, which ends the streak of confirms), fixes it again (confirm 1), then idles (confirms 2, 3):
    // the engine's bound, three unanswered confirms in a row, stops the loop as `task verify` would.
    const counter = join(tempDir('ralf-agent-calls-'), 'n');
    const script = `n=$(cat '${counter}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '${counter}'; case $n in 1|4) echo ok > a.txt;; 3) echo bad > a.txt;; esac; echo working`;
    const r = await run(p, `sh -c ${JSON.stringify(script)} {prompt}`);
    expect(r.exitCode, r.stderr).toBe(20);
    expect(r.events.filter((e) => e.type === 'task_end').at(-1)).toMatchObject({ outcome: 'stopped', stop_reason: 'unconfirmed' });
    expect(readFileSync(join(p.root, 'a.txt'), 'utf8')).toBe('ok\n');
    expect(readFileSync(counter, 'utf8').trim()).toBe('6');
    expect(r.events.some((e) => e.type === 'revert' && e.files.includes('a.txt'))).toBe(false);
    expect(ralfCommitFiles(p.root)).toEqual([]);
    expectUserWorkIntact(p, false);
  });

  it('with a push-mirror remote, the first restore warns that `git push` would send refs/ralf/ and says how not to', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    git(p.root, 'remote', 'add', '--mirror=push', 'backup', tempDir('ralf-mirror-'));
    const r = await run(p, agent('stuck'));
    expect(r.exitCode, r.stderr).toBe(20);
    const warnings = r.events.filter((e) => e.type === 'warning' && /push mirror/.test(e.message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain(`remote "backup" is a push mirror`);
    expect(warnings[0]!.message).toContain(`git push --force --prune <remote> 'refs/*:refs/*' '^refs/ralf/*'`);
    // Without a mirror remote, no such warning (the other tests' runs).
    const q = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    const r2 = await run(q, agent('stuck'));
    expect(r2.events.some((e) => e.type === 'warning' && /push mirror/.test(e.message))).toBe(false);
  });

  it('files the checks create between iterations are not the agent\'s: never restored', async ({ expect }) => {
    const p = makeProject([autoTask(1, 'Write a', ['a.txt'])]);
    // The check writes a report file into the project (not ignored) every time it runs.
    writeFileSync(join(p.root, 'check.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync('check-report.txt', 'ran\\n');\n${readFileSync(join(p.root, 'check.mjs'), 'utf8')}`);
    git(p.root, 'commit', '-qam', 'check writes a report');
    const r = await run(p, agent('stuck'));
    expect(r.exitCode, r.stderr).toBe(20);
    expect(existsSync(join(p.root, 'a.txt'))).toBe(false);
    // Three runs: the baseline at `task start` (issue 13: what already fails before the first edit) and two iterations.
    expect(readFileSync(join(p.root, 'check-report.txt'), 'utf8')).toBe('ran\nran\nran\n');
  });
});


describe("the user's staging around a task's commit", () => {
  const task = `<task type="auto">
  <name>Task 1: Mark the last line</name>
  <files>lib.txt</files>
  <action>Replace line10 of lib.txt with agent.</action>
  <verify><automated>grep -qx agent lib.txt</automated></verify>
  <done>\`grep -qx agent lib.txt\` passes</done>
</task>`;
  const text = (lines: string[]) => `${lines.join('\n')}\n`;
  const shown = (lines: string[]) => lines.join('\n'); // (git() trims its output)
  const HEAD = Array.from({ length: 10 }, (_, i) => `line${i + 1}`);
  const edit = (lines: string[], n: number, to: string) => lines.map((l, i) => (i === n - 1 ? to : l));
  const AGENT_EDIT = `sh -c ${JSON.stringify("sed -i 's/^line10$/agent/' lib.txt; echo edited")} {prompt}`;

  function project(): Project {
    const p = makeProject([task]);
    writeFileSync(join(p.root, 'lib.txt'), text(HEAD));
    git(p.root, 'add', '--', 'lib.txt');
    git(p.root, 'commit', '-q', '-m', 'lib');
    return p;
  }

  it('what the user staged in the file the agent commits is staged again on top of the commit', async ({ expect }) => {
    const p = project();
    writeFileSync(join(p.root, 'lib.txt'), text(edit(HEAD, 1, 'mine')));
    git(p.root, 'add', '--', 'lib.txt');
    const r = await run(p, AGENT_EDIT);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(git(p.root, 'show', 'HEAD:lib.txt')).toBe(shown(edit(HEAD, 10, 'agent')));
    expect(git(p.root, 'show', ':lib.txt')).toBe(shown(edit(edit(HEAD, 1, 'mine'), 10, 'agent')));
    expect(readFileSync(join(p.root, 'lib.txt'), 'utf8')).toBe(text(edit(edit(HEAD, 1, 'mine'), 10, 'agent')));
    expect(git(p.root, 'diff', '--name-only')).toBe('');
  });

  it('a staged change next to the agent\'s: the committed content is staged, the change stays in the tree, and a warning says how to stage it again', async ({ expect }) => {
    const p = project();
    // Staged line 9, then put back in the working tree: the agent's file is HEAD's, so the commit
    // holds its edit; the staged line 9 and the committed line 10 touch.
    writeFileSync(join(p.root, 'lib.txt'), text(edit(HEAD, 9, 'mine')));
    git(p.root, 'add', '--', 'lib.txt');
    writeFileSync(join(p.root, 'lib.txt'), text(HEAD));
    const r = await run(p, AGENT_EDIT);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(git(p.root, 'show', 'HEAD:lib.txt')).toBe(shown(edit(HEAD, 10, 'agent')));
    expect(git(p.root, 'show', ':lib.txt')).toBe(shown(edit(HEAD, 10, 'agent')));
    const warning = r.events.find((e) => e.type === 'warning' && String(e.message).startsWith('lib.txt: what you had staged'));
    expect(warning?.message).toContain('git add -p -- lib.txt');
  });
});
