/**
 * What the verify answer, the handoff and the Loop Report say about checks that already failed
 * before the task (`already_failing`), pure. Seen through the real Claude Code
 * (test/e2e/verdicts-claude): after the agent fixed mul, then sub, the answer still said
 * "add, mul, sub (still failing as before)".
 */
import { describe, expect, it } from 'vitest';
import { alreadyFailing, baselineOf } from '../../src/engine/core/baseline.js';
import type { CheckResult } from '../../src/engine/core/types.js';

const CMD = 'node --test test/calc.test.mjs';
const run = (failing: string[]): CheckResult => ({
  index: 0,
  kind: 'command_succeeds',
  command: CMD,
  passed: failing.length === 0,
  exit_code: failing.length === 0 ? 0 : 1,
  signal: null,
  timed_out: false,
  duration_ms: 1,
  output_tail: '',
  fingerprint: failing.length === 0 ? null : `${failing[0]} | expected 5`,
  ...(failing.length ? { failing_tests: failing } : {}),
});

describe('already failing before the task', () => {
  const baseline = baselineOf([run(['add', 'mul', 'sub'])], '2026-01-01T00:00:00.000Z', 'task_start');

  it('names the baseline\'s tests and, once some pass, which still fail and which pass now', () => {
    expect(alreadyFailing(baseline, [run(['add', 'mul', 'sub'])])).toEqual([`${CMD} — add, mul, sub (still failing as before)`]);
    expect(alreadyFailing(baseline, [run(['add', 'sub'])])).toEqual([`${CMD} — add, mul, sub (still failing: add, sub; now passing: mul)`]);
    expect(alreadyFailing(baseline, [run(['add'])])).toEqual([`${CMD} — add, mul, sub (still failing: add; now passing: mul, sub)`]);
    expect(alreadyFailing(baseline, [run([])])).toEqual([`${CMD} — add, mul, sub (now passes)`]);
    expect(alreadyFailing(baseline, [run(['add', 'div'])])).toEqual([`${CMD} — add, mul, sub (still failing, differently)`]);
  });
});
