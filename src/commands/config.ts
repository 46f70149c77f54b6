import { parseCommandArgs } from '../cli/args.js';
import { printJson, printText, table, style } from '../cli/output.js';
import { usageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { hosts } from '../hosts/host.js';

export const USAGE = 'ralf config [schema [--markdown]] [--cwd DIR] [--host opencode|claude] [--config-dir DIR] [--json]';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { host: { type: 'string' }, 'config-dir': { type: 'string' }, markdown: { type: 'boolean' } },
    USAGE,
  );
  const [sub, ...extra] = positionals;
  if (extra.length > 0 || (sub !== undefined && sub !== 'schema')) throw usageError(`unexpected argument "${extra[0] ?? sub}"`, `usage: ${USAGE}`);

  if (sub === 'schema') {
    const { configJsonSchema, configReferenceMarkdown } = await import('../config/json-schema.js');
    if (values.markdown) printText(configReferenceMarkdown());
    else printJson(configJsonSchema());
    return ExitCode.ok;
  }

  const { loadConfig } = await import('../config/load.js');
  const effective = loadConfig({ cwd: values.cwd, host: values.host, configDir: values['config-dir'] });
  if (values.json) {
    printJson({
      config: effective.config,
      sources: effective.sources,
      files: effective.files,
      host: { name: effective.host, source: effective.host_source, config_dir: effective.config_dir, config_dir_source: effective.config_dir_source },
      project_root: effective.project_root,
    });
    return ExitCode.ok;
  }

  const s = style();
  const rows = Object.entries(effective.sources).map(([key, source]) => {
    const value = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], effective.config);
    return [key, JSON.stringify(value), source === 'default' ? s.dim('default') : source];
  });
  const hostLabel = hosts[effective.host].label;
  const lines = [
    s.bold(`ralf_lite effective config`) + ` — loop ${effective.config.enabled ? s.green('enabled') : s.yellow('disabled')}`,
    `host: ${hostLabel} (${effective.host_source}); global config dir: ${effective.config_dir} (${effective.config_dir_source})`,
    '',
    table(['key', 'value', 'source'], rows),
    '',
    'files (lowest precedence first; defaults < user < global < project):',
    ...(['user', 'global', 'project'] as const).map((layer) => {
      const f = effective.files.find((x) => x.layer === layer);
      if (!f) return `  ${layer.padEnd(8)} (no .planning/ directory found from ${values.cwd ?? process.cwd()})`;
      const state = !f.exists ? 'not found' : f.has_ralf_lite ? 'ralf_lite set' : 'no ralf_lite key';
      return `  ${layer.padEnd(8)} ${f.path} (${state})`;
    }),
  ];
  printText(lines.join('\n'));
  return ExitCode.ok;
}
