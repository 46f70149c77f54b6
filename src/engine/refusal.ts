import { RalfError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

/** The error for a task (or plan) the loop must not wrap: exit 2 with the plan model's reason. */
export function refusal(decision: 'skip' | 'refuse', what: string, reason: string, type: string | null): RalfError {
  const checkpoint = type?.startsWith('checkpoint') ?? false;
  const hint =
    decision === 'skip'
      ? 'Execute it normally without the loop (run its verify step yourself, then continue).'
      : checkpoint
        ? 'Stop and return a GSD checkpoint (## CHECKPOINT REACHED) so the human can act; never verify or auto-approve it through the loop.'
        : 'Stop and ask the human how to proceed.';
  return new RalfError(decision === 'skip' ? 'task_skipped' : 'task_refused', `${what} is ${decision === 'skip' ? 'not looped (execute it normally)' : 'refused by the loop'}`, {
    exitCode: ExitCode.badInput,
    problems: [{ message: reason, hint }],
  });
}
