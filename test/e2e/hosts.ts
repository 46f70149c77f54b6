/**
 * Running the real agent CLIs (node_modules/.bin/claude, opencode; RALF_E2E_CLAUDE / RALF_E2E_OPENCODE
 * name other installs, to try another release) headless against the
 * scripted model on 127.0.0.1, with temp HOME/config dirs (recipes: AGENT-HOSTS.md).
 * Every run is time-boxed; nothing leaves loopback.
 */
import { execa } from 'execa';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, repoRoot, tempDir } from '../helpers/cli.js';

export const claudeBin = process.env.RALF_E2E_CLAUDE ?? join(repoRoot, 'node_modules', '.bin', 'claude');
export const opencodeBin = process.env.RALF_E2E_OPENCODE ?? join(repoRoot, 'node_modules', '.bin', 'opencode');

const gitIdentity = {
  GIT_AUTHOR_NAME: 'e2e',
  GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
  GIT_COMMITTER_NAME: 'e2e',
  GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

export interface Sandbox {
  base: string;
  home: string;
  project: string;
}

/** A temp HOME and a git project copied from test/e2e/fixtures/<fixture>, one commit in. */
export async function makeSandbox(fixture = 'project'): Promise<Sandbox> {
  const base = tempDir('ralf-e2e-');
  const home = join(base, 'home');
  const project = join(base, 'project');
  mkdirSync(home);
  cpSync(join(repoRoot, 'test', 'e2e', 'fixtures', fixture), project, { recursive: true });
  const env = cleanEnv({ HOME: home, ...gitIdentity });
  for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'chore: fixture']]) {
    await execa('git', args, { cwd: project, env, extendEnv: false });
  }
  return { base, home, project };
}

export function claudeEnv(sb: Sandbox, modelUrl: string): Record<string, string | undefined> {
  return cleanEnv({
    HOME: sb.home,
    CLAUDE_CONFIG_DIR: join(sb.home, '.claude'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...gitIdentity,
  });
}

export function opencodeEnv(sb: Sandbox, modelUrl: string): Record<string, string | undefined> {
  const h = sb.home;
  const config = {
    provider: { fake: { npm: '@ai-sdk/openai-compatible', options: { baseURL: `${modelUrl}/v1`, apiKey: 'dummy' }, models: { 'fake-model': {} } } },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
  };
  return cleanEnv({
    HOME: h,
    XDG_CONFIG_HOME: join(h, '.config'),
    XDG_DATA_HOME: join(h, '.local', 'share'),
    XDG_CACHE_HOME: join(h, '.cache'),
    XDG_STATE_HOME: join(h, '.local', 'state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    // opencode npm-installs its plugin package in every config dir: keep that on a dead loopback port,
    // and offline, so it fails at once (plugins, ralf's included, load only after it ends: with npm's
    // retries against the dead port that is over a minute).
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_offline: 'true',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    ...gitIdentity,
  });
}

export interface AgentRun {
  exitCode: number | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

async function runAgent(bin: string, args: string[], cwd: string, env: Record<string, string | undefined>, timeoutMs: number): Promise<AgentRun> {
  // PWD too: opencode takes its project directory from PWD, not from the process cwd.
  const r = await execa(bin, args, { cwd, env: { ...env, PWD: cwd }, extendEnv: false, reject: false, stdin: 'ignore', timeout: timeoutMs, forceKillAfterDelay: 2000 });
  return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** `claude -p <prompt>` (add `--continue` to answer the previous turn). Bash is allowed by flag, never by bypassing permissions. */
export function runClaude(sb: Sandbox, modelUrl: string, prompt: string, options: { continue?: boolean; timeoutMs?: number } = {}): Promise<AgentRun> {
  const args = ['-p', prompt, '--allowedTools', 'Bash', '--model', 'scripted-model'];
  if (options.continue) args.splice(0, 0, '--continue');
  return runAgent(claudeBin, args, sb.project, claudeEnv(sb, modelUrl), options.timeoutMs ?? 90_000);
}

/** `opencode run --command NAME ARGS...`, or `opencode run --continue MESSAGE`. */
export function runOpencode(sb: Sandbox, modelUrl: string, input: { command: string; args: string[] } | { continue: string }, timeoutMs = 90_000): Promise<AgentRun> {
  const args = 'command' in input ? ['run', '--command', input.command, ...input.args] : ['run', '--continue', input.continue];
  return runAgent(opencodeBin, args, sb.project, opencodeEnv(sb, modelUrl), timeoutMs);
}
