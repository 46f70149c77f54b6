/**
 * `ralf run` end to end with scripted agents that behave like real ones (agents/step-agent.mjs:
 * one edit per call, always claiming it is done), in a project where the user has work of their
 * own: a tracked file with uncommitted edits (USER.md) and an untracked one (notes.txt). Each
 * scenario asserts the verdict and stop reason at the exact iteration, what is committed (only
 * the agent's changes of this task), what is restored, and that the user's files are byte for
 * byte what they were after every outcome. Every command the run prints for a person or an
 * agent to run next (the handoff, warnings, `run_end`'s resume line, revert events, the Loop
 * Report) is run as written, in the project directory where it is read, and must work.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { PLAN, Scenario, wantFor } from './harness.js';
import { COMMITTED_MD, commandsIn, commits, committedFiles, explain, FIXED, NOTES, ofType, runner, sh, START, taskEnd, units, userProject as project, USER_MD } from './user-work.js';

/** The user's own files are exactly as they were; USER.md's edit still uncommitted. */
function expectUserWorkKept(s: Scenario, expect: any): void {
  expect(s.read('USER.md')).toBe(USER_MD);
  expect(s.read('notes.txt')).toBe(NOTES);
  expect(s.git('status', '--porcelain', '--', 'USER.md', 'notes.txt')).toBe(' M USER.md\n?? notes.txt\n');
}

