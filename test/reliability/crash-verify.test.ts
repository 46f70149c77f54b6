/**
 * kill -9 of `ralf task verify` at many points (timed, and on file-system markers inside
 * the lock's critical section): the state always parses, iterations stay 1..k, every
 * complete log line parses, and the next verify records exactly (recorded count) + 1.
 */
import { watch, readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDLESS, PLAN_REL, Project, alive, cleanupTempDirs, killAllIn, processesIn, sleep, spreadDelays, task, waitUntil, type Exit } from './helpers.js';
import { taskLoop } from '../helpers/state.js';

afterAll(cleanupTempDirs);

/** A failing check that records its pid (so orphans left by a killed ralf can be found). Plain sh: cheap. */
const FAIL_CHECK = 'mkdir -p run; echo $$ >> run/check-pids; echo "Error: value is still wrong" >&2; exit 1\n';

/** No git: the snapshot's git processes would only make every run slower (git is exercised elsewhere). */
function project(): Project {
  return new Project({ tasks: [task('Task 1: Crash me', 'sh fail.sh')], files: { 'fail.sh': FAIL_CHECK }, config: ENDLESS, git: false });
}

const VERIFY = ['task', 'verify', PLAN_REL, '1', '--json'];

/** What one killed run did, judged from the files it left. */
interface KillOutcome {
  exit: Exit;
  stateAdvanced: boolean;
  logAdvanced: boolean;
}

function counted(p: Project): number[] {
  return p.log().entries.filter((e) => e.action === 'verify' && e.counted).map((e) => e.iteration);
}

/**
 * Checks the invariants after a kill and returns what it changed. `before` is the
 * recorded iteration count before the killed run started.
 */
function checkAfterKill(p: Project, before: number, loggedBefore: number, exit: Exit): KillOutcome {
  // The state parses (old or new, never a mix) and its iterations are exactly 1..k.
  const after = p.iterations(1);
  const numbers = (taskLoop(p.state(), 1)?.iterations ?? []).map((i: { iteration: number }) => i.iteration);
  expect(numbers).toEqual(Array.from({ length: after }, (_, i) => i + 1));
  expect([before, before + 1]).toContain(after);
  // A run that finished before the kill landed recorded exactly one iteration.
  if (exit.signal === null) {
    expect(exit.code).toBe(10);
    expect(JSON.parse(exit.stdout)).toMatchObject({ iteration: before + 1, counted: true });
    expect(after).toBe(before + 1);
  }
  // Every newline-terminated log line parses; a log line only follows its state write.
  const log = p.log();
  expect(log.torn).toBeNull();
  expect(log.bad).toEqual([]);
  const logged = counted(p).length;
  expect([loggedBefore, loggedBefore + 1]).toContain(logged);
  if (logged === loggedBefore + 1) expect(after).toBe(before + 1);
  return { exit, stateAdvanced: after === before + 1, logAdvanced: logged === loggedBefore + 1 };
}

/** The next uninterrupted verify continues at exactly the recorded count + 1. */
async function resumes(p: Project): Promise<void> {
  const before = p.iterations(1);
  const r = await p.verify(1);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(10);
  expect(r.json).toMatchObject({ verdict: 'retry', iteration: before + 1, counted: true });
  expect(p.iterations(1)).toBe(before + 1);
}

/**
 * The state directory holds only the plan's files and the debris a kill may leave (temp files
 * of atomic writes, a dead holder's lock, a dead verify's check ledger).
 */
function checkStateDir(p: Project): string[] {
  const names = readdirSync(p.path('.planning/ralf'));
  const debris = names.filter((n) => !['01-01.json', '01-01.jsonl', '.cache-01-01.json', '.gitignore'].includes(n));
  for (const n of debris) expect(n).toMatch(/^(\.(01-01\.json|\.cache-01-01\.json)\.\d+\.[0-9a-z]+\.tmp|01-01\.lock|\.checks-\d+)$/);
  return debris;
}

async function finalChecks(p: Project, lostLogLines: number[]): Promise<void> {
  await resumes(p);
  const k = p.iterations(1);
  // The log lacks exactly the lines of runs killed between the JSON write and the append.
  const expected = Array.from({ length: k }, (_, i) => i + 1).filter((n) => !lostLogLines.includes(n));
  expect(counted(p)).toEqual(expected);
  // `ralf status --json` reads it all.
  const status = await p.run(['status', '--json']);
  expect(status.code).toBe(0);
  const plans = JSON.parse(status.stdout).plans;
  expect(plans.map((x: { plan_id: string }) => x.plan_id)).toEqual(['01-01']);
  expect(plans[0].loops[0]).toMatchObject({ task: 1, status: 'running', iterations: k });
  // After a clean run no lock and no dead verify's check ledger is left, only temp-file debris may be.
  expect(checkStateDir(p).filter((n) => n.endsWith('.lock') || n.startsWith('.checks-'))).toEqual([]);
  // Checks orphaned by a kill ran to their (quick) end: nothing is left running.
  expect(await waitUntil(() => processesIn(p.dir).length === 0, 10_000)).toBe(true);
  for (const pid of readFileSync(p.path('run/check-pids'), 'utf8').trim().split('\n').map(Number)) expect(alive(pid)).toBe(false);
}

