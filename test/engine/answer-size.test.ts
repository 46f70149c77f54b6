/**
 * `task verify --json` fits in what an agent host hands its model of one tool result.
 * Seen through the real Claude Code: a test run printing ~60 KB made the answer 66 KB, and the
 * model got a 2 KB preview of a file instead (no exit code, no `next`, no handoff).
 */
import { describe, expect, it } from 'vitest';
import { ANSWER_MAX_CHARS, fitAnswer } from '../../src/engine/core/answer-size.js';
import { autoTask, Project, PLAN_REL } from './project.js';

const NOISY_CHECK = `for (let i = 0; i < 1500; i++) console.log('progress line ' + i + ' '.padEnd(30, '.'));\nconsole.log('FAIL: expected 5, got 0');\nprocess.exitCode = 1;\n`;

describe('the --json answer of a verify', () => {
  it('a check printing ~70 KB: the answer stays under the bound and keeps the output\'s head, its end, and everything else', async () => {
    const p = new Project({ tasks: autoTask({ name: 'Task 1: Add', verify: 'node check.js' }), files: { 'src/a.js': '1\n', 'check.js': NOISY_CHECK } });
    const r = await p.run(['task', 'verify', PLAN_REL, '1', '--json']);
    expect(r.exitCode).toBe(10);
    const text = String(r.stdout);
    expect(text.length).toBeLessThanOrEqual(ANSWER_MAX_CHARS + 1);
    const answer = JSON.parse(text);
    expect(answer).toMatchObject({ verdict: 'retry', exit_code: 10, iteration: 1 });
    expect(answer.next).toContain('task verify');
    const tail: string = answer.checks[0].output_tail;
    expect(tail).toContain('progress line 0 ');
    expect(tail).toMatch(/FAIL: expected 5, got 0\s*$/);
    expect(tail).toMatch(/… \(\d+ characters left out so the answer fits an agent's tool result; run the check to see its whole output\)/);
  });

  it('a small answer is left as it is', () => {
    const answer = { verdict: 'retry', checks: [{ command: 'npm test', output_tail: 'x'.repeat(500) }] };
    expect(fitAnswer(answer)).toBe(answer);
  });

  it('two noisy checks share the room; each keeps at least its last lines', () => {
    const answer = { checks: [0, 1].map((i) => ({ command: `c${i}`, output_tail: `${'y'.repeat(40_000)}end of ${i}` })) };
    const fitted = fitAnswer(answer);
    expect(JSON.stringify(fitted, null, 2).length).toBeLessThanOrEqual(ANSWER_MAX_CHARS);
    for (const [i, c] of fitted.checks.entries()) expect(c.output_tail.endsWith(`end of ${i}`)).toBe(true);
  });
});
