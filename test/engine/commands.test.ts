import { describe, expect, it } from 'vitest';
import { resetCommand, shellWord, verifyCommand } from '../../src/engine/core/commands.js';

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