describe('kill -9 during ralf task verify', () => {
  it('timed kills spread over a whole run: state parses, the next verify continues at count + 1', async () => {
    const p = project();
    try {
      // An uninterrupted (warm: plan cache written by the first) run measures the lifetime the kills are spread over.
      await resumes(p);
      const t0 = Date.now();
      await resumes(p);
      const lifetime = Date.now() - t0;
      const lost: number[] = [];
      const outcomes: KillOutcome[] = [];
      // 14 points over the whole run, 6 more over its last fifth (where state is written).
      const delays = [...spreadDelays(lifetime, 14, 7), ...spreadDelays(Math.round(lifetime / 5), 6, 3).map((d) => Math.round(lifetime * 0.8) + d)];
      for (const delay of delays) {
        const before = p.iterations(1);
        const loggedBefore = counted(p).length;
        const child = p.start(VERIFY);
        await sleep(delay);
        child.kill('SIGKILL');
        const o = checkAfterKill(p, before, loggedBefore, await child.done);
        if (o.stateAdvanced && !o.logAdvanced) lost.push(before + 1);
        outcomes.push(o);
        await resumes(p);
      }
      // The spread reached both sides: some runs died before recording, some after.
      expect(outcomes.some((o) => o.exit.signal === 'SIGKILL' && !o.stateAdvanced)).toBe(true);
      await finalChecks(p, lost);
    } finally {
      killAllIn(p.dir);
    }
  }, 90_000);

  it('kills on markers: during the check, on the lock, on the temp state file, on the state rename, on the log append', async () => {
    const p = project();
    try {
      mkdirSync(p.path('.planning/ralf'), { recursive: true });
      await resumes(p);
      const lost: number[] = [];
      const markers: Array<[string, (dir: 'ralf' | 'run', name: string) => boolean]> = [
        ['check started', (dir, name) => dir === 'run' && name === 'check-pids'],
        ['lock created', (dir, name) => dir === 'ralf' && name === '01-01.lock'],
        ['temp state written', (dir, name) => dir === 'ralf' && /^\.01-01\.json\..*\.tmp$/.test(name)],
        ['state renamed', (dir, name) => dir === 'ralf' && name === '01-01.json'],
        ['log appended', (dir, name) => dir === 'ralf' && name === '01-01.jsonl'],
      ];
      const seen: Record<string, { before: number; after: number }> = {};
      for (const [label, match] of markers) {
        for (let round = 0; round < 2; round++) {
          const before = p.iterations(1);
          const loggedBefore = counted(p).length;
          mkdirSync(p.path('run'), { recursive: true });
          const child = p.start(VERIFY);
          let fired = false;
          const fire = (dir: 'ralf' | 'run') => (_: string, name: string | null) => {
            if (!fired && name && match(dir, name)) {
              fired = true;
              child.kill('SIGKILL');
            }
          };
          const watchers = [watch(p.path('.planning/ralf'), fire('ralf')), watch(p.path('run'), fire('run'))];
          const exit = await child.done;
          for (const w of watchers) w.close();
          const o = checkAfterKill(p, before, loggedBefore, exit);
          if (o.stateAdvanced && !o.logAdvanced) lost.push(before + 1);
          seen[`${label} #${round}`] = { before, after: p.iterations(1) };
          // No claim about whether this kill landed before or after the write: the watch event
          // reaches this process late (the check exits right after its marker). "Killed while a
          // check runs records nothing" is tested with a long check in test/commands/task-interrupt.
          await resumes(p);
        }
      }
      await finalChecks(p, lost);
      expect(Object.keys(seen)).toHaveLength(10);
    } finally {
      killAllIn(p.dir);
    }
  }, 90_000);

  it('kill -9 of the whole process group (ralf and its git children) in a git project: the user\'s index is untouched', async () => {
    const p = new Project({ tasks: [task('Task 1: Crash me', 'sh fail.sh')], files: { 'fail.sh': FAIL_CHECK, 'src/b.js': 'untracked\n' }, config: ENDLESS });
    p.write('src/a.js', 'module.exports = 2;\n'); // an unstaged change the snapshot must see but not stage
    try {
      await resumes(p);
      const t0 = Date.now();
      await resumes(p);
      const lifetime = Date.now() - t0;
      const index = readFileSync(p.path('.git/index'));
      const status = p.git('--no-optional-locks', 'status', '--porcelain').stdout;
      const lost: number[] = [];
      for (const delay of spreadDelays(lifetime, 8, 13)) {
        const before = p.iterations(1);
        const loggedBefore = counted(p).length;
        const child = p.start(VERIFY, true);
        await sleep(delay);
        child.kill('SIGKILL');
        const o = checkAfterKill(p, before, loggedBefore, await child.done);
        if (o.stateAdvanced && !o.logAdvanced) lost.push(before + 1);
        // The snapshot stages into a temp index: the user's index and status never change.
        expect(readFileSync(p.path('.git/index')).equals(index)).toBe(true);
        expect(p.exists('.git/index.lock')).toBe(false);
        expect(p.git('--no-optional-locks', 'status', '--porcelain')).toEqual({ status: 0, stdout: status });
        await resumes(p);
      }
      await finalChecks(p, lost);
      expect(p.git('fsck', '--no-dangling').status).toBe(0);
    } finally {
      killAllIn(p.dir);
    }
  }, 90_000);

  it('a torn last log line (power loss mid-append) is skipped by readers and fenced off by the next append', async () => {
    const p = project();
    await resumes(p);
    const whole = readFileSync(p.path('.planning/ralf/01-01.jsonl'), 'utf8');
    p.write('.planning/ralf/01-01.jsonl', `${whole}{"ts":"2026-01-01T00:00:00.000Z","scope":"task","ta`);
    const status = await p.run(['status', PLAN_REL, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).plans[0].loops[0].iterations).toBe(1);
    await resumes(p);
    // Only the torn fragment is lost; the new entry starts on its own line.
    const log = p.log();
    expect(log.torn).toBeNull();
    expect(log.bad).toEqual(['{"ts":"2026-01-01T00:00:00.000Z","scope":"task","ta']);
    expect(counted(p)).toEqual([1, 2]);
  });
});
