/** `ralf run <target> --dry-run`: how a target is read, with nothing run and nothing written. */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/cli.js';
import { runStableCli } from './helpers.js';

function copyExample(name: string): string {
  const dir = join(tempDir('ralf-dry-'), name);
  cpSync(join(repoRoot, 'examples', name), dir, { recursive: true });
  return dir;
}

describe('ralf run --dry-run', () => {
  it('shows a seed\'s items, what the loop does with each and their checks, without --agent, writing nothing', async () => {
    const dir = copyExample('prd-checklist');
    const r = await runStableCli(['run', 'PRD.md', '--dry-run', '--json'], { cwd: dir });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toBe('');
    const preview = JSON.parse(String(r.stdout));
    expect(preview).toMatchObject({ kind: 'prd', project_root: dir, skipped: [] });
    const tasks = preview.plans[0].tasks as Array<{ number: number; decision: string; reason: string; checks: string[] }>;
    expect(tasks.map((t) => t.decision)).toEqual(['skip', 'loop', 'loop', 'loop', 'skip', 'refuse']);
    expect(tasks[0]!.reason).toMatch(/already done/);
    expect(tasks[1]!.checks).toEqual(['file_exists greet.js', 'test "$(node greet.js Ada)" = "Hello, Ada!"']);
    expect(existsSync(join(dir, '.planning', 'ralf'))).toBe(false);

    const text = await runStableCli(['run', 'PRD.md', '--dry-run'], { cwd: dir });
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout)).toMatch(/^ralf run --dry-run: prd PRD\.md \(nothing runs; project root \.\)/);
    expect(String(text.stdout)).toContain('  2. Create `greet.js` that prints `Hello, <name>!` for its first argument — loop: 2 checks\n       - file_exists greet.js');
  });

  it('a GSD plan: its tasks and plan-level checks; an unreadable target is the usual error', async () => {
    const dir = copyExample('demo-project');
    const plan = '.planning/phases/01-text-utils/01-01-PLAN.md';
    const r = await runStableCli(['run', plan, '--dry-run', '--json'], { cwd: dir });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const preview = JSON.parse(String(r.stdout));
    expect(preview.kind).toBe('gsd-plan');
    expect(preview.plans[0].tasks.some((t: { decision: string }) => t.decision === 'loop')).toBe(true);
    const bad = await runStableCli(['run', 'nope.md', '--dry-run', '--json'], { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(String(bad.stdout)).error.message).toMatch(/nope\.md/);
  });
});
