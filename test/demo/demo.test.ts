/**
 * `ralf demo` (the README's `npm run demo`): on a fresh machine, no model, no network. The
 * scripted agent runs through the generic `--agent` path; one demo shows all four outcomes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { runStableCli } from '../run/helpers.js';

describe.concurrent('ralf demo', () => {
  it('--json: a task passing on iteration 2, a refused checkpoint, a stuck task, the Loop Report', async ({ expect }) => {
    const home = tempDir('ralf-demo-home-');
    const r = await runStableCli(['demo', '--json'], { env: cleanEnv({ HOME: home }), timeout: 60_000 });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = JSON.parse(String(r.stdout)) as Record<string, any>;
    expect(out.ok).toBe(true);
    expect(out.outcomes.passed_on_iteration_2).toMatchObject({ task: 1, iterations: 2 });
    expect(out.outcomes.passed_on_iteration_2.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(out.outcomes.refused_checkpoint).toEqual({ task: 2, type: 'checkpoint:human-verify' });
    expect(out.outcomes.stuck).toEqual({ task: 3, stop_reason: 'repeated_fingerprint', iterations: 2 });
    expect(out.outcomes.report).toMatchObject({ action: 'created' });
    expect(out.summary_path).toMatch(/\.planning\/phases\/01-text-utils\/01-01-SUMMARY\.md$/);
    expect(out.report_markdown).toContain('## RALF Lite Loop Report');
    expect(out.report_markdown).toContain('repeated_fingerprint');
    // Two runs: paused at the checkpoint (20), then stopped by the stuck task (20).
    expect(out.runs.map((x: any) => [x.exit_code, x.outcome])).toEqual([
      [20, 'checkpoint'],
      [20, 'stopped'],
    ]);
    expect(out.runs[1].command).toContain('--resume-signal approved');
    // The scripted agent is a real process started through the generic command agent.
    const starts = out.runs.flatMap((x: any) => x.events).filter((e: any) => e.type === 'agent_start');
    expect(starts.length).toBe(4);
    expect(starts[0].command).toMatch(/scripted-agent\.mjs \{prompt\}$/);
    // The temp project is removed unless --keep.
    expect(out.kept).toBe(false);
    expect(existsSync(out.dir)).toBe(false);
  });

  it('prints a readable walkthrough and keeps the project with --keep', async ({ expect }) => {
    const home = tempDir('ralf-demo-home-');
    const r = await runStableCli(['demo', '--keep'], { env: cleanEnv({ HOME: home }), timeout: 60_000 });
    const text = String(r.stdout);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(text).toContain('── Run 1');
    expect(text).toContain('CHECKPOINT: Verification Required');
    expect(text).toContain('verify 2/3: pass');
    expect(text).toContain('stop: repeated_fingerprint');
    expect(text).toContain('## RALF Lite Loop Report');
    const recap = text.slice(text.indexOf('── What you just saw'));
    expect(recap.match(/^ {2}✓ /gm)).toHaveLength(4);
    expect(text).not.toContain('✗ missing');
    const dir = /Temp project kept: (\S+)/.exec(text)?.[1];
    expect(dir).toBeTruthy();
    expect(readFileSync(join(dir!, '.planning/phases/01-text-utils/01-01-SUMMARY.md'), 'utf8')).toContain('## RALF Lite Loop Report');
    // The "try:" line runs as written in a terminal with no ralf on PATH (the kept project has
    // no node_modules: `npx ralf` there asked the npm registry for a package named ralf).
    const tryLine = /\(try: (.+)\)$/m.exec(text)?.[1];
    expect(tryLine).toBeTruthy();
    const tried = spawnSync('bash', ['-c', tryLine!], { cwd: home, encoding: 'utf8', env: cleanEnv({ HOME: home, PATH: '/usr/bin:/bin', npm_config_offline: 'true' }) as NodeJS.ProcessEnv });
    expect(tried.status, tried.stderr).toBe(0);
    expect(tried.stdout).toContain('Plan 01-01');
    rmSync(dirname(dir!), { recursive: true, force: true });
  });
});
