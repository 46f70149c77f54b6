/**
 * `ralf plan-prd`: copilot_ralf's planning step (ralph-plan.sh). One agent with the planning
 * model turns a prompt into `.ralph/prd.md`, the run stops for a human review (or, with
 * --skip-review, goes on into the loop), and an existing PRD is never overwritten.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { shellWord } from '../../src/engine/core/commands.js';
import { runtimeInvocation } from '../../src/install/render.js';
import { runStableCli, stableCliPath } from './helpers.js';
import { agentSaw, read, seedAgentCmd, seedProject, subjects, write } from './seed-helpers.js';

describe('ralf plan-prd', () => {
  it('writes .ralph/prd.md with the planning model, stops for review, never overwrites, --skip-review runs the loop', async () => {
    const p = seedProject({}, { run: {} });
    const env = cleanEnv({ AGENT_LOG_DIR: p.logDir, HOME: p.root, XDG_CONFIG_HOME: join(p.root, '.xdg'), RALPH_PLAN_MODEL: 'claude-sonnet-4.5' });
    const r = await runStableCli(['plan-prd', 'Two files that say ok', '--agent', seedAgentCmd()], { cwd: p.root, env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('Wrote .ralph/prd.md: 2 tasks, 2 with a check ralf can run.');
    // The next command names this runtime as it runs here (no `ralf` on PATH), the agent quoted for the shell.
    expect(String(r.stdout)).toContain(`${runtimeInvocation(process.execPath, realpathSync(stableCliPath()))} run .ralph/prd.md --agent ${shellWord(seedAgentCmd())}`);
    expect(read(p, '.ralph/prd.md')).toMatch(/^- \[ \] \*\*Task 1: Make `a\.txt` say ok\*\* \[effort: low\]$/m);
    expect(agentSaw(p, 1).model).toBe('claude-sonnet-4.5');
    expect(subjects(p)).toEqual(['init']);

    const again = await runStableCli(['plan-prd', 'Something else', '--agent', seedAgentCmd()], { cwd: p.root, env });
    expect(again.exitCode).toBe(2);
    expect(String(again.stderr)).toMatch(/\.ralph\/prd\.md already exists; ralf plan-prd never overwrites a PRD/);

    // An agent that prints the PRD instead of writing it; then straight into the loop.
    write(p, 'README.md', '# seed project (planned again)\n');
    const printed = await runStableCli(['plan-prd', 'Two files', '--agent', seedAgentCmd(), '--out', 'plan/prd.md', '--plan-model', 'opus', '--skip-review', '--json'], {
      cwd: p.root,
      env: { ...env, SEED_AGENT_PRINT: '1' },
    });
    expect(printed.exitCode, String(printed.stderr)).toBe(0);
    expect(read(p, 'plan/prd.md')).toMatch(/^# PRD: Files\n/);
    expect(agentSaw(p, 2).model).toBe('opus');
    expect(String(printed.stdout)).toContain('"type":"run_end"');
    expect(read(p, 'plan/prd.md')).toMatch(/^- \[x\] \*\*Task 2: Make `b\.txt` say ok\*\*/m);
  });
});
