/**
 * GSD Core (@opengsd/gsd-core 1.14) plan contents and the checkpoint gate (#16 item 8):
 * <fails_when> binding, <human-check>, type="tracer", tracker-id, user_setup, <precondition>,
 * and tasks whose attributes mention a checkpoint in any form.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';
import { decidePlan, type DecideContext, type TrackerResolution } from '../../src/plan/decide.js';
import { parsePlanText } from '../../src/plan/parse.js';
import { DEV_MACHINE } from './machine.js';

const FM = '---\nphase: 01\nplan: 01\ntype: execute\nautonomous: true\n---\n';
const plan = (body: string, ctx: DecideContext = {}, fm = FM) => decidePlan(parsePlanText(fm + body, '/p/01-01-PLAN.md', { resolves: DEV_MACHINE }), DEFAULT_CONFIG, {}, ctx);
const task = (attrs: string, verify = '<automated>npm test</automated>', extra = '') => `<tasks>\n<task ${attrs}>\n<name>T</name>${extra}\n<action>do</action>\n<verify>${verify}</verify>\n</task>\n</tasks>\n`;

describe('checkpoint gate: any mention of a checkpoint in the attributes refuses the task', () => {
  const cases = [
    'type="auto" type="checkpoint:human-verify"',
    'type="checkpoint:human-verify" type="auto"',
    'TYPE="checkpoint:human-verify"',
    'type="auto checkpoint:human-verify"',
    'type="Checkpoint:Decision"',
    'type="auto" kind="checkpoint:human-action"',
  ];
  it.each(cases)('<task %s>', (attrs) => {
    const p = plan(task(attrs));
    expect(p.tasks[0]!.decision).toBe('refuse');
    expect(p.plan_decision.decision).toBe('refuse');
    if (attrs !== 'type="Checkpoint:Decision"') expect(p.warnings.join('\n')).toMatch(/mention a checkpoint/);
  });
  it('a clean type="checkpoint:..." is refused without an ambiguity warning; type="auto" loops', () => {
    expect(plan(task('type="checkpoint:human-verify"')).warnings.join('\n')).not.toMatch(/mention a checkpoint/);
    expect(plan(task('type="auto"')).tasks[0]!.decision).toBe('loop');
    expect(plan(task('TYPE="auto"')).tasks[0]!.decision).toBe('loop');
  });
});

describe('GSD Core verify contents', () => {
  it('binds each <fails_when> to the nearest preceding <automated>; <human-check> is manual', () => {
    const p = plan(task('type="auto"', '<automated>npm test</automated>\n<fails_when>non-zero exit, or "0 passed"</fails_when>\n<automated>npm run lint</automated>\n<human-check>The banner shows</human-check>'));
    const t = p.tasks[0]!;
    expect(t.checks).toMatchObject([{ command: 'npm test', fails_when: 'non-zero exit, or "0 passed"' }, { command: 'npm run lint' }]);
    expect(t.checks[1]).not.toHaveProperty('fails_when');
    expect(t.manual).toEqual(['The banner shows']);
  });
  it('type="tracer" loops like auto', () => {
    const t = plan(task('type="tracer"')).tasks[0]!;
    expect([t.decision, t.reason]).toEqual(['loop', expect.stringContaining('type="tracer" (looped like auto)')]);
  });
});

describe('tracker-id', () => {
  const body = task('type="auto" tracker-id="GH-12"', '<automated>echo plan-text</automated>');
  it('is refused when gsd_run cannot resolve it, never falling back to the PLAN.md text', () => {
    const t = plan(body).tasks[0]!;
    expect(t.decision).toBe('refuse');
    expect(t.reason).toMatch(/tracker-id="GH-12".*gsd_run.*never used instead/);
    expect(t.checks).toEqual([]);
    const failed = plan(body, { trackers: new Map<string, TrackerResolution>([['GH-12', { kind: 'refused', why: 'gsd_run task resolve-content failed (exit 1): timeout' }]]) }).tasks[0]!;
    expect(failed.reason).toMatch(/exit 1/);
  });
  it('takes the tracker content when resolved, and the PLAN.md text when GSD says resolved: false', () => {
    const resolved = plan(body, { trackers: new Map<string, TrackerResolution>([['GH-12', { kind: 'resolved', criteria: [{ text: 'make check', source: { element: 'tracker verify', line: 1 }, checks: [{ kind: 'command_succeeds', command: 'make check', source: { element: 'tracker verify', line: 1 } }], named: [], manual: false }] }]]) }).tasks[0]!;
    expect(resolved.checks.map((c) => ('command' in c ? c.command : ''))).toEqual(['make check']);
    const inline = plan(body, { trackers: new Map<string, TrackerResolution>([['GH-12', { kind: 'inline', reason: 'no-resolver' }]]) }).tasks[0]!;
    expect(inline.checks.map((c) => ('command' in c ? c.command : ''))).toEqual(['echo plan-text']);
  });
});

describe('user_setup and <precondition>', () => {
  const setup = '---\nphase: 01\nplan: 01\nautonomous: true\nuser_setup:\n  - service: stripe\n    why: "payments"\n    env_vars:\n      - name: STRIPE_SECRET_KEY\n        source: "Stripe Dashboard → API keys"\n    dashboard_config:\n      - task: "Create webhook endpoint"\n---\n';
  it('refuses the plan up front with what the person must do, until the env vars are set', () => {
    const p = plan(task('type="auto"'), {}, setup);
    expect(p.tasks[0]!.decision).toBe('refuse');
    expect(p.plan_decision).toMatchObject({ decision: 'refuse', reason: expect.stringContaining('set STRIPE_SECRET_KEY (Stripe Dashboard → API keys)') });
    expect(p.plan_decision.reason).toContain('Create webhook endpoint');
    const ready = plan(task('type="auto"'), { env: { STRIPE_SECRET_KEY: 'sk_test' } }, setup);
    expect(ready.tasks[0]!.decision).toBe('loop');
    expect(ready.warnings.join('\n')).toMatch(/Create webhook endpoint/);
  });
  it('refuses a task whose precondition needs a person; artifact preconditions do not', () => {
    const env = task('type="auto"', '<automated>npm test</automated>', '\n<precondition>SENDGRID_API_KEY is set (user_setup step 1 complete)</precondition>');
    expect(plan(env).tasks[0]).toMatchObject({ decision: 'refuse', reason: expect.stringContaining('SENDGRID_API_KEY is not set') });
    expect(plan(env, { env: { SENDGRID_API_KEY: 'x' } }).tasks[0]!.decision).toBe('loop');
    const human = task('type="auto"', '<automated>npm test</automated>', '\n<precondition>The Apple developer account is approved</precondition>');
    expect(plan(human).tasks[0]!.decision).toBe('refuse');
    const artifact = task('type="auto"', '<automated>npm test</automated>', '\n<precondition>dist/schema.json from Phase 02 exists</precondition>');
    expect(plan(artifact).tasks[0]!.decision).toBe('loop');
  });
});
