/**
 * The project `ralf run` scenarios play in: two failing node:test tests (alpha, bravo) and a
 * user with work of their own (an uncommitted edit of the tracked USER.md, the untracked
 * notes.txt), with the helpers that read a run's events and run a printed command as written.
 */
import { spawnSync } from 'node:child_process';
import { Scenario, wantFor, type AgentRun } from './harness.js';
import { RUNNERS } from './runners.js';

export const runner = RUNNERS.nodeTest;
export const COMMITTED_MD = '# Notes\n\none\ntwo\nthree\n';
export const USER_MD = '# Notes (mine)\n\none\ntwo\nthree\n';
export const NOTES = 'untracked notes\n';
export const units = (values: Record<string, number>) => runner.source({ values })['src/units.js']!;
export const START = units({ alpha: 0, bravo: 0 });
export const FIXED = units({ alpha: 1, bravo: 2 });

/** Two failing tests (alpha, bravo), the user's dirty USER.md and untracked notes.txt. */
export function userProject(limits: Record<string, number> = {}, files: Record<string, string> = {}): Scenario {
  const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4, error_fingerprint_repeats: 2, no_progress_repeats: 2, ...limits }, files: { 'USER.md': COMMITTED_MD, ...files } });
  s.write('USER.md', USER_MD);
  s.write('notes.txt', NOTES);
  return s;
}

export const ofType = (r: AgentRun, type: string) => r.events.filter((e) => e.type === type);
export const taskEnd = (r: AgentRun) => ofType(r, 'task_end')[0];
export const explain = (r: AgentRun) => JSON.stringify(r.events.filter((e) => e.type !== 'agent_start' && e.type !== 'agent_exit').map(({ ts: _t, elapsed_ms: _e, handoff: _h, tasks: _k, ...e }) => e), null, 1).slice(0, 6000);

export const commits = (s: Scenario) => s.git('log', '--format=%s').trim().split('\n');
export const committedFiles = (s: Scenario) => s.git('show', '--name-only', '--format=', 'HEAD').trim().split('\n');

/** The commands quoted (`...`) in a text that start with the runtime's invocation or git. */
export function commandsIn(text: string, starts: RegExp): string[] {
  // Every stretch between two backticks (a table's `a \| b` spans may leave one unpaired).
  return [...text.matchAll(/`([^`\n]+)(?=`)/g)].map((m) => m[1]!).filter((c) => /^("|ralf |node |git )/.test(c) && starts.test(c));
}

/** Runs a printed command text as written, in the project directory, with the scenario's environment. */
export function sh(s: Scenario, command: string, okCodes = [0]): string {
  const r = spawnSync('bash', ['-c', command], { cwd: s.dir, env: s.env() as NodeJS.ProcessEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!okCodes.includes(r.status ?? -1)) throw new Error(`\`${command}\` exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
