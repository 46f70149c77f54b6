import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type RalfLiteConfig } from '../../src/config/schema.js';
import { decidePlan, projectCommands } from '../../src/plan/decide.js';
import { parsePlanText } from '../../src/plan/parse.js';
import { DEV_MACHINE } from './machine.js';
import { repoRoot } from '../helpers/cli.js';

type ConfigOverrides = Partial<Omit<RalfLiteConfig, 'apply_to'>> & { apply_to?: Partial<RalfLiteConfig['apply_to']> };

const config = (over: ConfigOverrides = {}): RalfLiteConfig => ({
  ...DEFAULT_CONFIG,
  ...over,
  apply_to: { ...DEFAULT_CONFIG.apply_to, ...over.apply_to },
});

const FM = (autonomous: string) => `---\nphase: 01-x\nplan: 01\ntype: execute\nautonomous: ${autonomous}\n---\n\n`;
const task = (attrs: string, verify = '`npm test`') => `<task ${attrs}>\n  <name>T</name>\n  <verify>${verify}</verify>\n</task>\n`;

function decide(body: string, cfg = config(), commands = {}, autonomous = 'true') {
  return decidePlan(parsePlanText(FM(autonomous) + body, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), cfg, commands);
}

describe('task decisions (default config)', () => {
  const cases: Array<[string, string, 'loop' | 'skip' | 'refuse', RegExp]> = [
    ['auto with a command', task('type="auto"'), 'loop', /^type="auto" with 1 executable check \(1 command_succeeds\)$/],
    ['auto, prose only', task('type="auto"', 'The page looks right'), 'skip', /^not objectively verifiable: no executable check in <verify>\/<done>$/],
    ['auto tdd="true"', task('type="auto" tdd="true"'), 'skip', /^TDD task \(tdd="true"\) and apply_to.tdd_tasks is false/],
    ['type="tdd"', task('type="tdd"'), 'skip', /^TDD task \(type="tdd"\)/],
    ['checkpoint:human-verify', task('type="checkpoint:human-verify" gate="blocking"'), 'refuse', /^checkpoint:human-verify task: a person must verify the result; never wrapped or auto-approved$/],
    ['checkpoint:decision', task('type="checkpoint:decision"'), 'refuse', /a person must choose/],
    ['checkpoint:human-action', task('type="checkpoint:human-action"'), 'refuse', /a person must act/],
    ['auto with gate="blocking-human"', task('type="auto" gate="blocking-human"'), 'refuse', /^gate="blocking-human" requires a human/],
    ['no type', task('id="4"'), 'skip', /^no type attribute \(<task id="4">\)/],
    ['unknown type', task('type="research"'), 'skip', /^type="research" is not a task type the loop wraps \(auto, tracer\)$/],
  ];
  it.each(cases.map(([name, body, decision, reason]) => ({ name, body, decision, reason })))('$name → $decision', ({ body, decision, reason }) => {
    const t = decide(body).tasks[0]!;
    expect(t.decision).toBe(decision);
    expect(t.reason).toMatch(reason);
  });
});

