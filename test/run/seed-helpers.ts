/**
 * Temp git projects for the seed-system tests (ralph1, copilot_ralf, the Persistence Loop,
 * ralph.json): each system's own files, a quality gate `gate.mjs` (every `*.txt` in the
 * project root must hold "ok"), and the scripted agent test/run/agents/seed-agent.mjs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/cli.js';
import { git, runResultOf, runStableCli, type RunOutput } from './helpers.js';

export const SEED_AGENT = join(repoRoot, 'test', 'run', 'agents', 'seed-agent.mjs');

export const GATE_MJS = `import { readdirSync, readFileSync } from 'node:fs';
const bad = readdirSync('.').filter((f) => f.endsWith('.txt') && readFileSync(f, 'utf8').trim() !== 'ok');
if (bad.length > 0) { console.error('Error: not ok: ' + bad.join(', ')); process.exit(1); }
console.log('ok');
`;

export interface SeedProject {
  root: string;
  logDir: string;
}

export function seedProject(files: Record<string, string>, config: Record<string, unknown> | null = { checks: { tests: 'node gate.mjs' } }): SeedProject {
  const root = tempDir('ralf-seed-');
  const all: Record<string, string> = { 'gate.mjs': GATE_MJS, 'README.md': '# seed project\n', ...files };
  if (config) all['.planning/config.json'] = JSON.stringify({ ralf_lite: { run: { backoff_seconds: [0, 0] }, ...config } }, null, 2);
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  mkdirSync(join(root, '.git-hooks-none'));
  git(root, 'init', '-q');
  for (const [k, v] of [['user.name', 'ralf test'], ['user.email', 't@example.invalid'], ['commit.gpgsign', 'false'], ['core.hooksPath', join(root, '.git-hooks-none')]]) git(root, 'config', k!, v!);
  writeFileSync(join(root, '.gitignore'), '.git-hooks-none/\n');
  git(root, 'add', '--', '.');
  git(root, 'commit', '-q', '-m', 'init');
  return { root, logDir: tempDir('ralf-seed-prompts-') };
}

export function seedAgentCmd(): string {
  return `node ${JSON.stringify(SEED_AGENT)} {prompt}`;
}

/** `ralf run <args> --json` in the project, with the seed agent unless `--agent` is given. */
export async function seedRun(p: SeedProject, args: string[], env: Record<string, string> = {}): Promise<RunOutput> {
  const agent = args.includes('--agent') ? [] : ['--agent', seedAgentCmd()];
  const base = cleanEnv({ AGENT_LOG_DIR: p.logDir, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg'), ...env });
  for (const k of Object.keys(base)) if (k.startsWith('RALPH_') && !(k in env)) delete base[k];
  const r = await runStableCli(['run', ...args, ...agent, '--json'], { cwd: p.root, env: base, timeout: 90_000 });
  return runResultOf(r);
}

export function read(p: SeedProject, rel: string): string {
  return readFileSync(join(p.root, rel), 'utf8');
}

export function write(p: SeedProject, rel: string, text: string): void {
  mkdirSync(dirname(join(p.root, rel)), { recursive: true });
  writeFileSync(join(p.root, rel), text);
}

export function commitAll(p: SeedProject, message: string): void {
  git(p.root, 'add', '-A', '--', '.');
  git(p.root, 'commit', '-q', '-m', message);
}

/** Names of the tasks the agent was called for, in call order (from the logged prompts). */
export function agentCalls(p: SeedProject): string[] {
  const out: string[] = [];
  for (let i = 1; ; i++) {
    try {
      const prompt = readFileSync(join(p.logDir, `${i}.txt`), 'utf8');
      out.push(/<name>(.*)<\/name>/.exec(prompt)?.[1] ?? '?');
    } catch {
      return out;
    }
  }
}

/** What the agent got on one call: its argv (without the prompt) and the model/reasoning environment. */
export function agentSaw(p: SeedProject, call: number): { argv: string[]; model: string | null; reasoning: string | null; thinking: string | null } {
  return JSON.parse(readFileSync(join(p.logDir, `${call}.argv.json`), 'utf8'));
}

/** A `claude` on PATH that is the scripted agent (answering in stream-json); returns the PATH to use. */
export function fakeClaudePath(p: SeedProject): string {
  const bin = tempDir('ralf-fake-claude-');
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(SEED_AGENT)} "$@"\n`, { mode: 0o755 });
  return `${bin}:${process.env.PATH ?? ''}`;
}

/** Paths a commit changed (`git show --name-status`), as `M path` / `A path` / `D path` / `R path`. */
export function commitFiles(p: SeedProject, ref: string): string[] {
  return git(p.root, 'show', '--name-status', '--format=', ref)
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^R\d+\t/, 'R\t').replace(/\t/g, ' '));
}

export function subjects(p: SeedProject): string[] {
  return git(p.root, 'log', '--format=%s').split('\n');
}
