import { describe, expect, it } from 'vitest';
import type { LoopState, StopReason } from '../../src/engine/core/types.js';
import { buildLoopReport } from '../../src/report/build-report.js';
import { parseMarkdown, stringifyMarkdown } from '../../src/report/markdown.js';
import { reportRows } from '../../src/report/rows.js';
import { check, handoff, iteration, loop, sampleInput, sampleState } from './sample.js';

const render = (input = sampleInput()) => stringifyMarkdown(buildLoopReport(input));

/** The table's body rows as arrays of cell texts, read back through remark. */
function tableCells(markdown: string): string[][] {
  const table = parseMarkdown(markdown).children.find((n) => n.type === 'table');
  if (!table || table.type !== 'table') throw new Error('no table');
  const textOf = (n: unknown): string => {
    const node = n as { value?: string; children?: unknown[] };
    return node.value ?? (node.children ?? []).map(textOf).join('');
  };
  return table.children.map((row) => row.children.map(textOf));
}

describe('reportRows', () => {
  it('joins plan tasks with recorded loops, not-looped tasks and the plan-level loop', () => {
    const rows = reportRows(sampleInput());
    expect(rows.map((r) => [r.scope, r.number, r.decision, r.iterations, r.stop_reason])).toEqual([
      ['task', 1, 'loop', 2, 'success'],
      ['task', 2, 'loop', 2, 'repeated_fingerprint'],
      ['task', 3, 'skip', 0, null],
      ['task', 4, 'refuse', 0, null],
      ['task', 5, 'loop', 0, 'not run'],
      ['plan', null, 'loop', 1, 'success'],
    ]);
    expect(rows[0]!.auto_fixed).toEqual(['npm test']);
    expect(rows[0]!.verify_ms).toBe(8100);
    expect(rows[1]!.auto_fixed).toEqual(['npx tsc --noEmit']);
    expect(rows[1]!.still_failing).toEqual(['npm test -- scoring']);
  });

  it('keeps tasks the state knows but the plan no longer lists', () => {
    const input = sampleInput();
    input.plan.tasks = input.plan.tasks.slice(0, 1);
    expect(reportRows(input).map((r) => r.number)).toEqual([1, 2, 3, 4, null]);
  });

  it('without state: looped tasks are `not run`, and the plan row follows the config', () => {
    const input = sampleInput(null);
    input.config = { values: { enabled: true, apply_to: { autonomous_plans: false } }, sources: {} };
    const rows = reportRows(input);
    expect(rows.filter((r) => r.decision === 'loop').every((r) => r.stop_reason === 'not run')).toBe(true);
    expect(rows.at(-1)).toMatchObject({ scope: 'plan', decision: 'skip', reason: 'apply_to.autonomous_plans is false' });
  });

  it('omits the plan row for a plan that is not autonomous and has no plan loop', () => {
    const input = sampleInput(null);
    input.plan.autonomous = false;
    expect(reportRows(input).some((r) => r.scope === 'plan')).toBe(false);
  });
});

