/**
 * `ralf plan verify <PLAN.md> [--done-confirmed] [--json]`: the plan-level loop for
 * `autonomous: true` plans (plan_checks from <verification> and must_haves). Same exit
 * codes as `ralf task verify`. `ralf plan` routes here; `argv` may start with `verify`.
 */
import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/args.js';
import { usageError } from '../errors.js';

export const USAGE = 'ralf plan verify <PLAN.md> [--done-confirmed] [--json] [--cwd DIR]';

export async function run(argv: string[]): Promise<number> {
  const args = argv[0] === 'verify' ? argv.slice(1) : argv;
  const { values, positionals } = parseCommandArgs(args, { 'done-confirmed': { type: 'boolean' }, host: { type: 'string' }, 'config-dir': { type: 'string' } }, USAGE);
  const [planArg, ...extra] = positionals;
  if (planArg === undefined) throw usageError('missing <PLAN.md>', `usage: ${USAGE}`);
  if (extra.length > 0) throw usageError(`unexpected argument "${extra[0]}"`, `usage: ${USAGE}`);
  const planPath = resolve(values.cwd ?? process.cwd(), planArg);
  const [{ verifyPlan }, { runVerifyCommand }] = await Promise.all([import('../engine/shell/verify-task.js'), import('../engine/cli/verify.js')]);
  return runVerifyCommand(values.json === true, (signal, onCheckStart) =>
    verifyPlan({ planPath, cwd: values.cwd, host: values.host, configDir: values['config-dir'], doneConfirmed: values['done-confirmed'] === true, signal, onCheckStart }),
  );
}
