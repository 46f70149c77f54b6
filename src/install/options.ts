/** Flags shared by `ralf install` and `ralf uninstall`. */
import { existsSync, statSync } from 'node:fs';
import { parseCommandArgs } from '../cli/args.js';
import { usageError } from '../errors.js';
import type { HostName } from '../hosts/host.js';
import { resolveTargets } from './targets.js';
import type { InstallTarget } from './types.js';

export const INSTALL_USAGE =
  'ralf install [--opencode] [--claude] [--global | --local] [--config-dir DIR] [--cwd DIR] [--no-hooks] [--dry-run] [--json]  |  ralf install --render workflows/<name>.md';
export const UNINSTALL_USAGE = 'ralf uninstall [--opencode] [--claude] [--global | --local] [--config-dir DIR] [--cwd DIR] [--dry-run] [--json]';

const options = {
  opencode: { type: 'boolean' },
  claude: { type: 'boolean' },
  global: { type: 'boolean' },
  local: { type: 'boolean' },
  'config-dir': { type: 'string' },
  'dry-run': { type: 'boolean' },
  render: { type: 'string' },
  'no-hooks': { type: 'boolean' },
} as const;

export interface InstallArgs {
  json: boolean;
  dryRun: boolean;
  render: string | undefined;
  /** Install the Stop hook (Claude Code) / plugin (OpenCode); `--no-hooks` turns it off. */
  hooks: boolean;
  hostFlags: HostName[];
  targets: () => InstallTarget[];
}

export function parseInstallArgs(argv: string[], mode: 'install' | 'uninstall'): InstallArgs {
  const usage = mode === 'install' ? INSTALL_USAGE : UNINSTALL_USAGE;
  const { values, positionals } = parseCommandArgs(argv, options, usage);
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}"`, `usage: ${usage}`);
  if (values['no-hooks'] && mode === 'uninstall') throw usageError('--no-hooks is an install option (uninstall removes the hooks ralf installed)', `usage: ${usage}`);
  if (values.render !== undefined && mode === 'uninstall') throw usageError('--render is an install option', `usage: ${usage}`);
  if (values.global && values.local) throw usageError('choose one of --global and --local', `usage: ${usage}`);
  const hostFlags: HostName[] = [];
  if (values.opencode) hostFlags.push('opencode');
  if (values.claude) hostFlags.push('claude');
  const cwd = values.cwd ?? process.cwd();
  return {
    json: values.json === true,
    dryRun: values['dry-run'] === true,
    render: values.render,
    hooks: values['no-hooks'] !== true,
    hostFlags,
    targets: () =>
      resolveTargets({
        hostFlags,
        scope: values.local ? 'local' : 'global',
        configDir: values['config-dir'],
        cwd,
        env: process.env,
        mode,
        exists: mode === 'install' ? isDir : existsSync,
      }),
  };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