describe.concurrent('ralf run with realistic agents: verdicts and the user\'s work', () => {
  it('fixes one test per call around the user\'s uncommitted work: passes at 2, commits src/units.js only, the user\'s files untouched', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { bravo: 2 } } }, { code: { values: { alpha: 1 } } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:pass']);
    expect(taskEnd(r)).toMatchObject({ outcome: 'passed', iterations: 2 });
    expect(commits(s)).toEqual(['feat(01-01): Make the units right', 'init']);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.git('show', 'HEAD:src/units.js')).toBe(FIXED);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('an agent that also edits the file the user had uncommitted changes in: the commit holds its edit, never the user\'s', async ({ expect }) => {
    const s = project();
    const agentMd = `${USER_MD}agent's line\n`;
    const r = await s.runAgent([{ code: { values: { alpha: 1 } }, write: { 'USER.md': agentMd } }, { code: { values: { bravo: 2 } } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(committedFiles(s)).toEqual(['USER.md', 'src/units.js']);
    // HEAD plus the agent's line; the user's line stays an uncommitted change in the working tree.
    expect(s.git('show', 'HEAD:USER.md')).toBe(`${COMMITTED_MD}agent's line\n`);
    expect(s.read('USER.md')).toBe(agentMd);
    expect(s.git('diff', 'HEAD', '--', 'USER.md')).toContain('\n+# Notes (mine)\n');
    expect(s.git('diff', 'HEAD', '--', 'USER.md')).not.toContain("agent's line");
    expect(s.read('notes.txt')).toBe(NOTES);
  }, 90_000);

  it('an agent that rewrites the user\'s uncommitted line itself: that file is left out of the commit and named', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } }, write: { 'USER.md': USER_MD.replace('(mine)', '(the agent\'s)') } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.git('show', 'HEAD:USER.md')).toBe(COMMITTED_MD);
    expect(ofType(r, 'warning').map((w) => w.message).join('\n')).toMatch(/USER\.md is not in the commit of task 1: .*cannot be told apart/);
    expect(s.read('USER.md')).toBe(USER_MD.replace('(mine)', '(the agent\'s)'));
  }, 90_000);

  it('an agent that edits a binary file the user had changed: left out of the commit and named; the file stays as the agent left it', async ({ expect }) => {
    const s = project({}, { 'logo.bin': 'PNG\u0000v1\n' });
    s.write('logo.bin', 'PNG\u0000v1-mine\n');
    const r = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } }, write: { 'logo.bin': 'PNG\u0000v1-mine\u0000agent\n' } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(ofType(r, 'warning').map((w) => w.message).join('\n')).toMatch(/logo\.bin is not in the commit of task 1: .*binary/);
    expect(s.read('logo.bin')).toBe('PNG\u0000v1-mine\u0000agent\n');
  }, 90_000);

  it('partial progress, then a cosmetic edit: repeated_fingerprint at 2, the agent\'s files restored (the user\'s edits in them too); the printed restore command brings the attempt back', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1 } }, write: { 'USER.md': `${USER_MD}agent's line\n` } }, { code: { comment: 'still working on it' } }, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:stop']);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(commits(s)).toEqual(['init']);
    expect(s.read('src/units.js')).toBe(START);
    expectUserWorkKept(s, expect);
    const revert = ofType(r, 'revert')[0];
    expect(revert).toMatchObject({ scope: 'task', files: ['USER.md', 'src/units.js'] });
    sh(s, revert.restore_command);
    expect(s.read('src/units.js')).toBe(units({ alpha: 1, bravo: 0 }).replace(/^/, '// still working on it\n'));
    expect(s.read('USER.md')).toBe(`${USER_MD}agent's line\n`);
  }, 90_000);

  it('idle agent (no change) and lying agent (a comment only): stopped at iteration 2, nothing committed, nothing of the user\'s touched', async ({ expect }) => {
    const idle = project();
    const liar = project();
    const [a, b] = await Promise.all([idle.runAgent([{}, {}, {}, {}]), liar.runAgent([1, 2, 3, 4].map((i) => ({ code: { comment: `all tests pass now (${i})` } })))]);
    for (const [s, r] of [[idle, a], [liar, b]] as const) {
      expect(r.code, explain(r)).toBe(20);
      expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
      expect(ofType(r, 'verify').every((v) => v.suspicious)).toBe(true);
      expect(commits(s)).toEqual(['init']);
      expect(s.read('src/units.js')).toBe(START);
      expectUserWorkKept(s, expect);
    }
  }, 90_000);

  it('an agent deleting a failing test to go green: held as failing, repeated_fingerprint at 3, the test file restored', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { suite: { drop: ['bravo'] } }, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}:${v.checks_passed}`)).toEqual(['1:retry:0', '2:retry:0', '3:stop:0']);
    expect(taskEnd(r)).toMatchObject({ stop_reason: 'repeated_fingerprint', iterations: 3 });
    expect(s.git('status', '--porcelain', '--', 'src', 'test')).toBe('');
    expect(commits(s)).toEqual(['init']);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('a check that rebuilds a committed dist/: never the agent\'s (no Rule 4, not committed, not restored)', async ({ expect }) => {
    const build = "require('fs').writeFileSync('dist/units.js', '// built ' + Date.now() + '\\n' + require('fs').readFileSync('src/units.js', 'utf8'));\n";
    const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4 }, files: { 'build.js': build, 'dist/units.js': '// old build\n' }, checks: ['node build.js', 'node --test test/'] });
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { code: { values: { bravo: 2 } } }]);
    expect(r.code, explain(r)).toBe(0);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry', '2:pass']);
    expect(ofType(r, 'verify')[1].message).toContain('checks modified tracked files: dist/units.js');
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expect(s.read('dist/units.js')).toContain(FIXED);
    expect(s.git('status', '--porcelain', '--', 'dist')).toBe(' M dist/units.js\n');
  }, 90_000);

  it('Rule 4 (a new dependency): stopped at iteration 1 with the change kept; the handoff\'s approve command, then the same run again: passes and commits both', async ({ expect }) => {
    const s = project();
    const pkg = '{ "name": "units", "private": true, "type": "commonjs", "dependencies": { "left-pad": "^1.3.0" } }\n';
    const first = await s.runAgent([{ code: { values: { alpha: 1 } }, write: { 'package.json': pkg } }, { code: { values: { bravo: 2 } } }]);
    expect(first.code, explain(first)).toBe(20);
    expect(taskEnd(first)).toMatchObject({ outcome: 'stopped', stop_reason: 'rule4_architectural', iterations: 1 });
    expect(taskEnd(first).handoff.escalation.findings).toEqual(['new dependency in package.json: left-pad (dependencies)']);
    expect(s.read('package.json')).toBe(pkg);
    expectUserWorkKept(s, expect);
    const [approve] = commandsIn(taskEnd(first).handoff.recommendation, / task approve /);
    expect(approve).toBeDefined();
    expect(sh(s, approve!)).toMatch(/approv/i);
    const again = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } } }]);
    expect(again.code, explain(again)).toBe(0);
    expect(taskEnd(again)).toMatchObject({ outcome: 'passed' });
    expect(committedFiles(s)).toEqual(['package.json', 'src/units.js']);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('a stop, then the handoff\'s defer command, then a new run: the task is deferred, the run completes, the user\'s files untouched; status says so', async ({ expect }) => {
    const s = project();
    const first = await s.runAgent([{ code: { values: { alpha: 1 } } }, {}, {}]);
    expect(taskEnd(first)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    const markdown: string = taskEnd(first).handoff.markdown;
    // The handoff names the reset; the human defers instead (README), with the same runtime.
    const [reset] = commandsIn(markdown, / task reset /);
    expect(reset, markdown).toBeDefined();
    expect(sh(s, `${reset!.replace(' task reset ', ' task defer ')} --reason "not now"`)).toContain('DEFERRED Task 1');
    const again = await s.runAgent([{ code: { values: { alpha: 1, bravo: 2 } } }]);
    expect(again.code, explain(again)).toBe(0);
    expect(taskEnd(again)).toMatchObject({ outcome: 'deferred' });
    expect(ofType(again, 'agent_start')).toEqual([]);
    expect(commits(s)).toEqual(['init']);
    expect(s.read('src/units.js')).toBe(START);
    expectUserWorkKept(s, expect);
    const status = JSON.parse(sh(s, reset!.replace(/ task reset .*/, ` status ${PLAN} --json`)));
    expect(status.tasks[0]).toMatchObject({ status: 'deferred' });
    expect(status.resume_at).toBeNull();
  }, 90_000);

  it('Ctrl-C while the agent is mid-edit: exit 130, that iteration\'s edits put back (the user\'s file it overwrote included); the printed resume command resumes and passes', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent(
      [{ code: { values: { alpha: 1 } } }, { code: { values: { bravo: 2 } }, write: { 'USER.md': 'the agent overwrote this\n' }, sleep_ms: 20_000 }, { write: { 'src/units.js': FIXED } }],
      { interruptAt: 2 },
    );
    expect(r.code, explain(r)).toBe(130);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry']);
    expect(ofType(r, 'revert')[0]).toMatchObject({ scope: 'iteration', files: ['USER.md', 'src/units.js'] });
    expect(s.read('src/units.js')).toBe(units({ alpha: 1, bravo: 0 }));
    expectUserWorkKept(s, expect);
    const end = ofType(r, 'run_end')[0];
    const [resume] = commandsIn(end.detail, / run /);
    expect(resume, end.detail).toBeDefined();
    const out = sh(s, resume!);
    const events = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === 'task_end')).toMatchObject({ outcome: 'passed', iterations: 2 });
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('Ctrl-C while the checks run: exit 130, not an iteration, the agent\'s finished edit kept for the resumed run, which passes at 2', async ({ expect }) => {
    // Once the agent's 2nd call armed it, the check itself sends ralf run (its parent) the SIGINT
    // a terminal's Ctrl-C would: it lands while the checks run whatever the machine's load (a test
    // polling for a file was late when a concurrent test blocked its event loop, and the run passed).
    // If ralf did not abort the checks, the check would go on to run the tests and pass.
    const check = 'if [ -e .home/arm ]; then kill -INT $PPID; sleep 10; fi; node --test test/';
    const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4 }, files: { 'USER.md': COMMITTED_MD }, checks: [check] });
    s.write('USER.md', USER_MD);
    s.write('notes.txt', NOTES);
    const r = await s.runAgent([{ code: { values: { alpha: 1 } } }, { code: { values: { bravo: 2 } }, write: { '.home/arm': '' } }]);
    expect(r.code, explain(r)).toBe(130);
    expect(ofType(r, 'verify').map((v) => `${v.iteration}:${v.verdict}`)).toEqual(['1:retry']);
    expect(taskEnd(r)).toMatchObject({ outcome: 'interrupted', iterations: 1 });
    expect(s.read('src/units.js')).toBe(FIXED);
    expectUserWorkKept(s, expect);
    s.remove('.home/arm');
    const again = await s.runAgent([{}]);
    expect(again.code, explain(again)).toBe(0);
    expect(taskEnd(again)).toMatchObject({ outcome: 'passed', iterations: 2 });
    expect(committedFiles(s)).toEqual(['src/units.js']);
    expectUserWorkKept(s, expect);
  }, 90_000);
});

describe.concurrent('ralf run with agents that make symlinks', () => {
  it('a tracked file replaced by a symlink out of the project, checks green through it: a Rule 4 stop, not a pass; nothing committed, the outside file untouched', async ({ expect }) => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'ralf-outside-')));
    writeFileSync(join(outside, 'units.js'), FIXED);
    const s = project();
    const r = await s.runAgent([{ symlink: { 'src/units.js': join(outside, 'units.js') } }]);
    expect(r.code, explain(r)).toBe(20);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'rule4_architectural', iterations: 1 });
    expect(taskEnd(r).handoff.escalation.findings).toEqual([`symlink pointing out of the project: src/units.js -> ${join(outside, 'units.js')}`]);
    expect(commits(s)).toEqual(['init']);
    // The printed defer command takes it out of the tree: the file is back, the outside file as it was.
    const [defer] = commandsIn(taskEnd(r).handoff.markdown, / task defer /);
    sh(s, defer!.replace('"..."', '"not this way"'));
    expect(lstatSync(join(s.dir, 'src/units.js')).isSymbolicLink()).toBe(false);
    expect(s.read('src/units.js')).toBe(START);
    expect(readFileSync(join(outside, 'units.js'), 'utf8')).toBe(FIXED);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('a tracked file replaced by a symlink to the user\'s dirty file (a test fails to load), then stuck: repeated_fingerprint at 2; the restore replaces the link and never writes through it', async ({ expect }) => {
    const s = project();
    const r = await s.runAgent([{ symlink: { 'src/units.js': '../USER.md' } }, {}, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(ofType(r, 'revert')[0]).toMatchObject({ scope: 'task', files: ['src/units.js'] });
    expect(lstatSync(join(s.dir, 'src/units.js')).isSymbolicLink()).toBe(false);
    expect(s.read('src/units.js')).toBe(START);
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('the source directory replaced by a symlink out of the project: a Rule 4 stop at 1 (was: exit 1, git refused the snapshot); the defer it names puts the directory back and leaves the outside alone', async ({ expect }) => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'ralf-outside-')));
    writeFileSync(join(outside, 'units.js'), 'elsewhere\n');
    const s = project();
    const r = await s.runAgent([{ symlink: { src: outside } }, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'rule4_architectural', iterations: 1 });
    expect(taskEnd(r).handoff.escalation.findings).toEqual([`symlink pointing out of the project: src -> ${outside}`]);
    const [defer] = commandsIn(taskEnd(r).handoff.markdown, / task defer /);
    sh(s, defer!.replace('"..."', '"not this way"'));
    expect(lstatSync(join(s.dir, 'src')).isSymbolicLink()).toBe(false);
    expect(s.read('src/units.js')).toBe(START);
    expect(readdirSync(outside)).toEqual(['units.js']);
    expect(readFileSync(join(outside, 'units.js'), 'utf8')).toBe('elsewhere\n');
    expectUserWorkKept(s, expect);
  }, 90_000);

  it('the source directory replaced by a symlink to another directory of the project, then stuck: repeated_fingerprint at 2; the restore removes the link and writes nothing through it', async ({ expect }) => {
    const s = project({}, { 'lib/units.js': 'lib\n' });
    const r = await s.runAgent([{ symlink: { src: 'lib' } }, {}, {}]);
    expect(r.code, explain(r)).toBe(20);
    expect(taskEnd(r)).toMatchObject({ outcome: 'stopped', stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(ofType(r, 'revert')[0]).toMatchObject({ scope: 'task', files: ['src', 'src/units.js'] });
    expect(lstatSync(join(s.dir, 'src')).isSymbolicLink()).toBe(false);
    expect(s.read('src/units.js')).toBe(START);
    expect(s.read('lib/units.js')).toBe('lib\n');
    expectUserWorkKept(s, expect);
  }, 90_000);
});
