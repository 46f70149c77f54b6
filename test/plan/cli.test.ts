/** `ralf plan <PLAN.md> [--json]` through the built CLI, with real project configs. */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, repoRoot, runCli, tempDir } from '../helpers/cli.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'plans');

/** A project with one plan copied into .planning/phases/ and an optional .planning/config.json. */
function project(fixture: string, config?: Record<string, unknown>) {
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  const phase = join(root, '.planning', 'phases', '03-x');
  mkdirSync(phase, { recursive: true });
  const plan = join(phase, '03-01-PLAN.md');
  copyFileSync(join(fixtures, fixture), plan);
  if (config) writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify(config));
  return { root, plan, env: cleanEnv({ HOME: tempDir('ralf-home-') }) };
}

describe('ralf plan', () => {
  it('prints a table of tasks with decisions, reasons and checks, then the plan-level decision', async () => {
    const { root, plan, env } = project('gsd-example-autonomous/03-01-PLAN.md');
    const r = await runCli(['plan', '.planning/phases/03-x/03-01-PLAN.md'], { cwd: root, env });
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out).toContain('Plan 03-01  .planning/phases/03-x/03-01-PLAN.md');
    expect(out).toContain('phase 03-health-verification · plan 01 · type execute · wave 1 · autonomous: true · metadata: yaml');
    expect(out).toMatch(/^#\s+line\s+task\s+type\s+decision\s+checks\s+reason$/m);
    expect(out).toMatch(/^1\s+75\s+Task 1: Create hash utility for file integrity …\s+auto\s+loop\s+1 cmd\s+type="auto" with 1 executable check \(1 command_succeeds\)$/m);
    expect(out).toContain('2 tasks: 2 loop, 0 skip, 0 refuse');
    expect(out).toContain(`$ node -e "import('./src/utils/hash.js').then(m => console.log(typeof m.hashFile, typeof m.hashString))"  (verify:95)`);
    expect(out).toContain('plan-level: loop — autonomous: true with 4 plan-level checks (2 file_exists, 2 min_lines)');
    expect(out).toContain('min_lines src/services/health-checker.js >= 150  (must_haves.artifacts:19)');
    expect(plan).toContain(root);
  });

  it('--json has the plan frontmatter, the plan decision and one entry per task', async () => {
    const { root, plan, env } = project('gsd-example-checkpoint/03-01-PLAN.md');
    const r = await runCli(['plan', plan, '--json'], { cwd: root, env });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(Object.keys(doc)).toEqual(['plan', 'id', 'path', 'frontmatter_source', 'objective', 'plan_decision', 'plan_checks', 'plan_manual', 'summary', 'tasks', 'warnings']);
    expect(doc.plan).toMatchObject({ phase: '03-verification-cleanup', plan: '01', type: 'execute', wave: 1, autonomous: false, files_modified: [], requirements: [] });
    expect(doc.plan.must_haves.artifacts[0]).toEqual({ path: '~/.cursor/commands/gsd/', provides: '27 GSD command files', contains: '*.md files' });
    expect(doc.id).toBe('03-01');
    expect(doc.path).toBe(plan);
    expect(doc.plan_decision).toEqual({ decision: 'refuse', reason: '1 task needs a human (task 2 checkpoint:human-verify); the plan-level loop never runs across checkpoints' });
    expect(doc.summary).toEqual({ tasks: 2, loop: 0, skip: 1, refuse: 1 });
    expect(doc.tasks[0]).toEqual({
      number: 1,
      name: 'Task 1: Deploy GSD to Cursor test environment',
      type: 'auto',
      tdd: false,
      gate: null,
      attributes: {},
      line: 60,
      end_line: 86,
      files: ['~/.cursor/commands/gsd/', '~/.cursor/agents/', '~/.cursor/get-shit-done/'],
      decision: 'skip',
      reason: 'not objectively verifiable: no executable check in <verify>/<done>',
      checks: [],
      manual: [
        'Installation command exits with success (exit code 0).',
        'File counts match expected: 27 commands, 11 agents, 3+ subdirectories in get-shit-done.',
        'GSD files deployed to ~/.cursor/ directory structure',
      ],
    });
    expect(doc.tasks[1]).toMatchObject({ number: 2, type: 'checkpoint:human-verify', gate: 'blocking', line: 88, decision: 'refuse' });
    expect(doc.warnings).toEqual([]);
  });

  it('named criteria use the project config: ralf_lite.checks, then workflow.test_command', async () => {
    const run = async (config?: Record<string, unknown>) => {
      const { root, plan, env } = project('named-checks/01-01-PLAN.md', config);
      const r = await runCli(['plan', plan, '--json'], { cwd: root, env });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      return JSON.parse(String(r.stdout));
    };
    const none = await run();
    expect(none.tasks.map((t: { decision: string }) => t.decision)).toEqual(['loop', 'skip']);
    expect(none.tasks[1].reason).toBe('not objectively verifiable: no executable check in <verify>/<done>; "tests pass" needs ralf_lite.checks.tests set');

    const configured = await run({ ralf_lite: { checks: { tests: 'npm test', typecheck: 'npx tsc --noEmit', lint: 'npm run lint' } } });
    expect(configured.tasks[0].checks.map((c: { kind: string }) => c.kind)).toEqual(['tests_pass', 'no_type_errors', 'lint_clean', 'file_exists']);
    expect(configured.tasks[1]).toMatchObject({ decision: 'loop', checks: [{ kind: 'tests_pass', command: 'npm test', source: { element: 'done', line: 48 } }] });

    const gsd = await run({ mode: 'yolo', workflow: { test_command: 'pytest -q' } });
    expect(gsd.tasks[1].checks).toEqual([{ kind: 'tests_pass', command: 'pytest -q', source: { element: 'done', line: 48 } }]);

    const off = await run({ ralf_lite: { enabled: false } });
    expect(off.tasks.map((t: { reason: string }) => t.reason)).toEqual(Array(2).fill('loop disabled (ralf_lite.enabled: false); the task runs once without the loop'));
    expect(off.plan_decision).toEqual({ decision: 'skip', reason: 'loop disabled (ralf_lite.enabled: false)' });
  });

  it('usage errors exit 2', async () => {
    const env = cleanEnv({ HOME: tempDir('ralf-home-') });
    const none = await runCli(['plan'], { env });
    expect(none.exitCode).toBe(2);
    expect(String(none.stderr)).toContain('missing <PLAN.md>');
    const extra = await runCli(['plan', 'a.md', 'b.md'], { env });
    expect(extra.exitCode).toBe(2);
    expect(String(extra.stderr)).toContain('unexpected argument "b.md"');
    const flag = await runCli(['plan', 'a.md', '--bogus'], { env });
    expect(flag.exitCode).toBe(2);
  });

  it('`ralf plan verify` is routed to the plan-level loop command', async () => {
    const r = await runCli(['plan', 'verify'], { env: cleanEnv({ HOME: tempDir('ralf-home-') }) });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('plan verify');
    expect(String(r.stderr)).not.toContain('ralf plan <PLAN.md> [--json]');
  });
});
