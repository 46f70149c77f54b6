/**
 * The broken-plan corpus (test/fixtures/bad/plans, outcomes in expected.json) through the
 * real CLI: malformed input exits 2 naming the file and line; input that is odd but
 * legitimately parseable exits 0 with the decisions a reader expects. Plus cases that
 * can't be committed: a 50 MB file, a directory, a missing file, a FIFO, deep nesting.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { cleanEnv, repoRoot, runCli, tempDir } from '../helpers/cli.js';

const corpus = join(repoRoot, 'test', 'fixtures', 'bad', 'plans');

type Expected =
  | { exit: 2; line?: number; match: string }
  | { exit: 0; tasks: Array<[string, number, string?]>; plan: string; warning: string | null; name?: string };

const expected: Record<string, Expected> = JSON.parse(readFileSync(join(corpus, 'expected.json'), 'utf8'));
const cases = readdirSync(corpus).filter((f) => f !== 'expected.json').sort();

/** A temp project (.git bounds the config search; HOME is isolated) with the plan copied in. */
function project(): { root: string; phase: string; env: Record<string, string | undefined> } {
  const root = tempDir();
  mkdirSync(join(root, '.git'));
  const phase = join(root, '.planning', 'phases', '01-bad');
  mkdirSync(phase, { recursive: true });
  return { root, phase, env: cleanEnv({ HOME: tempDir('ralf-home-') }) };
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out[p] = `${statSync(p).size}@${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

async function plan(file: string, cwd: string, env: Record<string, string | undefined>) {
  const r = await runCli(['plan', file, '--json'], { cwd, env });
  return { ...r, json: JSON.parse(String(r.stdout)) };
}

function expectError(r: Awaited<ReturnType<typeof plan>>, file: string, match: string, line?: number) {
  expect(r.exitCode).toBe(2);
  const err = r.json.error;
  expect(err.kind).toMatch(/^plan_/);
  expect(err.problems[0].file).toBe(file);
  // --json: the error is the one document on stdout; stderr stays quiet.
  expect(String(r.stderr)).toBe('');
  if (line !== undefined) {
    expect(err.problems[0].line).toBe(line);
  } else expect(err.message).toContain(file);
  expect([err.message, ...err.problems.map((p: { message: string }) => p.message)].join('\n')).toContain(match);
}

describe('bad plan corpus (test/fixtures/bad/plans)', () => {
  it('has at least 20 cases and an expectation for each', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(expected).sort()).toEqual(cases);
  });

  for (const name of cases) {
    const exp = expected[name]!;
    it(`${name}: ${exp.exit === 2 ? `exit 2, ${exp.match}` : `exit 0, ${exp.tasks.map((t) => t[0]).join('/') || 'no tasks'}`}`, async () => {
      const { root, phase, env } = project();
      const file = join(phase, name);
      copyFileSync(join(corpus, name), file);
      const before = snapshot(root);
      const r = await plan(file, root, env);
      expect(snapshot(root)).toEqual(before); // `ralf plan` never writes
      if (exp.exit === 2) {
        expectError(r, file, exp.match, exp.line);
        return;
      }
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const tasks = r.json.tasks as Array<{ decision: string; line: number; reason: string; name: string }>;
      expect(tasks.map((t) => [t.decision, t.line])).toEqual(exp.tasks.map(([d, l]) => [d, l]));
      exp.tasks.forEach(([, , reason], i) => {
        if (reason) expect(tasks[i]!.reason).toContain(reason);
      });
      expect(r.json.plan_decision.decision).toBe(exp.plan);
      if (exp.warning === null) expect(r.json.warnings).toEqual([]);
      else expect(r.json.warnings.join('\n')).toContain(exp.warning);
      if (exp.name) expect(tasks[0]!.name).toBe(exp.name);
    });
  }

  it('control characters and bidi overrides in plan text never reach the terminal', async () => {
    const { root, phase, env } = project();
    const file = join(phase, '27-control-chars-in-name.md');
    copyFileSync(join(corpus, '27-control-chars-in-name.md'), file);
    const r = await runCli(['plan', file], { cwd: root, env });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).not.toMatch(/[\u001b\u202e\u202c]/);
    expect(String(r.stdout)).toContain('red');
  });
});

describe('inputs generated in the test', () => {
  it('a 50 MB file is refused without being read', async () => {
    const { root, phase, env } = project();
    const file = join(phase, '01-01-PLAN.md');
    const fd = openSync(file, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'x\n'.repeat(512));
    writeSync(fd, Buffer.from('---\nphase: 01\n---\n'));
    for (let i = 0; i < 50; i++) writeSync(fd, chunk);
    closeSync(fd);
    const r = await plan(file, root, env);
    expectError(r, file, 'is too large');
    expect(r.json.error.problems[0].expected).toBe('at most 10485760 bytes');
  });

  it('a directory', async () => {
    const { root, phase, env } = project();
    const dir = join(phase, '01-01-PLAN.md');
    mkdirSync(dir);
    expectError(await plan(dir, root, env), dir, 'is a directory');
  });

  it('a missing file', async () => {
    const { root, phase, env } = project();
    const file = join(phase, '01-09-PLAN.md');
    const r = await plan(file, root, env);
    expectError(r, file, 'no such file');
    expect(r.json.error.kind).toBe('plan_not_found');
  });

  it.runIf(process.platform !== 'win32')('a FIFO is refused instead of blocking on read', async () => {
    const { root, phase, env } = project();
    const fifo = join(phase, '01-01-PLAN.md');
    await execa('mkfifo', [fifo]);
    expectError(await plan(fifo, root, env), fifo, 'is not a regular file');
  });

  it('20,000 nested unknown tags around a real task parse (no recursion limit)', async () => {
    const { root, phase, env } = project();
    const file = join(phase, '01-01-PLAN.md');
    writeFileSync(
      file,
      `---\nautonomous: true\n---\n${'<div>\n'.repeat(20_000)}<task type="auto">\n<name>deep</name>\n<verify>\`npm test\`</verify>\n</task>\n${'</div>\n'.repeat(20_000)}`,
    );
    const r = await plan(file, root, env);
    expect(r.exitCode).toBe(0);
    expect(r.json.tasks.map((t: { line: number; decision: string }) => [t.line, t.decision])).toEqual([[20_004, 'loop']]);
  });
});