describe('task decisions follow the config', () => {
  it('tdd_tasks: true wraps TDD tasks that have checks', () => {
    const plan = decide(task('type="auto" tdd="true"') + task('type="tdd"'), config({ apply_to: { tdd_tasks: true } }));
    expect(plan.tasks.map((t) => t.decision)).toEqual(['loop', 'loop']);
    expect(plan.tasks[0]!.reason).toMatch(/^TDD task \(apply_to.tdd_tasks is true\) with 1 executable check/);
  });

  it('enabled: false skips everything except what must be refused', () => {
    const plan = decide(task('type="auto"') + task('type="checkpoint:human-verify"'), config({ enabled: false }));
    expect(plan.tasks.map((t) => [t.decision, t.reason.slice(0, 13)])).toEqual([
      ['skip', 'loop disabled'],
      ['refuse', 'checkpoint:hu'],
    ]);
    expect(plan.plan_decision.decision).toBe('refuse');
  });

  it('auto_tasks: false skips auto tasks', () => {
    expect(decide(task('type="auto"'), config({ apply_to: { auto_tasks: false } })).tasks[0]!.reason).toBe('apply_to.auto_tasks is false');
  });

  it('named prose becomes a check only when the project configures the command', () => {
    const body = task('type="auto"', 'All tests pass, no type errors, lint clean');
    const none = decide(body).tasks[0]!;
    expect(none.decision).toBe('skip');
    expect(none.reason).toMatch(/"tests pass" needs ralf_lite.checks.tests set; "no type errors" needs ralf_lite.checks.typecheck set; "lint clean" needs ralf_lite.checks.lint set/);
    expect(none.manual).toEqual(['All tests pass, no type errors, lint clean']);
    const cmds = projectCommands(config({ checks: { tests: 'npm test', typecheck: 'npx tsc --noEmit', lint: 'npm run lint' } }));
    const some = decide(body, config(), cmds).tasks[0]!;
    expect(some.decision).toBe('loop');
    expect(some.checks.map((c) => [c.kind, 'command' in c ? c.command : ''])).toEqual([
      ['tests_pass', 'npm test'],
      ['no_type_errors', 'npx tsc --noEmit'],
      ['lint_clean', 'npm run lint'],
    ]);
    expect(some.manual).toEqual([]);
  });

  it("tests fall back to GSD's workflow.test_command", () => {
    expect(projectCommands(DEFAULT_CONFIG, { workflow: { test_command: 'pytest -q' } })).toEqual({ tests: 'pytest -q', typecheck: undefined, lint: undefined });
    expect(projectCommands(config({ checks: { tests: 'npm test' } }), { workflow: { test_command: 'pytest' } }).tests).toBe('npm test');
    expect(projectCommands(DEFAULT_CONFIG, { workflow: 'odd' }).tests).toBeUndefined();
  });

  it('deduplicates identical checks', () => {
    const t = decide(task('type="auto"', '`npm test`\n`npm test`\n<automated>npm test</automated>')).tasks[0]!;
    expect(t.checks).toHaveLength(1);
  });
});