describe('buildLoopReport', () => {
  it('renders heading, summary, table, details, config and footer', () => {
    const md = render();
    expect(md.startsWith('## RALF Lite Loop Report\n\nLoop **enabled**. 3 tasks looped: 1 passed, 1 stopped (repeated_fingerprint), 1 not run. 1 refused, 1 skipped.')).toBe(true);
    expect(md).toContain('Plan-level loop: passed after 1 iteration. Verification time: 39.0s in total.');
    expect(tableCells(md)).toEqual([
      ['Task', 'Decision', 'Iterations', 'Stop reason', 'Verify time'],
      ['1. Dice roll engine', 'loop', '2/3', 'success', '8.1s'],
      ['2. Scoring | pipes `and ticks`', 'loop', '2/3', 'repeated_fingerprint', '9.9s'],
      ['3. Handicap rules', 'skip', '—', '—', '—'],
      ['4. Verify game feel', 'refuse', '—', '—', '—'],
      ['5. Wire the store', 'loop', '0/3', 'not run', '—'],
      ['Plan-level loop', 'loop', '1/3', 'success', '21.0s'],
    ]);
    expect(md).toContain('- **Task 1: Dice roll engine**: passed on iteration 2; auto-fixed: `npm test`');
    expect(md).toContain('  - Fingerprints: #1 `scoring.test.ts: AssertionError: expected <n> to be <n>`, #2 same');
    expect(md).toContain('  - Still failing: `npm test -- scoring`');
    expect(md).toContain('  - Next: `manual_investigation` — investigate the still-failing checks by hand, fix the cause or clarify the task, then run `ralf task reset .planning/phases/05-core/05-02-PLAN.md 2`.');
    expect(md).toContain('- **Task 4: Verify game feel**: refused — checkpoint:human-verify tasks need a human; never wrapped or auto-approved');
    expect(md).toContain('- **Not run yet**: Task 5 (no loop state recorded)');
    expect(md).toContain('- `.planning/config.json`: `max_iterations: 3`');
    expect(md).toContain('- defaults: `enabled: true`, `error_fingerprint_repeats: 2`');
    expect(md.trimEnd().endsWith('_Written by `ralf report .planning/phases/05-core/05-02-PLAN.md` from `.planning/ralf/05-02.json` (updated 2026-03-01T10:07:12.000Z)._')).toBe(true);
  });

  it('escapes pipes and backticks in cells so the table keeps five columns', () => {
    const md = render();
    const line = md.split('\n').find((l) => l.includes('Scoring'))!;
    expect(line).toContain('2. Scoring \\| pipes \\`and ticks\\`');
    expect(tableCells(md).every((r) => r.length === 5)).toBe(true);
  });

  it('is deterministic (no clock): the same input renders the same text', () => {
    expect(render()).toBe(render());
  });

  it('renders every stop reason with its label and a next step', () => {
    const reasons: StopReason[] = ['max_iterations', 'repeated_fingerprint', 'no_progress', 'rule4_architectural', 'interrupted', 'time_budget', 'token_budget', 'blocked'];
    for (const reason of reasons) {
      const state = sampleState();
      const base = loop(1, 'Task 1: Dice roll engine', [iteration(1, [check('npm test', false, 'fp1')], 1000)]);
      const l: LoopState = { ...base, status: 'stopped', stop_reason: reason, stop_detail: reason === 'blocked' ? 'Not logged in to gh' : null };
      l.escalation = reason === 'rule4_architectural' ? { rule: 4, reason: 'needs a new `users` table', source: 'agent' } : null;
      l.handoff = reason === 'interrupted' ? null : handoff(l, { recommended_action: reason === 'rule4_architectural' ? 'decision_needed' : 'manual_investigation' });
      state.tasks = { '1': l };
      const md = render(sampleInput(state));
      expect(tableCells(md)[1]).toEqual(['1. Dice roll engine', 'loop', '1/3', reason, '1.0s']);
      expect(md).toContain(`- **Task 1: Dice roll engine**: stopped with \`${reason}\` after 1 of 3 iterations`);
      if (reason === 'rule4_architectural') expect(md).toContain('  - Rule 4 (architectural): needs a new \\`users\\` table');
      if (reason === 'rule4_architectural') expect(md).toContain('  - Next: `decision_needed`');
      if (reason === 'interrupted') expect(md).toContain('Next: run the verification again to resume with iteration 2 (interrupted iterations do not count): `ralf task verify ');
      if (reason === 'blocked') expect(md).toContain('after 1 of 3 iterations (Not logged in to gh)');
    }
  });

  it('an unconfirmed stop asks the human to check the manual criteria, not to decide on an architectural change', () => {
    const state = sampleState();
    const base = loop(1, 'Task 1: Dice roll engine', [iteration(1, [check('npm test', true, null)], 1000)]);
    const l: LoopState = { ...base, status: 'stopped', stop_reason: 'unconfirmed' };
    l.handoff = handoff(l, { recommended_action: 'decision_needed' });
    state.tasks = { '1': l };
    const md = render(sampleInput(state));
    const next = md.split('\n').find((line) => line.includes('Next:'))!;
    expect(next).toContain('check the manual done criteria yourself');
    expect(next).toMatch(/`ralf task verify \S+ 1 --done-confirmed`/);
    expect(next).toMatch(/`ralf task reset \S+ 1`/);
    expect(next).not.toContain('architectural');
  });

  it('lists what already failed before the task with the command as code and its state as text', () => {
    const state = sampleState();
    const base = loop(1, 'Task 1: Dice roll engine', [iteration(1, [check('npm test', false, 'fp1')], 1000)], { status: 'running' });
    state.tasks = { '1': { ...base, baseline: { at: '2026-01-01T00:00:00.000Z', source: 'task_start', failing: [{ command: 'npm test', fingerprint: 'fp1', failing_tests: ['legacy'] }] } } };
    const md = render(sampleInput(state));
    expect(md).toContain('  - Already failing before the task: `npm test` — legacy (still failing as before)');
  });

  it('a loop in progress says so, with the iterations used', () => {
    const state = sampleState();
    state.tasks = { '1': loop(1, 'Task 1: Dice roll engine', [iteration(1, [check('npm test', false, 'fp1')], 1000)], { status: 'running' }) };
    const md = render(sampleInput(state));
    expect(tableCells(md)[1]).toEqual(['1. Dice roll engine', 'loop', '1/3', 'in progress', '1.0s']);
    expect(md).toContain('- **Task 1: Dice roll engine**: in progress, 1 of 3 iterations used');
    expect(md).toContain('1 in progress');
  });

  it('lists looped work without state in one bullet', () => {
    const md = render(sampleInput(null));
    expect(md).toContain('- **Not run yet**: Tasks 1, 2, 5 and the plan-level loop (no loop state recorded)');
    expect(md).toContain('Loop **enabled**. 3 tasks looped: 3 not run. 1 refused, 1 skipped. Plan-level loop: not run.');
  });

  it('disabled and no state: says so without a table of skipped tasks', () => {
    const input = sampleInput(null);
    input.plan.tasks = input.plan.tasks.map((t) => ({ ...t, decision: t.decision === 'refuse' ? 'refuse' : 'skip', reason: t.decision === 'refuse' ? t.reason : 'the loop is disabled (enabled: false)' }));
    input.config = { values: { enabled: false, max_iterations: 3 }, sources: { enabled: '.planning/config.json', max_iterations: 'default' } };
    const md = render(input);
    expect(md).toContain('Loop **disabled** (enabled: false, from .planning/config.json): tasks run once, without the loop.');
    expect(md).not.toContain('| Task');
    expect(md).toContain('no loop state recorded yet (`.planning/ralf/05-02.json` not found)');
  });

  it('task names and reasons with Markdown syntax or newlines stay literal and on one line', () => {
    const input = sampleInput(null);
    input.plan.tasks = [{ number: 1, name: 'Task 1: *not* _emph_ <b>html</b> [link](x)\nsecond line', type: 'checkpoint:decision', decision: 'refuse', reason: 'a | b\nc' }];
    const md = render(input);
    const tree = parseMarkdown(md);
    const table = tree.children.find((n) => n.type === 'table');
    expect(table && table.type === 'table' ? table.children.length : 0).toBe(3);
    const hasHtml = (n: { type: string; children?: unknown[] }): boolean => n.type === 'html' || (n.children ?? []).some((c) => hasHtml(c as { type: string }));
    expect(hasHtml(tree)).toBe(false);
    expect(md).toContain('\\<b>html\\</b>');
    expect(md).toContain('refused — a | b c');
  });
});
