import { commands } from './cli/commands.js';
import { ExitCode } from './exit-codes.js';
import { wantsJson } from './cli/args.js';
import { writeStderr, writeStdout } from './cli/output.js';

declare const RALF_VERSION: string;

function help(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'ralf — bounded retry-and-repair loop for GSD plans (OpenCode, Claude Code)',
    '',
    'Usage: ralf [--cwd DIR] <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n]!.summary}`),
    '',
    'Every command takes --json (machine output), --cwd DIR and --help.',
    'Exit codes: 0 ok/pass, 1 file-system or internal error, 2 bad input or refused task, 10 retry, 11 confirm (checks pass; confirm the manual criteria with --done-confirmed), 20 stop (handoff), 75 busy, 130 interrupted.',
    '',
  ].join('\n');
}

/**
 * `ralf --cwd DIR <command> …`, the form the runtime prints when it runs outside the project
 * root (shell/invocation.ts): a leading `--cwd` is the command's own option.
 */
function leadingCwdMoved(argv: string[]): string[] {
  const [first, second] = argv;
  const take = first === '--cwd' && second !== undefined ? 2 : first?.startsWith('--cwd=') ? 1 : 0;
  if (take === 0) return argv;
  if (argv.length === take) return []; // no command: the usage text
  const option = argv.slice(0, take);
  const [name, ...rest] = argv.slice(take);
  // After the subcommand's own words (`task reset …`), before a `--` that ends the options.
  const end = rest.indexOf('--');
  return end === -1 ? [name!, ...rest, ...option] : [name!, ...rest.slice(0, end), ...option, ...rest.slice(end)];
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = leadingCwdMoved(argv);
  if (name === '--version' || name === '-v' || name === 'version') {
    writeStdout(`${typeof RALF_VERSION === 'string' ? RALF_VERSION : '0.0.0-dev'}\n`);
    return ExitCode.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    writeStdout(help());
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  const entry = commands[name];
  if (!entry) {
    if (wantsJson(rest)) {
      const { renderError } = await import('./cli/render-error.js');
      const { usageError } = await import('./errors.js');
      return renderError(usageError(`unknown command "${name}"`, `one of: ${Object.keys(commands).join(', ')}`), true);
    }
    writeStderr(`ralf: unknown command "${name}"\n\n${help()}`);
    return ExitCode.badInput;
  }
  const mod = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    writeStdout(`${entry.summary}\n\nusage: ${mod.USAGE ?? `ralf ${name} ...`}\n`);
    return ExitCode.ok;
  }
  return mod.run(rest);
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    const { renderError } = await import('./cli/render-error.js');
    process.exitCode = renderError(err, wantsJson(argv));
  },
);
