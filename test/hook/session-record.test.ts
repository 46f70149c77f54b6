/**
 * `ralf task start`/`verify` record the host session they run in (the env var the host
 * gives its shell commands), so the Stop hook holds only the session that runs the loop.
 */
import { describe, expect, it } from 'vitest';
import { autoTask, Project, PLAN_REL, VALUE_CHECK } from '../engine/project.js';
import { taskLoop } from '../helpers/state.js';

const files = { 'src/a.js': "module.exports = 'broken';\n", 'check.js': VALUE_CHECK };

describe('host session recorded on the loop', () => {
  it('start records Claude Code\'s session, a verify from OpenCode takes it over, a verify outside any host keeps it', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Fix it', verify: 'node check.js' }), files });
    const start = await p.run(['task', 'start', PLAN_REL, '1', '--json'], { env: p.env({ CLAUDE_CODE_SESSION_ID: 'claude-sess-1' }) });
    expect(start.exitCode, String(start.stderr)).toBe(0);
    expect(taskLoop(p.state(), 1).session).toEqual({ host: 'claude', id: 'claude-sess-1' });

    const v1 = await p.run(['task', 'verify', PLAN_REL, '1', '--json'], { env: p.env({ OPENCODE_SESSION_ID: 'ses_oc2' }) });
    expect(v1.exitCode).toBe(10);
    expect(taskLoop(p.state(), 1).session).toEqual({ host: 'opencode', id: 'ses_oc2' });

    p.write('src/a.js', "module.exports = 'still broken';\n");
    expect((await p.verify(1)).code).toBe(10);
    expect(taskLoop(p.state(), 1).session).toEqual({ host: 'opencode', id: 'ses_oc2' });
  });
});