describe('plan decisions', () => {
  const verification = '<verification>\n- `npm test` passes\n</verification>\n';
  it('loops an autonomous plan with a plan-level check', () => {
    expect(decide(task('type="auto"') + verification).plan_decision).toEqual({ decision: 'loop', reason: 'autonomous: true with 1 plan-level check (1 command_succeeds)' });
  });

  it('skips plans that are not explicitly autonomous: true', () => {
    expect(decide(verification, config(), {}, 'false').plan_decision.reason).toMatch(/^the plan is autonomous: false/);
    expect(decide(verification, config(), {}, '"yes"').plan_decision.decision).toBe('loop');
    expect(decidePlan(parsePlanText(`---\nphase: 1\n---\n${verification}`, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), DEFAULT_CONFIG, {}).plan_decision.reason).toMatch(/no autonomous: true \(GSD reads a missing key as true/);
  });

  it('skips without plan checks, or when autonomous_plans is off, or a TDD plan while tdd_tasks is off', () => {
    expect(decide(task('type="auto"')).plan_decision.reason).toBe('no executable plan-level check in <verification> or must_haves.artifacts');
    expect(decide(verification, config({ apply_to: { autonomous_plans: false } })).plan_decision.reason).toBe('apply_to.autonomous_plans is false');
    expect(decidePlan(parsePlanText(`---\ntype: tdd\nautonomous: true\n---\n${verification}`, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), DEFAULT_CONFIG, {}).plan_decision.reason).toBe('plan type: tdd and apply_to.tdd_tasks is false');
  });

  it('refuses, with a contradiction warning, when an autonomous: true plan has checkpoints', () => {
    const plan = decide(task('type="auto"') + task('type="checkpoint:human-action" gate="blocking"') + verification);
    expect(plan.plan_decision).toEqual({ decision: 'refuse', reason: '1 task needs a human (task 2 checkpoint:human-action); the plan-level loop never runs across checkpoints' });
    expect(plan.warnings).toEqual(['autonomous: true contradicts 1 task that needs a human (task 2 checkpoint:human-action); GSD requires autonomous: false when a plan has checkpoints']);
    expect(decide(task('type="checkpoint:human-verify"'), config(), {}, 'false').warnings).toEqual([]);
  });

  it('turns must_haves.artifacts into file checks (project paths only)', () => {
    const text = readFileSync(join(repoRoot, 'test/fixtures/plans/named-checks/01-01-PLAN.md'), 'utf8');
    const plan = decidePlan(parsePlanText(text, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), DEFAULT_CONFIG, {});
    expect(plan.plan_checks).toEqual([
      { kind: 'command_succeeds', command: 'npx tsc --noEmit', source: { element: 'verification', line: 55 } },
      { kind: 'file_exists', path: 'src/math.ts', source: { element: 'must_haves.artifacts', line: 14 } },
      { kind: 'contains_text', path: 'src/math.ts', text: 'export function add', source: { element: 'must_haves.artifacts', line: 14 } },
      { kind: 'min_lines', path: 'src/math.ts', min_lines: 3, source: { element: 'must_haves.artifacts', line: 14 } },
    ]);
    expect(plan.plan_manual).toEqual(['All tests pass', 'artifact ~/.config/elsewhere.json (not the project\'s file): not a path inside the project, check by hand', 'add(2, 3) returns 5']);
    expect(plan.tasks.map((t) => t.decision)).toEqual(['loop', 'skip']);
    const withTests = decidePlan(parsePlanText(text, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), DEFAULT_CONFIG, { tests: 'npm test' });
    expect(withTests.tasks.map((t) => t.decision)).toEqual(['loop', 'loop']);
    expect(withTests.plan_checks[0]).toEqual({ kind: 'tests_pass', command: 'npm test', source: { element: 'verification', line: 54 } });
  });

  it('is pure: the same input gives the same output', () => {
    const text = `${FM('true')}${task('type="auto"')}${verification}`;
    const parsed = parsePlanText(text, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE });
    expect(decidePlan(parsed, DEFAULT_CONFIG, {})).toEqual(decidePlan(parsed, DEFAULT_CONFIG, {}));
  });
});

describe('template placeholders in <automated> are no check (issue 13)', () => {
  const automated = (content: string) => `<task type="auto">\n  <name>T</name>\n  <verify>\n    <automated>${content}</automated>\n  </verify>\n</task>\n`;
  // The <automated> element is on line 11 of FM + this body.
  const slots = ['cmd', 'command', 'CMD', '&lt;command&gt;', 'TODO', 'your-test-command', 'YOUR_LINT_CMD', 'exec', 'eval'];
  it.each(slots)('<automated>%s</automated>: skipped, with a warning naming its line', (content) => {
    const plan = decide(automated(content));
    expect(plan.tasks[0]!.decision).toBe('skip');
    expect(plan.tasks[0]!.checks).toEqual([]);
    expect(plan.warnings.join('\n')).toMatch(/task 1 \(line 11\): <automated> holds a placeholder \(".+"\), not a command; it is no check/);
  });

  // One word that runs something here, or any word with arguments, is still a check.
  const checks = ['false', 'true', 'node', 'actionlint', 'mycmd', 'zig build test', 'mytool --check', './scripts/verify.sh', 'command -v node'];
  it.each(checks)('<automated>%s</automated> is still a check', (content) => {
    const plan = decide(automated(content));
    expect(plan.tasks[0]!.decision).toBe('loop');
    expect(plan.tasks[0]!.checks.map((c) => ('command' in c ? c.command : null))).toEqual([content]);
    expect(plan.warnings.join('\n')).not.toMatch(/placeholder/);
  });
});
