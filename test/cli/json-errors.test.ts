/**
 * With --json, an error is ONE JSON document on stdout — `{ "error": {...}, "exit_code": N }` —
 * and stderr stays empty, so an agent reading the merged output parses one document. Without
 * --json the readable error goes to stderr and stdout stays empty. Every subcommand that takes
 * --json, for bad arguments, a missing plan or file, a bad config and a file-system failure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDir } from '../helpers/cli.js';

/** A project whose config is invalid (max_iterations 0) beside a valid plan. */
function badConfigProject(): { root: string; plan: string } {
  const root = tempDir('ralf-json-errors-');
  mkdirSync(join(root, '.git'));
  const dir = join(root, '.planning', 'phases', '01-x');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, '.planning', 'config.json'), JSON.stringify({ ralf_lite: { max_iterations: 0 } }));
  const plan = join(dir, '01-01-PLAN.md');
  writeFileSync(plan, '---\nphase: 01-x\nplan: 01\ntype: execute\nwave: 1\nautonomous: true\n---\n\n<tasks>\n<task type="auto">\n  <name>Task 1: A</name>\n  <verify><automated>node -e "process.exit(1)"</automated></verify>\n  <done>a</done>\n</task>\n</tasks>\n');
  return { root, plan };
}

const missing = '/nonexistent/.planning/phases/01-x/01-01-PLAN.md';

/** [what, argv] — each must fail. `{root}`/`{plan}` are a project with a bad config. */
const cases: Array<[string, string[]]> = [
  ['config: unknown flag', ['config', '--nope']],
  ['config: bad config', ['config', '--cwd', '{root}']],
  ['plan: unknown flag', ['plan', '--nope']],
  ['plan: missing plan', ['plan', missing]],
  ['plan: bad config', ['plan', '{plan}']],
  ['plan verify: missing plan', ['plan', 'verify', missing]],
  ['task: unknown action', ['task', 'frobnicate']],
  ['task verify: missing plan', ['task', 'verify', missing, '1']],
  ['task verify: bad config', ['task', 'verify', '{plan}', '1']],
  ['task reset: bad task number', ['task', 'reset', '{plan}', 'x']],
  ['status: unknown flag', ['status', '--nope']],
  ['fingerprint: a directory as FILE', ['fingerprint', '{root}']],
  ['report: missing plan', ['report', missing]],
  ['install: unknown flag', ['install', '--nope']],
  ['uninstall: unknown flag', ['uninstall', '--nope']],
  ['run: missing target', ['run', missing, '--agent', 'true']],
  ['run: no agent', ['run', '{plan}']],
  ['plan-prd: unknown flag', ['plan-prd', '--nope']],
  ['demo: unknown flag', ['demo', '--nope']],
  ['an unknown subcommand', ['frobnicate']],
];

describe.concurrent('--json errors: one document on stdout, stderr quiet', () => {
  it.each(cases)('%s', async (_what, argv) => {
    const { root, plan } = badConfigProject();
    const args = argv.map((a) => a.replace('{root}', root).replace('{plan}', plan));
    const env = cleanEnv({ HOME: tempDir('ralf-home-'), PATH: process.env.PATH });

    const j = await runCli([...args, '--json'], { env, cwd: root });
    expect(j.exitCode).not.toBe(0);
    expect(String(j.stderr)).toBe('');
    const doc = JSON.parse(String(j.stdout)) as { error: { kind: string; message: string }; exit_code: number };
    expect(doc.exit_code).toBe(j.exitCode);
    expect(typeof doc.error.kind).toBe('string');
    expect(doc.error.message.length).toBeGreaterThan(0);
    expect(doc.error.kind).not.toBe('internal');

    const t = await runCli(args, { env, cwd: root });
    expect(t.exitCode).toBe(j.exitCode);
    expect(String(t.stdout)).toBe('');
    expect(String(t.stderr)).toMatch(/^ralf/);
  });
});
