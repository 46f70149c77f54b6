import { dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';

/**
 * What ralf needs to know about an agent host, behind one small interface so no
 * code outside src/hosts/ branches on the host's name.
 */
export interface Host {
  name: HostName;
  label: string;
  /** The host's global config dir, resolved by the same precedence GSD's installer uses. */
  resolveConfigDir(input: ConfigDirInput): { dir: string; source: string };
  /** The project-local config dir name (`.opencode`, `.claude`). */
  localDirName: string;
  /** Where slash-command files go, relative to the global or local config dir. */
  commandsSubdir: string;
  /** Env vars the host sets in the shells its agent runs; used to detect the host. */
  detect(env: NodeJS.ProcessEnv): boolean;
  /** Every env var `detect` and `resolveConfigDir` read (the plan cache is keyed on them). */
  envKeys: readonly string[];
  /**
   * Frontmatter keys of a command source (written for Claude Code) that this host does
   * not understand; `ralf install` drops them. OpenCode's command keys are description,
   * agent, model and subtask (it names commands by file name).
   */
  commandFrontmatterDrop: readonly string[];
  /** How a user types an installed command, e.g. `/execute-plan`. */
  commandInvocation(name: string): string;
  /**
   * The env var that carries the host's session id into the shell commands its agent runs
   * (`ralf task start`/`verify` record it so the Stop hook holds only that session).
   */
  sessionEnv: string;
  /**
   * How ralf makes the host hold an agent whose loop is open: a Stop/SubagentStop hook in
   * the settings file (`settings.json`; `settings.local.json` in a project), or a plugin file.
   */
  stopHook: { kind: 'settings'; globalRel: string; localRel: string } | { kind: 'plugin'; rel: string };
}

/** The host session a ralf command runs in (from its shell environment). */
export interface HostSession {
  host: HostName;
  id: string;
}

export type HostName = 'opencode' | 'claude';

export interface ConfigDirInput {
  /** `--config-dir` flag, highest precedence. */
  flag?: string | undefined;
  env: NodeJS.ProcessEnv;
  home?: string | undefined;
}

export function expandTilde(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

export function homeOf(input: ConfigDirInput): string {
  return input.home ?? input.env.HOME ?? homedir();
}

export const opencodeHost: Host = {
  name: 'opencode',
  label: 'OpenCode',
  // --config-dir > OPENCODE_CONFIG_DIR > dirname(OPENCODE_CONFIG) > $XDG_CONFIG_HOME/opencode > ~/.config/opencode
  resolveConfigDir(input) {
    const home = homeOf(input);
    const { env } = input;
    if (input.flag) return { dir: resolve(expandTilde(input.flag, home)), source: '--config-dir' };
    if (env.OPENCODE_CONFIG_DIR) return { dir: resolve(expandTilde(env.OPENCODE_CONFIG_DIR, home)), source: 'OPENCODE_CONFIG_DIR' };
    if (env.OPENCODE_CONFIG) return { dir: dirname(resolve(expandTilde(env.OPENCODE_CONFIG, home))), source: 'OPENCODE_CONFIG' };
    if (env.XDG_CONFIG_HOME) return { dir: join(resolve(expandTilde(env.XDG_CONFIG_HOME, home)), 'opencode'), source: 'XDG_CONFIG_HOME' };
    return { dir: join(home, '.config', 'opencode'), source: 'default' };
  },
  localDirName: '.opencode',
  commandsSubdir: 'command',
  // OpenCode sets OPENCODE=1 in the environment of the tools it runs.
  detect: (env) => env.OPENCODE === '1' || env.OPENCODE === 'true',
  envKeys: ['OPENCODE', 'OPENCODE_CONFIG_DIR', 'OPENCODE_CONFIG', 'XDG_CONFIG_HOME', 'HOME'],
  commandFrontmatterDrop: ['name', 'argument-hint', 'allowed-tools'],
  commandInvocation: (name) => `/${name}`,
  // OpenCode does not put the session id into the shell's environment itself; ralf's
  // plugin does, through its `shell.env` hook (src/hook/opencode-plugin.ts).
  sessionEnv: 'OPENCODE_SESSION_ID',
  stopHook: { kind: 'plugin', rel: 'plugin/ralf-lite.js' },
};

export const claudeHost: Host = {
  name: 'claude',
  label: 'Claude Code',
  // --config-dir > CLAUDE_CONFIG_DIR > ~/.claude
  resolveConfigDir(input) {
    const home = homeOf(input);
    if (input.flag) return { dir: resolve(expandTilde(input.flag, home)), source: '--config-dir' };
    if (input.env.CLAUDE_CONFIG_DIR) return { dir: resolve(expandTilde(input.env.CLAUDE_CONFIG_DIR, home)), source: 'CLAUDE_CONFIG_DIR' };
    return { dir: join(home, '.claude'), source: 'default' };
  },
  localDirName: '.claude',
  commandsSubdir: 'commands',
  // Claude Code sets CLAUDECODE=1 (and CLAUDE_CODE_ENTRYPOINT) in the shells it runs.
  detect: (env) => env.CLAUDECODE === '1' || Boolean(env.CLAUDE_CODE_ENTRYPOINT),
  envKeys: ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CONFIG_DIR', 'HOME'],
  commandFrontmatterDrop: [],
  commandInvocation: (name) => `/${name}`,
  // Claude Code 2.1 sets it in the environment of every Bash tool call (subagents get the
  // parent's id); it equals the `session_id` of its hook input.
  sessionEnv: 'CLAUDE_CODE_SESSION_ID',
  // settings.local.json: a project's own settings.json is usually committed; ralf's entry holds absolute paths.
  stopHook: { kind: 'settings', globalRel: 'settings.json', localRel: 'settings.local.json' },
};

export const hosts: Record<HostName, Host> = { opencode: opencodeHost, claude: claudeHost };

export function isHostName(value: string): value is HostName {
  return value === 'opencode' || value === 'claude';
}

/** The host session of the current shell, if a host set one (see Host.sessionEnv). */
export function hostSession(env: NodeJS.ProcessEnv): HostSession | null {
  for (const host of [claudeHost, opencodeHost]) {
    const id = env[host.sessionEnv]?.trim();
    if (id) return { host: host.name, id };
  }
  return null;
}
