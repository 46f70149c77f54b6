/**
 * Where to install: which hosts, global or local, and each host's root, resolved the
 * way the hosts themselves (and GSD's installer) resolve config dirs (src/hosts/host.ts).
 */
import { resolve, join } from 'node:path';
import { RalfError, usageError, type Problem } from '../errors.js';
import { hosts, type HostName } from '../hosts/host.js';
import { MANIFEST_REL, type InstallTarget, type Scope } from './types.js';

export interface TargetOptions {
  /** Host flags given (`--opencode`, `--claude`), in a stable order. */
  hostFlags: HostName[];
  scope: Scope;
  configDir?: string | undefined;
  /** Project directory for --local. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  mode: 'install' | 'uninstall';
  /** Is there a directory (install) / file (uninstall manifest) at this path? */
  exists: (path: string) => boolean;
}

export function targetFor(name: HostName, options: Pick<TargetOptions, 'scope' | 'configDir' | 'cwd' | 'env'>): InstallTarget {
  const host = hosts[name];
  if (options.scope === 'local') return { host, scope: 'local', root: join(resolve(options.cwd), host.localDirName), rootSource: '--local' };
  const { dir, source } = host.resolveConfigDir({ flag: options.configDir, env: options.env });
  return { host, scope: 'global', root: dir, rootSource: source };
}

/**
 * With host flags: those hosts. Without: for install, every host whose root already
 * exists (the host is set up there); for uninstall, every host with a ralf manifest.
 */
export function resolveTargets(options: TargetOptions): InstallTarget[] {
  if (options.configDir !== undefined && options.scope === 'local') throw usageError('--config-dir cannot be combined with --local', 'use --config-dir for a global install into that directory, or --local for the project');
  if (options.configDir !== undefined && options.hostFlags.length !== 1) {
    throw usageError('--config-dir needs exactly one of --opencode or --claude', 'the directory is one host\'s config dir, e.g. `ralf install --claude --config-dir ~/.claude-work`');
  }
  if (options.hostFlags.length > 0) return options.hostFlags.map((h) => targetFor(h, options));

  const all = (Object.keys(hosts) as HostName[]).map((h) => targetFor(h, options));
  if (options.mode === 'uninstall') return all.filter((t) => options.exists(join(t.root, ...MANIFEST_REL.split('/'))));
  const found = all.filter((t) => options.exists(t.root));
  if (found.length === 0) {
    throw new RalfError('no_host', `no ${options.scope === 'local' ? 'project-local ' : ''}OpenCode or Claude Code config directory found`, {
      problems: [
        ...all.map((t): Problem => ({ file: t.root, message: `${t.host.label}: not found (${t.rootSource})` })),
        { message: 'choose the host(s) explicitly', hint: `ralf ${options.mode} --opencode --claude${options.scope === 'local' ? ' --local' : ''}` },
      ],
    });
  }
  return found;
}
