/**
 * An agent (and a person) that does exactly what the runtime's texts say: each `next:` line of
 * `ralf task verify`'s readable answer, and the Loop Report's `Next:` line in SUMMARY.md, has its
 * command run as written in the project directory, without the runtime on PATH. The loop must end
 * where it should (pass, confirmed) and the command must do what the text says.
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';
import { PLAN, Scenario, wantFor } from './harness.js';
import { RUNNERS } from './runners.js';

const runner = RUNNERS.nodeTest;
const SUMMARY = '.planning/phases/01-units/01-01-SUMMARY.md';

function run(s: Scenario, command: string): { code: number | null; out: string } {
  const r = spawnSync('bash', ['-c', command], { cwd: s.dir, env: s.env() as NodeJS.ProcessEnv, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The command in the readable answer's `next:` line (the first quoted one that runs the runtime). */
function nextCommand(out: string): string {
  const line = out.split('\n').find((l) => /^next: /i.test(l.trim())) ?? '';
  const cmd = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).find((c) => / (task|plan) /.test(c));
  if (!cmd) throw new Error(`no command in the next line:\n${out}`);
  return cmd;
}

describe.concurrent('the runtime\'s texts, followed literally', () => {
  it('an agent following each `next:` from task start to a confirmed pass: start, retry, confirm (exit 11), pass', async ({ expect }) => {
    const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4 } });
    s.write(PLAN, s.read(PLAN).replace('</verify>', '</verify>\n  <done>The units read well to a maintainer</done>'));
    s.git('commit', '-qam', 'plan');
    const start = await s.ralf(['task', 'start', PLAN, '1']);
    expect(start.exitCode, String(start.stderr)).toBe(0);
    let next = nextCommand(String(start.stdout) + String(start.stderr));
    s.fix('alpha');
    let r = run(s, next);
    expect(r.code, r.out).toBe(10);
    next = nextCommand(r.out);
    s.fix('bravo');
    r = run(s, next);
    expect(r.code, r.out).toBe(11);
    next = nextCommand(r.out);
    expect(next).toMatch(/--done-confirmed$/);
    r = run(s, next);
    expect(r.code, r.out).toBe(0);
  }, 90_000);

  it('a person following the Loop Report\'s `Next:` after a stop: the reset it names works, and the loop starts again with a fresh budget', async ({ expect }) => {
    const s = new Scenario(runner, { want: wantFor(2), limits: { max_iterations: 4 } });
    const trail = await s.play([() => {}, () => {}, () => {}]);
    expect(trail).toEqual(['retry+', 'stop:repeated_fingerprint']);
    const report = await s.ralf(['report', PLAN, '--create']);
    expect(report.exitCode, String(report.stderr)).toBe(0);
    const line = s.read(SUMMARY).split('\n').find((l) => l.includes('Next:')) ?? '';
    const reset = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).find((c) => / task reset /.test(c));
    expect(reset, line).toBeDefined();
    const r = run(s, reset!);
    expect(r.code, r.out).toBe(0);
    s.fix('alpha', 'bravo');
    expect((await s.verify()).word).toBe('pass');
  }, 90_000);
});
