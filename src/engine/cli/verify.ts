/**
 * The CLI side of a verify (shared by `ralf task verify` and `ralf plan verify`):
 * SIGINT/SIGTERM abort the running checks (the engine records `interrupted` and we
 * exit 130), then print JSON or the readable form. Returns the exit code.
 * Each check's start is shown on stderr for people (checks can run for minutes); with
 * --json only when stderr is a terminal, so an agent's context stays the JSON answer.
 */
import { isTerminal, printJson, printText, style, writeStderr } from '../../cli/output.js';
import { describeCheck } from '../../verify/describe.js';
import type { Check } from '../../plan/model.js';
import { renderVerify } from './render.js';
import { fitAnswer } from '../core/answer-size.js';
import { mark, takeTimings } from '../shell/timing.js';
import type { VerifyOutcome } from '../shell/verify-task.js';

type OnCheckStart = (index: number, check: Check, total: number) => void;

export async function runVerifyCommand(json: boolean, verify: (signal: AbortSignal, onCheckStart: OnCheckStart | undefined) => Promise<VerifyOutcome>): Promise<number> {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (!controller.signal.aborted) controller.abort(sig);
  };
  // SIGHUP too (the terminal closed, an ssh session dropped): the checks must not outlive the verify.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  let outcome: VerifyOutcome;
  try {
    outcome = await verify(controller.signal, !json || isTerminal(2) ? showCheckStart : undefined);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
  // Under --json the warning is the document's log_warning; stderr stays quiet.
  if (outcome.log_warning && !json) writeStderr(`ralf: warning: ${outcome.log_warning}\n`);
  if (json) printJson(fitAnswer(outcome));
  else printText(renderVerify(outcome, style()));
  mark('print');
  const timings = takeTimings();
  if (timings) writeStderr(`${timings}\n`);
  return outcome.exit_code;
}

function showCheckStart(index: number, check: Check, total: number): void {
  const s = style(2);
  writeStderr(`${s.dim(`ralf: [${index + 1}/${total}] ${describeCheck(check)}`)}\n`);
}
