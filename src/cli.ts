import { commands } from './cli/commands.js';
import { ExitCode } from './exit-codes.js';
import { wantsJson } from './cli/args.js';

declare const RALF_VERSION: string;

function help(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'ralf — bounded retry-and-repair loop for GSD plans (OpenCode, Claude Code)',
    '',
    'Usage: ralf <command> [options]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${commands[n]!.summary}`),
    '',
    'Every command takes --json (machine output), --cwd DIR and --help.',
    'Exit codes: 0 ok/pass, 1 file-system or internal error, 2 bad input or refused task, 10 retry, 20 stop (handoff), 75 busy, 130 interrupted.',
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${typeof RALF_VERSION === 'string' ? RALF_VERSION : '0.0.0-dev'}\n`);
    return ExitCode.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`ralf: unknown command "${name}"\n\n${help()}`);
    return ExitCode.badInput;
  }
  const mod = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${entry.summary}\n\nusage: ${mod.USAGE ?? `ralf ${name} ...`}\n`);
    return ExitCode.ok;
  }
  return mod.run(rest);
}

// `ralf ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

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
