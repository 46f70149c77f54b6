/**
 * The CLI side of a verify (shared by `ralf task verify` and `ralf plan verify`):
 * SIGINT/SIGTERM abort the running checks (the engine records `interrupted` and we
 * exit 130), then print JSON or the readable form. Returns the exit code.
 */
import { printJson, printText, style } from '../cli/output.js';
import { renderVerify } from './render.js';
import { flushTimings, mark } from './timing.js';
import type { VerifyOutcome } from './verify-task.js';

export async function runVerifyCommand(json: boolean, verify: (signal: AbortSignal) => Promise<VerifyOutcome>): Promise<number> {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (!controller.signal.aborted) controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let outcome: VerifyOutcome;
  try {
    outcome = await verify(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (json) printJson(outcome);
  else printText(renderVerify(outcome, style()));
  mark('print');
  flushTimings();
  return outcome.exit_code;
}
