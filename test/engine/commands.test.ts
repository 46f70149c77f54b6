import { describe, expect, it } from 'vitest';
import { resetCommand, shellWord, verifyCommand } from '../../src/engine/core/commands.js';
import { at, check, ctx, freshLoop, run, verified } from './helpers.js';

describe('the command texts the loop hands out', () => {
  const plan = '.planning/phases/01-setup/01-02-PLAN.md';

  it('a task loop and the plan-level loop each get their own verify and reset', () => {
    expect(verifyCommand(plan, 3)).toBe(`ralf task verify ${plan} 3`);
    expect(verifyCommand(plan, null)).toBe(`ralf plan verify ${plan}`);
    expect(resetCommand(plan, 3)).toBe(`ralf task reset ${plan} 3`);
    // `ralf task reset <PLAN>` without a task is a usage error: the plan-level loop needs --plan.
    expect(resetCommand(plan, null)).toBe(`ralf task reset ${plan} --plan`);
  });

  it('names the invocation it is given (an installed copy has no `ralf` on PATH)', () => {
    const installed = '"/usr/bin/node" "/home/u/.claude/ralf-lite/ralf.js"';
    expect(resetCommand(plan, null, installed)).toBe(`${installed} task reset ${plan} --plan`);
  });

  it('quotes a plan path the shell would split or expand', () => {
    expect(verifyCommand('my plans/01-01-PLAN.md', 1)).toBe("ralf task verify 'my plans/01-01-PLAN.md' 1");
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(shellWord('')).toBe("''");
    expect(shellWord('a/b-c_d.md')).toBe('a/b-c_d.md');
  });
});

describe('every command in the loop\'s texts carries the context\'s invocation', () => {
  const installed = '"/usr/bin/node" "/home/u/my claude/ralf-lite/ralf.js"';
  const c = { ...ctx(), invocation: installed };
  const plan = c.plan_path;
  const commandsIn = (text: string) => [...text.matchAll(/`([^`\n]*(?:task|plan) (?:verify|reset)[^`\n]*)`/g)].map((m) => m[1]!);

  it('retry next, stop handoff (recommendation and Awaiting), for a task and for the plan-level loop', () => {
    const retry = run([verified([check(0, { fp: 'A' })])], c);
    expect(commandsIn(retry.decisions[0]!.next)).toEqual([`${installed} task verify ${plan} 2`]);
    const stopped = run([verified([check(0, { fp: 'A' })]), verified([check(0, { fp: 'A' })])], c).state.handoff!;
    expect(commandsIn(stopped.recommendation)).toEqual([`${installed} task reset ${plan} 2`]);
    expect(commandsIn(stopped.markdown).every((cmd) => cmd.startsWith(`${installed} task reset ${plan} 2`))).toBe(true);
    const planLoop = run([verified([check(0, { fp: 'A' })]), verified([check(0, { fp: 'A' })])], c, { ...freshLoop(), scope: 'plan', task_number: null }).state.handoff!;
    expect(commandsIn(planLoop.recommendation)).toEqual([`${installed} task reset ${plan} --plan`]);
  });

  it('an interrupted loop names the verify that resumes it; an unconfirmed one the --done-confirmed verify', () => {
    const interrupted = run([verified([check(0, { fp: 'A' })]), { type: 'interrupted', now: at(5), cause: 'signal', signal: 'SIGINT' }], c).state.handoff!;
    expect(commandsIn(interrupted.recommendation)).toEqual([`${installed} task verify ${plan} 2`]);
    expect(commandsIn(interrupted.markdown)).toContain(`${installed} task verify ${plan} 2`);
    const confirm = verified([check(0)], { requires_confirmation: true, tree: 't1' });
    const unconfirmed = run([confirm, confirm, confirm], c).state.handoff!;
    expect(unconfirmed.stop_reason).toBe('unconfirmed');
    expect(commandsIn(unconfirmed.recommendation)).toEqual([`${installed} task verify ${plan} 2 --done-confirmed`, `${installed} task reset ${plan} 2`]);
    // The checkpoint's decision line offers the same two ways (and defer), not a Rule 4 approval.
    const decision = unconfirmed.markdown.split('\n').find((l) => l.startsWith('Your decision'))!;
    expect(commandsIn(decision)).toEqual([`${installed} task verify ${plan} 2 --done-confirmed`, `${installed} task reset ${plan} 2`]);
    expect(decision).toContain(`${installed} task defer ${plan} 2`);
    expect(decision).not.toContain('approve');
  });
});
