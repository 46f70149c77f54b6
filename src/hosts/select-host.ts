import { RalfError } from '../errors.js';
import { hosts, isHostName, type Host } from './host.js';

export interface SelectedHost {
  host: Host;
  /** `--host`, `RALF_HOST`, `detected (CLAUDECODE)`, ... or `default`. */
  source: string;
}

/**
 * Which host's global config applies: `--host` > `RALF_HOST` > detected from the
 * environment the agent sets (Claude Code: CLAUDECODE/CLAUDE_CODE_ENTRYPOINT;
 * OpenCode: OPENCODE) > OpenCode (the seed's default).
 */
export function selectHost(flag: string | undefined, env: NodeJS.ProcessEnv): SelectedHost {
  if (flag !== undefined) {
    if (!isHostName(flag)) throw badHost('--host', flag);
    return { host: hosts[flag], source: '--host' };
  }
  if (env.RALF_HOST) {
    if (!isHostName(env.RALF_HOST)) throw badHost('RALF_HOST', env.RALF_HOST);
    return { host: hosts[env.RALF_HOST], source: 'RALF_HOST' };
  }
  for (const host of Object.values(hosts)) {
    if (host.detect(env)) return { host, source: 'detected' };
  }
  return { host: hosts.opencode, source: 'default' };
}

/** Every env var that can change which host and which global config dir apply. */
export function hostSelectingEnvKeys(): string[] {
  // GSD_HOME: where GSD's user defaults (~/.gsd/defaults.json) are, one of the config layers.
  return [...new Set(['RALF_HOST', 'GSD_HOME', ...Object.values(hosts).flatMap((h) => h.envKeys)])].sort();
}

function badHost(where: string, value: string): RalfError {
  return new RalfError('usage', `${where} must be "opencode" or "claude"`, {
    problems: [{ key: where, message: 'unknown host', expected: '"opencode" | "claude"', received: JSON.stringify(value) }],
  });
}
