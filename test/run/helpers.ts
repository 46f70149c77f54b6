/**
 * Temp GSD projects for `ralf run` tests: a git repo with `.planning/`, a PLAN.md built
 * from task blocks, and `check.mjs` (`node check.mjs a b` passes when a.txt and b.txt
 * hold "ok"). Agents are `node test/run/agents/agent.mjs <mode> {prompt}`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa, type Options } from 'execa';
import { cleanEnv, cliPath, repoRoot, tempDir } from '../helpers/cli.js';

let stable: string | null = null;

/**
 * A private copy of the built CLI (dist/ plus a link to examples/), taken once per test
 * file: other people rebuilding dist/ in the same checkout must not pull the bundle out
 * from under a running test. Same files, same behaviour as `runCli`. Files share a worker
 * (vitest.config.ts: isolate false), so a copy whose file is done (removed with its temp dirs) is taken again.
 */
export function stableCliPath(): string {
  if (stable && existsSync(stable)) return stable;
  const dir = tempDir('ralf-dist-');
  for (let i = 0; i < 100 && !(existsSync(cliPath) && existsSync(join(repoRoot, 'dist', 'cmd', 'run.js'))); i++) execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 100)']);
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  symlinkSync(join(repoRoot, 'examples'), join(dir, 'examples'));
  stable = join(dir, 'dist', 'ralf.js');
  return stable;
}

export async function runStableCli(args: string[], options: Options & { env?: Record<string, string | undefined> } = {}) {
  return execa(process.execPath, [stableCliPath(), ...args], { reject: false, extendEnv: false, stdin: 'ignore', ...options, env: options.env ?? cleanEnv() } as Options);
}

export const AGENT = join(repoRoot, 'test', 'run', 'agents', 'agent.mjs');

export const CHECK_MJS = `import { existsSync, readFileSync } from 'node:fs';
for (const name of process.argv.slice(2)) {
  const file = name + '.txt';
  if (!existsSync(file)) { console.error('Error: missing ' + file); process.exit(1); }
  if (readFileSync(file, 'utf8').trim() !== 'ok') { console.error('Error: ' + file + ' is wrong'); process.exit(1); }
}
console.log('ok');
`;

/** An auto task whose files must hold "ok" (checked by check.mjs). */
export function autoTask(n: number, name: string, files: string[]): string {
  const names = files.map((f) => f.replace(/\.txt$/, ''));
  return `<task type="auto">
  <name>Task ${n}: ${name}</name>
  <files>${files.join(', ')}</files>
  <action>Write ok into ${files.join(' and ')}.</action>
  <verify><automated>node check.mjs ${names.join(' ')}</automated></verify>
  <done>\`node check.mjs ${names.join(' ')}\` passes</done>
</task>`;
}

export function checkpointTask(n: number): string {
  return `<task type="checkpoint:human-verify" gate="blocking">
  <name>Task ${n}: Look at it</name>
  <what-built>The files.</what-built>
  <how-to-verify>Open a.txt and check it says ok.</how-to-verify>
  <resume-signal>Type "approved" or describe issues</resume-signal>
</task>`;
}

export function planText(tasks: string[], opts: { autonomous?: boolean; wave?: number; phase?: string; plan?: string } = {}): string {
  return `---
phase: ${opts.phase ?? '01-test'}
plan: ${opts.plan ?? '01'}
type: execute
wave: ${opts.wave ?? 1}
depends_on: []
files_modified: []
autonomous: ${opts.autonomous ?? !tasks.some((t) => t.includes('checkpoint:'))}
---

<objective>
Make the files say ok.
</objective>

<tasks>
${tasks.join('\n\n')}
</tasks>
`;
}

export interface Project {
  root: string;
  planPath: string;
  planRel: string;
  logDir: string;
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).trim();
}

export function makeProject(tasks: string[], opts: { config?: Record<string, unknown>; autonomous?: boolean; planId?: string } = {}): Project {
  const root = tempDir('ralf-run-');
  const planId = opts.planId ?? '01-01';
  const planRel = `.planning/phases/01-test/${planId}-PLAN.md`;
  const planPath = join(root, planRel);
  mkdirSync(dirname(planPath), { recursive: true });
  writeFileSync(planPath, planText(tasks, { autonomous: opts.autonomous, plan: planId.split('-')[1] }));
  writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { run: { backoff_seconds: [0, 0, 0] }, ...opts.config } }, null, 2));
  writeFileSync(join(root, 'check.mjs'), CHECK_MJS);
  writeFileSync(join(root, 'README.md'), '# test project\n');
  mkdirSync(join(root, '.git-hooks-none'));
  git(root, 'init', '-q');
  for (const [k, v] of [['user.name', 'ralf test'], ['user.email', 't@example.invalid'], ['commit.gpgsign', 'false'], ['core.hooksPath', join(root, '.git-hooks-none')]]) git(root, 'config', k!, v!);
  git(root, 'add', '--', '.');
  git(root, 'commit', '-q', '-m', 'init');
  // Prompts are logged outside the project (the agent's own files must not dirty its tree).
  return { root, planPath, planRel, logDir: tempDir('ralf-run-prompts-') };
}

export function agentCmd(mode: string): string {
  return `node ${JSON.stringify(AGENT)} ${mode} {prompt}`;
}

export interface RunOutput {
  exitCode: number;
  events: Array<Record<string, any>>;
  stdout: string;
  stderr: string;
}

export async function ralfRun(p: Project, mode: string, extra: string[] = [], env: Record<string, string> = {}): Promise<RunOutput> {
  const r = await runStableCli(['run', p.planRel, '--agent', agentCmd(mode), '--json', ...extra], {
    cwd: p.root,
    env: cleanEnv({ AGENT_LOG_DIR: p.logDir, ...env, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg') }),
    timeout: 60_000,
  });
  return runResultOf(r);
}

export function ofType(events: RunOutput['events'], type: string): Array<Record<string, any>> {
  return events.filter((e) => e.type === type);
}

export function readState(p: Project, planId = '01-01'): any {
  return JSON.parse(readFileSync(join(p.root, '.planning', 'ralf', `${planId}.json`), 'utf8'));
}

export function prompts(p: Project): string[] {
  const out: string[] = [];
  for (let i = 1; ; i++) {
    try {
      out.push(readFileSync(join(p.logDir, `${i}.txt`), 'utf8'));
    } catch {
      return out;
    }
  }
}

/** A `ralf run --json` child's result: its exit code, the event lines it printed, and its raw output. */
export function runResultOf(r: { exitCode?: number | null; stdout?: unknown; stderr?: unknown }) {
  const stdout = String(r.stdout);
  const events = stdout
    .split('\n')
    .filter((l) => l.startsWith('{"type"'))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { exitCode: r.exitCode ?? -1, events, stdout, stderr: String(r.stderr) };
}
